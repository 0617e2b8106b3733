#include "tables_sched.hpp"

#include <cmath>

#include "checks_sched.hpp"
#include "vocabulary.hpp"

namespace ch11 {

namespace {

// @p records as JSON-only columns of @p row ("urgent_start_us", ...), in us after @p origin_ns.
void set_blocks(lab::ResultTable::Row& row, const std::string& prefix, const std::vector<lab::BlockRecord>& records,
                unsigned long long origin_ns) {
  lab::BlockColumns c = lab::block_columns(records, origin_ns);
  row.set(prefix + "start_us", std::move(c.start_us))
      .set(prefix + "end_us", std::move(c.end_us))
      .set(prefix + "sm", std::move(c.sm));
}

}  // namespace

// --- 1. A block-level timeline -------------------------------------------------------------

std::vector<double> recorder_spans_us(const BlockTimelineRun& run) {
  std::vector<double> spans;
  for (const lab::BlockSpan& launch : run.spans) spans.push_back(launch.span_us);
  return spans;
}

lab::ResultTable block_timer_table(const BlockTimelineRun& run) {
  lab::ResultTable table("block_timer",
                         lab::format("c = a + b on %lld floats, %d blocks of %d threads, each way of timing it",
                                     static_cast<long long>(run.n), run.blocks, run.threads),
                         "timed by",
                         {{"median", "median", "us", 2},
                          {"min", "min", "us", 2},
                          {"max", "max", "us", 2},
                          {"count", "samples", "", 0},
                          {"vs_plain_percent", "vs not recording", "%", 1}});
  const std::vector<std::pair<const char*, std::vector<double>>> rows = {
      {"CUPTI, not recording", run.plain_cupti_us},
      {"CUPTI, recording", run.recorded_cupti_us},
      {"events, not recording", run.plain_events_us},
      {"events, recording", run.recorded_events_us},
      {"block recorder's span", recorder_spans_us(run)}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].second.empty()) continue;
    lab::ResultTable::Row& row = table.add_row(rows[i].first).samples(rows[i].second, "us");
    if (i == 1 || i == 3)  // recording against the same timer not recording, medians
      row.set("vs_plain_percent", lab::percent_above(row.summary().median, lab::median_or_nan(rows[i - 1].second)));
  }
  table.note(std::string(run.held ? "each pair (not recording, recording) queued behind a held stream"
                                  : "each pair launched back to back (stream not held: instrumented)") +
             "; span: the last block's end less the first block's start (%globaltimer)" +
             (run.cupti_missing.empty() ? "" : "; no CUPTI: " + run.cupti_missing));
  return table;
}

lab::ResultTable block_timeline_table(const BlockTimelineRun& run) {
  lab::ResultTable table("block_timeline", "Each recording launch read block by block", "launch",
                         {{"blocks", "blocks", "", 0},
                          {"missing", "missing", "", 0},
                          {"sms", "SMs", "", 0},
                          {"min_per_sm", "blocks/SM min", "", 0},
                          {"max_per_sm", "blocks/SM max", "", 0},
                          {"median_block_us", "block (median)", "us", 3},
                          {"max_block_us", "block (max)", "us", 3},
                          {"span_us", "span", "us", 3}});
  for (std::size_t i = 0; i < run.spans.size(); ++i) {
    const lab::BlockSpan& s = run.spans[i];
    lab::ResultTable::Row& row = table.add_row(lab::format("sample %zu", i + 1));
    if (i + 1 == run.spans.size()) set_blocks(row, "block_", run.last, s.first_start_ns);  // for the figures
    row.set("blocks", static_cast<long long>(s.blocks))
        .set("missing", static_cast<long long>(s.missing))
        .set("sms", static_cast<long long>(s.sms))
        .set("min_per_sm", static_cast<long long>(s.min_blocks_per_sm))
        .set("max_per_sm", static_cast<long long>(s.max_blocks_per_sm))
        .set("median_block_us", s.median_block_us)
        .set("max_block_us", s.max_block_us)
        .set("span_us", s.span_us);
  }
  table.note("one record per block: %globaltimer at its start and its end, %smid (the last launch's in the JSON)");
  return table;
}

// --- 2. Stream priorities ------------------------------------------------------------------

const UrgentCase* find_case(const PriorityRun& run, const std::string& name) {
  for (const UrgentCase& c : run.cases)
    if (c.name == name) return &c;
  return nullptr;
}

double median_delay(const PriorityRun& run, const std::string& name) {
  const UrgentCase* c = find_case(run, name);
  return lab::median_or_nan(c == nullptr ? std::vector<double>{} : c->delay_us);
}

lab::ResultTable priority_table(const PriorityRun& run) {
  lab::ResultTable table(
      "priority_urgent",
      lab::format("An urgent kernel (%d blocks x %.0f us) launched while a long one runs (%d blocks x %.0f us, %d "
                  "per SM); priorities %d (least) to %d (greatest)",
                  run.urgent_blocks, run.urgent_block_us, run.long_blocks, run.long_block_us, run.resident_per_sm,
                  run.least, run.greatest),
      "urgent kernel",
      {{"priority", "priority", "", 0},
       {"median", "start delay", "us", 1},
       {"min", "min", "us", 1},
       {"max", "max", "us", 1},
       {"vs_equal", "vs equal", "x", 3},
       {"launched_after_us", "launched after", "us", 1},
       {"sms", "SMs", "", 0},
       {"started_on_full_sm", "on full SMs", "", 0},
       {"slot_wait_us", "after a long end", "us", 2},
       {"longest_long_us", "longest long block", "us", 1}});
  for (const UrgentCase& c : run.cases) {
    const PreemptionSummary p = read_preemption(c, run.resident_per_sm);
    const unsigned long long origin = lab::summarize_blocks(c.loaded ? c.long_run : c.urgent).first_start_ns;
    lab::ResultTable::Row& row = table.add_row(c.name);
    set_blocks(row, "urgent_", c.urgent, origin);  // the last sample's blocks, for the figures
    set_blocks(row, "long_", c.long_run, origin);
    const double launch_us = c.delay_us.empty() ? std::nan("")
                             : c.loaded         ? c.launched_after_us.back()
                                                : -c.delay_us.back();
    row.set("launch_us", launch_us)
        .samples(c.delay_us, "us")
        .set("vs_equal", lab::median_or_nan(c.delay_us) / median_delay(run, "equal_priority"))
        .set("priority", static_cast<long long>(c.priority))
        .set("launched_after_us", lab::median_or_nan(c.launched_after_us))
        .set("sms", static_cast<long long>(p.sms))
        .set("started_on_full_sm", static_cast<long long>(p.started_on_full_sm))
        .set("slot_wait_us", p.slot_wait_us)
        .set("longest_long_us", p.longest_long_us)
        .set("sm_list", lab::sm_list_text(c.urgent));
  }
  table.note(run.skipped ? "skipped: " + run.skip_reason
                         : "start delay: the first urgent block's start less the moment the GPU saw the launch flag "
                           "the host raised just before the launch call (the first long block to look, or a watching "
                           "kernel when idle; %globaltimer); vs equal: median start delay / equal_priority's; "
                           "launched after: that moment less the long kernel's first block start; on full SMs: urgent "
                           "blocks that began while their SM still ran as many long blocks as it holds; after a long "
                           "end: median, urgent start less the last long block end before it on its SM" +
                               (run.attribute_missing.empty() ? "" : "; launch_attribute: " + run.attribute_missing));
  return table;
}

// --- 6. Ranges a profiler shows ------------------------------------------------------------

lab::ResultTable nvtx_table(const NvtxRun& run) {
  lab::ResultTable table(
      "nvtx_cost", lab::format("nvtxRangePushA + nvtxRangePop, %d pairs per sample", run.pairs_per_sample), "range",
      {{"median", "per pair", "ns", 1},
       {"min", "min", "ns", 1},
       {"max", "max", "ns", 1},
       {"count", "samples", "", 0},
       {"push_result", "push returned", "", 0}});
  table.add_row("push + pop")
      .samples(run.per_range_ns, "ns")
      .set("push_result", static_cast<long long>(run.push_result))
      .set("pop_result", static_cast<long long>(run.pop_result));
  table.note("host time (steady_clock) over the pairs / pairs; push returned: what nvtxRangePushA returned");
  return table;
}

}  // namespace ch11
