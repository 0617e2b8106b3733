#include "findings_sched.hpp"

#include <algorithm>
#include <cmath>

#include "vocabulary.hpp"

namespace ch11 {

namespace {

constexpr double kRecorderSlackUs = 0.1;  // a span may pass CUPTI's end by this much (stamps vs records) and be inside
constexpr double kPriorityBenchmarkRatio = 0.1;  // the page's benchmark: greatest priority at most 1/10 of equal
constexpr int kNoPushPopTracking = -2;           // NVTX_NO_PUSH_POP_TRACKING: what a push returns with no tool

// (a_i - b_i) / b_i in %, pair by pair (as many as the shorter has).
std::vector<double> percent_differences(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) d.push_back(lab::percent_above(a[i], b[i]));
  return d;
}

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
  lab::ResultTable table(
      "block_timer",
      lab::format("c = a + b on %lld floats, %d blocks of %d threads, each way of timing it",
                  static_cast<long long>(run.n), run.blocks, run.threads),
      "timed by",
      {{"median", "median", "us", 2}, {"min", "min", "us", 2}, {"max", "max", "us", 2}, {"count", "samples", "", 0}});
  const std::vector<std::pair<const char*, std::vector<double>>> rows = {
      {"CUPTI, not recording", run.plain_cupti_us},
      {"CUPTI, recording", run.recorded_cupti_us},
      {"events, not recording", run.plain_events_us},
      {"events, recording", run.recorded_events_us},
      {"block recorder's span", recorder_spans_us(run)}};
  for (const auto& [name, samples] : rows)
    if (!samples.empty()) table.add_row(name).samples(samples, "us");
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

// What recording costs the kernel: CUPTI's durations when there are, else the events'.
lab::Finding recorder_overhead(const BlockTimelineRun& run) {
  const bool cupti = !run.plain_cupti_us.empty() && !run.recorded_cupti_us.empty();
  const double plain = lab::median_or_nan(cupti ? run.plain_cupti_us : run.plain_events_us);
  const double recorded = lab::median_or_nan(cupti ? run.recorded_cupti_us : run.recorded_events_us);
  const double percent = lab::percent_above(recorded, plain);
  return lab::named_observation(std::string("recorder_overhead.") + (cupti ? "cupti" : "events"),
                                "what recording costs the kernel",
                                lab::format("%.2f us recording, %.2f us not (%s, medians): %s", recorded, plain,
                                            cupti ? "CUPTI" : "events", lab::signed_percent(percent, 1).c_str()))
      .with("plain_us", plain)
      .with("recorded_us", recorded)
      .with("overhead_us", recorded - plain)
      .with("overhead_percent", percent);
}

// The recorder against CUPTI: the blocks' span lies inside the kernel's duration, launch by launch; what
// is left outside is the kernel's start before its first block and its end after its last.
lab::Finding recorder_against_cupti(const BlockTimelineRun& run) {
  const std::string name = "the recorder's span against CUPTI's duration of the same launches";
  if (run.recorded_cupti_us.empty()) return lab::skipped("recorder_vs_cupti", name, "no CUPTI: " + run.cupti_missing);
  const std::vector<double> spans = recorder_spans_us(run);
  std::vector<double> outside;
  int inside = 0;
  for (std::size_t i = 0; i < std::min(spans.size(), run.recorded_cupti_us.size()); ++i) {
    outside.push_back(run.recorded_cupti_us[i] - spans[i]);
    if (spans[i] <= run.recorded_cupti_us[i] + kRecorderSlackUs) ++inside;
  }
  const bool all_inside = !outside.empty() && inside == static_cast<int>(outside.size());
  const double events_off = lab::median_or_nan(percent_differences(run.recorded_events_us, run.recorded_cupti_us));
  return lab::named_observation(
             std::string("recorder_vs_cupti.") + (all_inside ? "inside" : "outside"), name,
             lab::format("span %.2f us inside CUPTI's %.2f us in %d of %zu launches (medians; events %.2f us, %s); "
                         "%.2f us of each kernel lies outside its blocks: %s",
                         lab::median_or_nan(spans), lab::median_or_nan(run.recorded_cupti_us), inside, outside.size(),
                         lab::median_or_nan(run.recorded_events_us), lab::signed_percent(events_off, 1).c_str(),
                         lab::median_or_nan(outside),
                         all_inside ? "the kernel's start before its first block and its end after its last"
                                    : "a span longer than the kernel: the stamps or the records disagree"))
      .with("launches_inside", inside)
      .with("launches", static_cast<double>(outside.size()))
      .with("outside_us", lab::median_or_nan(outside))
      .with("events_percent", events_off)
      .with("span_us", lab::median_or_nan(spans))
      .with("cupti_us", lab::median_or_nan(run.recorded_cupti_us));
}

}  // namespace

std::vector<lab::Finding> block_timeline_findings(const BlockTimelineRun& run) {
  return {block_add_correct(run), block_records_complete(run), recorder_overhead(run), recorder_against_cupti(run)};
}

std::vector<lab::Background> block_timeline_background() {
  return {{"%globaltimer is \"a predefined, 64-bit global nanosecond timer\": one clock for every SM, so stamps "
           "taken by blocks on different SMs compare",
           "PTX ISA, Special Registers: %globaltimer"},
          {"%smid returns the SM a thread is executing on; the numbering \"is not guaranteed to be contiguous\", "
           "and the value may change during execution, e.g. when threads are rescheduled after preemption",
           "PTX ISA, Special Registers: %smid"}};
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
        .set("priority", static_cast<long long>(c.priority))
        .set("launched_after_us", lab::median_or_nan(c.launched_after_us))
        .set("sms", static_cast<long long>(p.sms))
        .set("started_on_full_sm", static_cast<long long>(p.started_on_full_sm))
        .set("slot_wait_us", p.slot_wait_us)
        .set("longest_long_us", p.longest_long_us)
        .set("sm_list", lab::sm_list_text(c.urgent));
  }
  table.note(run.skipped ? "skipped: " + run.skip_reason
                         : "start delay: the first urgent block's start less the moment the GPU saw the host's launch "
                           "flag (the first long block to look, or a watching kernel when idle; %globaltimer); "
                           "launched after: that moment less the long kernel's "
                           "first block start; on full SMs: urgent blocks that began while their SM still ran as "
                           "many long blocks as it holds; after a long end: median, urgent start less the last long "
                           "block end before it on its SM" +
                               (run.attribute_missing.empty() ? "" : "; launch_attribute: " + run.attribute_missing));
  return table;
}

namespace {

lab::Finding priority_range(const PriorityRun& run) {
  const int levels = run.least - run.greatest + 1;
  return lab::named_observation(std::string("priority_range.") + (levels > 1 ? "levels" : "single_level"),
                                "stream priorities",
                                lab::format("cudaDeviceGetStreamPriorityRange: least %d, greatest %d: %d level%s",
                                            run.least, run.greatest, levels, levels == 1 ? "" : "s"))
      .with("least", run.least)
      .with("greatest", run.greatest)
      .with("levels", levels);
}

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

// The documented effect: pending work of a higher-priority stream is preferred, so it starts sooner.
lab::Finding priority_shortens_delay(const PriorityRun& run) {
  const double equal = median_delay(run, "equal_priority"), greatest = median_delay(run, "greatest_priority");
  const std::string name = "the greatest priority starts the urgent kernel sooner than equal priority";
  if (run.least == run.greatest)
    return lab::named_observation("priority_shortens_delay.single_level", name,
                                  "this device has one priority level: nothing to compare");
  if (run.long_waves < 2)  // the documented preference is among pending work: one wave leaves none pending
    return lab::named_observation("priority_shortens_delay.nothing_pending", name,
                                  lab::format("the long kernel is one wave, so no long block was pending when the "
                                              "urgent kernel came: start delay %.1f us at priority %d, %.1f us at %d",
                                              greatest, run.greatest, equal, run.least))
        .with("greatest_us", greatest)
        .with("equal_us", equal);
  const bool shorter = greatest < equal;
  return lab::timing_check(std::string("priority_shortens_delay.") + (shorter ? "shorter" : "not_shorter"), name,
                           shorter,
                           lab::format("start delay %.1f us at priority %d, %.1f us at %d (medians)", greatest,
                                       run.greatest, equal, run.least))
      .with("greatest_us", greatest)
      .with("equal_us", equal);
}

lab::Finding priority_benchmark(const PriorityRun& run) {
  const double equal = median_delay(run, "equal_priority"), greatest = median_delay(run, "greatest_priority");
  const double ratio = equal > 0 ? greatest / equal : std::nan("");
  const bool met = ratio <= kPriorityBenchmarkRatio;
  return lab::named_observation(
             std::string("priority_benchmark.") + (met ? "met" : "not_met"),
             "benchmark: start delay at the greatest priority <= 1/10 of equal priority's",
             lab::format("%.1f us against %.1f us: %.3f of it: %s", greatest, equal, ratio, met ? "met" : "not met"))
      .with("greatest_us", greatest)
      .with("equal_us", equal)
      .with("ratio", ratio);
}

lab::Finding launch_attribute_priority(const PriorityRun& run) {
  const std::string name = "cudaLaunchAttributePriority on a stream of the least priority";
  if (find_case(run, "launch_attribute") == nullptr)
    return lab::skipped("launch_attribute_priority", name, run.attribute_missing);
  const double equal = median_delay(run, "equal_priority"), attribute = median_delay(run, "launch_attribute");
  const bool shorter = attribute < equal;
  return lab::named_observation(
             std::string("launch_attribute_priority.") + (shorter ? "shorter" : "not_shorter"), name,
             lab::format("start delay %.1f us with the attribute set to %d, %.1f us without (medians): %s", attribute,
                         run.greatest, equal, shorter ? "it took effect" : "no shorter"))
      .with("attribute_us", attribute)
      .with("equal_us", equal);
}

// Did an urgent block begin on an SM still full of long blocks (a long block set aside for it)?
lab::Finding long_blocks_preempted(const PriorityRun& run) {
  int on_full = 0, urgent = 0;
  double longest = 0;
  for (const UrgentCase& c : run.cases) {
    if (!c.loaded) continue;
    const PreemptionSummary p = read_preemption(c, run.resident_per_sm);
    on_full += p.started_on_full_sm;
    urgent += p.urgent_blocks;
    longest = std::max(longest, p.longest_long_us);
  }
  const bool seen = on_full > 0;
  return lab::named_observation(
             std::string("long_blocks_preempted.") + (seen ? "seen" : "none"), "did priority preempt running blocks",
             lab::format(
                 "%d of %d urgent blocks began on an SM still full of long blocks; the longest long block "
                 "ran %.1f us for %.1f us of spin: %s",
                 on_full, urgent, longest, run.long_block_us,
                 seen ? "running blocks were set aside" : "urgent blocks took only slots that long blocks left"))
      .with("started_on_full_sm", on_full)
      .with("urgent_blocks", urgent)
      .with("longest_long_us", longest)
      .with("long_block_us", run.long_block_us);
}

}  // namespace

std::vector<lab::Finding> priority_findings(const PriorityRun& run) {
  if (run.skipped) return {lab::skipped("priorities", "stream priorities", run.skip_reason)};
  return {priority_range(run),     priority_records_complete(run), priority_shortens_delay(run),
          priority_benchmark(run), launch_attribute_priority(run), long_blocks_preempted(run)};
}

std::vector<lab::Background> priority_background() {
  return {{"stream priorities \"follow a convention where lower numbers imply greater priorities\"; the meaningful "
           "range is [greatest, least], and a value outside it is clamped",
           "CUDA Runtime API, cudaDeviceGetStreamPriorityRange"},
          {"priorities \"provide a hint to preferentially run work with higher priority when possible, but do not "
           "preempt already-running work or provide any other functional guarantee on execution order\"",
           "CUDA Runtime API, cudaStreamCreateWithPriority"},
          {"cudaLaunchAttributePriority sets one launch's priority; it is \"valid for streams, graph nodes, launches\"",
           "CUDA Runtime API, Data types: cudaLaunchAttributeID"}};
}

// --- 6. Ranges a profiler shows ------------------------------------------------------------

lab::ResultTable nvtx_table(const NvtxRun& run) {
  lab::ResultTable table(
      "nvtx_cost", lab::format("nvtxRangePushA + nvtxRangePop, %d pairs per sample", run.pairs_per_sample), "range",
      {{"median", "per pair", "ns", 1}, {"min", "min", "ns", 1}, {"max", "max", "ns", 1}, {"count", "samples", "", 0}});
  table.add_row("push + pop")
      .samples(run.per_range_ns, "ns")
      .set("push_result", static_cast<long long>(run.push_result));
  table.note("host time (steady_clock) over the pairs / pairs");
  return table;
}

std::vector<lab::Finding> nvtx_findings(const NvtxRun& run) {
  const bool none = run.push_result == kNoPushPopTracking;
  const double per_pair = lab::median_or_nan(run.per_range_ns);
  return {lab::named_observation(
              std::string("nvtx_tool.") + (none ? "none" : "attached"), "a tool behind NVTX",
              none ? "nvtxRangePushA returned -2 (NVTX_NO_PUSH_POP_TRACKING): no tool was attached"
                   : lab::format("nvtxRangePushA returned %d: a tool tracks the ranges", run.push_result))
              .with("push_result", run.push_result)
              .with("pop_result", run.pop_result),
          lab::named_observation("nvtx_range_cost", "what a range costs the host",
                                 lab::format("%.1f ns per push and pop (median of %zu samples of %d pairs)%s", per_pair,
                                             run.per_range_ns.size(), run.pairs_per_sample,
                                             none ? ", no tool attached" : ", with the tool attached"))
              .with("per_range_ns", per_pair)};
}

std::vector<lab::Background> nvtx_background() {
  return {{"NVTX \"introduces close to zero overhead if no tool is attached to the application\"; thread ranges "
           "nest per thread, each from an nvtxRangePush* to its nvtxRangePop",
           "NVTX documentation, 1. Introduction and 3.2. Thread Ranges"},
          {"with NVTX tracing on (nsys profile --trace=cuda,nvtx), Nsight Systems can \"collect the information and "
           "present it on the timeline\": each range on the row of the thread that pushed it, beside the CUDA calls "
           "and kernels",
           "Nsight Systems documentation, NVTX Trace"}};
}

}  // namespace ch11
