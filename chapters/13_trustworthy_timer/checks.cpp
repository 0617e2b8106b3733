#include "checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "vocabulary.hpp"

namespace ch13 {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> windows_us(const WorkloadRun& w) {
  std::vector<double> out;
  for (const ReferenceCall& c : w.reference) out.push_back(c.window_us);
  return out;
}

bool any_call(const WorkloadRun& w, bool (*test)(const ReferenceCall&)) {
  return std::any_of(w.reference.begin(), w.reference.end(), test);
}

}  // namespace

Verdict reference_verdict(const WorkloadRun& w) {
  if (w.reference.empty()) return {"refused.not_held", "no call was timed"};
  if (any_call(w, [](const ReferenceCall& c) { return !c.held; }))
    return {"refused.not_held", "the stream could not be held while the call was queued"};
  if (any_call(w, [](const ReferenceCall& c) { return c.output == OutputAtStop::unwritten; }))
    return {"refused.unwritten", "output not written when the stop event completed"};
  if (any_call(w, [](const ReferenceCall& c) { return c.output == OutputAtStop::stale; }))
    return {"refused.stale", "output does not match this call's fresh inputs"};
  if (any_call(w, [](const ReferenceCall& c) { return c.queued_after_stop; }))
    return {"refused.queued", "work still queued on a stream after the stop event"};
  const double host = reference_host_us(w);
  const double window = lab::median(windows_us(w));
  if (host > kHostBoundFactor * window && host > kHostBoundMinUs)
    return {"host_bound", lab::format("host time %.1f us, %.0fx the GPU window", host, host / window)};
  return {"measured", "measured"};
}

double reference_reading_us(const WorkloadRun& w, const std::vector<double>& empty_pair_us) {
  if (w.reference.empty()) return kNaN;
  const double empty = empty_pair_us.empty() ? 0.0 : lab::median(empty_pair_us);
  return lab::median(windows_us(w)) - empty;
}

double reference_host_us(const WorkloadRun& w) {
  std::vector<double> host;
  for (const ReferenceCall& c : w.reference) host.push_back(c.host_us);
  return lab::median_or_nan(host);
}

double reference_cupti_us(const WorkloadRun& w) {
  std::vector<double> spans;
  for (const ReferenceCall& c : w.reference) {
    if (c.cupti) spans.push_back(c.cupti_span_us);
  }
  return lab::median_or_nan(spans);
}

double truth_us(const WorkloadRun& w) {
  if (w.naive_cupti_span_us.empty()) return kNaN;
  return w.truth_from_first_call ? w.naive_cupti_span_us.front() : lab::median(w.naive_cupti_span_us);
}

double naive_reading_us(const WorkloadRun& w) {
  if (w.naive_us.empty()) return kNaN;
  return w.naive_reads_first ? w.naive_us.front() : lab::median(w.naive_us);
}

double tolerance_us(double cupti_us) { return 0.10 * cupti_us + 1.0; }

// --- 1. The gallery, read by a naive event pair ---------------------------------

std::vector<lab::Finding> naive_checks(const GalleryRun& run) {
  std::vector<lab::Finding> out;
  std::size_t calls = 0, matched = 0;
  std::string wrong;
  for (const WorkloadRun& w : run.workloads) {
    calls += w.naive_us.size();
    matched += w.naive_matched;
    if (w.naive_matched != w.naive_us.size() && wrong.empty()) wrong = w.name;
  }
  out.push_back(lab::correctness_check("results_when_idle", "every call's output matches the CPU once the GPU is idle",
                                       calls > 0 && matched == calls,
                                       wrong.empty()
                                           ? lab::format("%zu calls, exact comparison", calls)
                                           : lab::format("%s: %zu of %zu calls matched", wrong.c_str(), matched, calls))
                    .with("calls", calls)
                    .with("matched", matched));
  for (const WorkloadRun& w : run.workloads) {
    const std::string id = "naive." + w.id;
    if (!w.cupti_missing.empty()) {
      out.push_back(lab::skipped(id, w.name, "CUPTI: " + w.cupti_missing));
      continue;
    }
    const double naive = naive_reading_us(w), truth = truth_us(w), ratio = naive / truth;
    const bool agrees = std::fabs(naive - truth) <= tolerance_us(truth);
    out.push_back(
        lab::named_observation(id + (agrees ? ".agrees" : ".off"), w.name,
                               lab::format("the naive pair read %.2f us, %.2fx the true %.2f us (%s the "
                                           "tolerance of %.2f us)",
                                           naive, ratio, truth, agrees ? "within" : "outside", tolerance_us(truth)))
            .with("naive_us", naive)
            .with("truth_us", truth)
            .with("ratio", ratio));
  }
  return out;
}

// --- 2. The reference harness ---------------------------------------------------

namespace {

// An honest workload: the window must hold the work (a reading under CUPTI's time less the
// two event readings' documented resolution, about 0.5 us each, would be a wrong timer); how
// close it comes to CUPTI is the chapter's goal (10 % + 1 us), printed, not judged.
std::vector<lab::Finding> honest_checks(const WorkloadRun& w, const std::vector<double>& empty_pair_us) {
  const std::string id = "honest_holds." + w.id;
  const std::string name = w.name + ": the harness's reading holds CUPTI's time (at least CUPTI's less 1 us)";
  const Verdict v = reference_verdict(w);
  const double cupti = reference_cupti_us(w);
  if (std::isnan(cupti)) return {lab::skipped(id, name, "CUPTI did not record the calls")};
  if (v.refused()) return {lab::timing_check(id, name, false, "the harness refused: " + v.reason)};
  const double reading = reference_reading_us(w, empty_pair_us), tolerance = tolerance_us(cupti);
  const std::string against = lab::format("read %.2f us against CUPTI's %.2f us (%s)", reading, cupti,
                                          lab::signed_percent(lab::percent_above(reading, cupti), 1).c_str());
  const bool goal = std::fabs(reading - cupti) <= tolerance;
  return {
      lab::timing_check(id, name, reading >= cupti - 1.0, against).with("reading_us", reading).with("cupti_us", cupti),
      lab::named_observation(
          "honest_goal." + w.id + (goal ? ".met" : ".missed"), w.name + ": the goal, within 10 % + 1 us of CUPTI",
          lab::format("%s: %s, tolerance %.2f us", against.c_str(), goal ? "met" : "missed", tolerance))
          .with("tolerance_us", tolerance)};
}

lab::Finding adversary_check(const WorkloadRun& w, const std::vector<double>& empty_pair_us) {
  const std::string id = "adversary_caught." + w.id;
  const std::string name = w.name + ": the harness refuses or measures the true time";
  const Verdict v = reference_verdict(w);
  if (v.refused() || v.branch == "host_bound") return lab::correctness_check(id + "." + v.branch, name, true, v.reason);
  const double truth = truth_us(w);
  if (std::isnan(truth)) return lab::skipped(id, name, "CUPTI did not record the calls");
  const double reading = reference_reading_us(w, empty_pair_us), tolerance = tolerance_us(truth);
  const bool within = std::fabs(reading - truth) <= tolerance;
  return lab::timing_check(
             id + ".measured", name, within,
             lab::format("measured %.2f us against the true %.2f us, tolerance %.2f us", reading, truth, tolerance))
      .with("reading_us", reading)
      .with("truth_us", truth)
      .with("tolerance_us", tolerance);
}

}  // namespace

std::vector<lab::Finding> reference_checks(const GalleryRun& run) {
  std::size_t calls = 0, matched = 0;
  for (const WorkloadRun& w : run.workloads) {
    if (!w.honest) continue;
    for (const ReferenceCall& c : w.reference) {
      ++calls;
      matched += c.output == OutputAtStop::matched;
    }
  }
  std::vector<lab::Finding> out{
      lab::correctness_check("reference_results", "every honest call's output matches the CPU at the stop event",
                             calls > 0 && matched == calls, lab::format("%zu of %zu calls matched", matched, calls))
          .with("calls", calls)
          .with("matched", matched)};
  for (const WorkloadRun& w : run.workloads) {
    if (!w.honest) {
      out.push_back(adversary_check(w, run.empty_pair_us));
      continue;
    }
    for (lab::Finding& f : honest_checks(w, run.empty_pair_us)) out.push_back(std::move(f));
  }
  return out;
}

// --- 3. Two quantities for a short kernel ----------------------------------------

std::vector<lab::Finding> sequence_checks(const SequenceRun& run) {
  const bool correct = run.stream_result.passed() && run.graph_result.passed();
  std::vector<lab::Finding> out{
      lab::correctness_check("sequence_results", "the sequences' outputs match the CPU", correct,
                             correct ? "stream: " + run.stream_result.detail() + "; graph: " + run.graph_result.detail()
                                     : (run.stream_result.passed() ? "graph: " + run.graph_result.detail()
                                                                   : "stream: " + run.stream_result.detail()))};
  const double stream = lab::median_or_nan(run.stream_us), graph = lab::median_or_nan(run.graph_us);
  out.push_back(
      lab::named_observation(
          "two_quantities", "a short kernel's two quantities",
          lab::format("alone %.2f us (CUPTI %.2f us); per kernel in a stream %.2f us (%.2fx alone), in a "
                      "graph %.2f us (%.2fx alone)",
                      run.lone_us, run.lone_cupti_us, stream, stream / run.lone_us, graph, graph / run.lone_us))
          .with("lone_us", run.lone_us)
          .with("stream_us", stream)
          .with("graph_us", graph));
  return out;
}

}  // namespace ch13
