#include "findings_sched.hpp"

#include <algorithm>
#include <cmath>

#include "vocabulary.hpp"

namespace ch11 {

namespace {

const UrgentCase* find_case(const PriorityRun& run, const std::string& name) {
  for (const UrgentCase& c : run.cases)
    if (c.name == name) return &c;
  return nullptr;
}

double median_delay(const PriorityRun& run, const std::string& name) {
  const UrgentCase* c = find_case(run, name);
  return lab::median_or_nan(c == nullptr ? std::vector<double>{} : c->delay_us);
}

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

namespace {

lab::Finding block_add_correct(const BlockTimelineRun& run) {
  return lab::correctness_check("block_add_correct", "c = a + b equals the CPU's, recording or not",
                                run.result.passed(), run.result.detail())
      .with("values_count", static_cast<double>(run.result.count))
      .with("mismatches_count", static_cast<double>(run.result.mismatches));
}

lab::Finding block_records_complete(const BlockTimelineRun& run) {
  std::size_t written = 0, missing = 0;
  for (const lab::BlockSpan& s : run.spans) {
    written += s.blocks;
    missing += s.missing;
  }
  const std::size_t expected = run.spans.size() * static_cast<std::size_t>(run.blocks);
  return lab::correctness_check("block_records_complete", "every block of every recording launch wrote its record",
                                !run.spans.empty() && missing == 0 && written == expected,
                                lab::format("%zu of %zu records written, %zu missing", written, expected, missing))
      .with("written_count", static_cast<double>(written))
      .with("expected_count", static_cast<double>(expected))
      .with("missing_count", static_cast<double>(missing));
}

// The recorder's span against CUPTI's duration of the same launch, launch by launch: two lengths
// compared, not two intervals (the stamps and CUPTI's records come from different clocks).
lab::Finding recorder_against_cupti(const BlockTimelineRun& run) {
  const std::string name = "the recorder's span against CUPTI's duration of the same launches";
  if (run.recorded_cupti_us.empty()) return lab::skipped("recorder_vs_cupti", name, "no CUPTI: " + run.cupti_missing);
  const std::vector<double> spans = recorder_spans_us(run);
  std::vector<double> shorter_by;
  int shorter = 0;
  for (std::size_t i = 0; i < std::min(spans.size(), run.recorded_cupti_us.size()); ++i) {
    shorter_by.push_back(run.recorded_cupti_us[i] - spans[i]);
    if (spans[i] < run.recorded_cupti_us[i]) ++shorter;
  }
  const bool all = !shorter_by.empty() && shorter == static_cast<int>(shorter_by.size());
  return lab::named_observation(std::string("recorder_vs_cupti.") + (all ? "shorter" : "not_shorter"), name,
                                lab::format("span %.2f us, CUPTI %.2f us (medians): the span was shorter in %d of "
                                            "%zu launches, by a median %.2f us",
                                            lab::median_or_nan(spans), lab::median_or_nan(run.recorded_cupti_us),
                                            shorter, shorter_by.size(), lab::median_or_nan(shorter_by)))
      .with("launches_shorter", shorter)
      .with("launches", static_cast<double>(shorter_by.size()))
      .with("shorter_by_us", lab::median_or_nan(shorter_by))
      .with("span_us", lab::median_or_nan(spans))
      .with("cupti_us", lab::median_or_nan(run.recorded_cupti_us));
}

}  // namespace

std::vector<lab::Finding> block_timeline_findings(const BlockTimelineRun& run) {
  return {block_add_correct(run), block_records_complete(run), recorder_against_cupti(run)};
}

// --- 2. Stream priorities ------------------------------------------------------------------

PreemptionSummary read_preemption(const UrgentCase& c, int resident_per_sm) {
  PreemptionSummary p;
  std::vector<double> waits;
  for (const lab::BlockRecord& u : c.urgent) {
    if (!u.complete()) continue;
    ++p.urgent_blocks;
    int running = 0;
    unsigned long long last_end = 0;
    for (const lab::BlockRecord& l : c.long_run) {
      if (!l.complete() || l.smid != u.smid) continue;
      if (l.start_ns <= u.start_ns && l.end_ns > u.start_ns) ++running;
      if (l.end_ns <= u.start_ns) last_end = std::max(last_end, l.end_ns);
    }
    if (running >= resident_per_sm) ++p.started_on_full_sm;
    if (last_end > 0) waits.push_back(static_cast<double>(u.start_ns - last_end) * 1e-3);
  }
  p.slot_wait_us = lab::median_or_nan(waits);
  p.longest_long_us = lab::summarize_blocks(c.long_run).max_block_us;
  p.sms = lab::summarize_blocks(c.urgent).sms;
  return p;
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

namespace {

lab::Finding priority_records_complete(const PriorityRun& run) {
  std::size_t missing = 0, samples = 0;
  for (const UrgentCase& c : run.cases) {
    missing += c.missing;
    samples += c.delay_us.size();
  }
  return lab::correctness_check("priority_records_complete", "every block of both kernels wrote its record",
                                samples > 0 && missing == 0,
                                lab::format("%zu samples, %zu records missing", samples, missing))
      .with("samples_count", static_cast<double>(samples))
      .with("missing_count", static_cast<double>(missing));
}

// The greatest priority against equal priority: an observation, since the Runtime API calls priorities a
// hint with no "functional guarantee on execution order" (a longer delay is no fault).
lab::Finding priority_shortens_delay(const PriorityRun& run) {
  const double equal = median_delay(run, "equal_priority"), greatest = median_delay(run, "greatest_priority");
  const char* branch = run.least == run.greatest ? "single_level" : (greatest < equal ? "shorter" : "not_shorter");
  return lab::named_observation(std::string("priority_shortens_delay.") + branch,
                                "the greatest priority against equal priority",
                                lab::format("start delay %.1f us at priority %d, %.1f us at %d (medians): %.3fx",
                                            greatest, run.greatest, equal, run.least, greatest / equal))
      .with("greatest_us", greatest)
      .with("equal_us", equal)
      .with("ratio", greatest / equal);
}

}  // namespace

std::vector<lab::Finding> priority_findings(const PriorityRun& run) {
  if (run.skipped) return {lab::skipped("priorities", "stream priorities", run.skip_reason)};
  std::vector<lab::Finding> out = {priority_records_complete(run), priority_shortens_delay(run)};
  if (find_case(run, "launch_attribute") == nullptr)
    out.push_back(lab::skipped("launch_attribute_priority", "cudaLaunchAttributePriority", run.attribute_missing));
  return out;
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
