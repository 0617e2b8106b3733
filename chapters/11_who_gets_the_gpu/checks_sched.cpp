#include "checks_sched.hpp"

#include <algorithm>
#include <cmath>

#include "tables_sched.hpp"
#include "vocabulary.hpp"

namespace ch11 {

// --- 1. A block-level timeline -------------------------------------------------------------

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

std::vector<lab::Finding> block_timeline_checks(const BlockTimelineRun& run) {
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

std::vector<lab::Finding> priority_checks(const PriorityRun& run) {
  if (run.skipped) return {lab::skipped("priorities", "stream priorities", run.skip_reason)};
  std::vector<lab::Finding> out = {priority_records_complete(run), priority_shortens_delay(run)};
  if (find_case(run, "launch_attribute") == nullptr)
    out.push_back(lab::skipped("launch_attribute_priority", "cudaLaunchAttributePriority", run.attribute_missing));
  return out;
}

// --- 6. Ranges a profiler shows ------------------------------------------------------------

}  // namespace ch11
