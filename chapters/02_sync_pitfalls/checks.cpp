#include "checks.hpp"

#include <algorithm>
#include <cmath>

#include "vocabulary.hpp"

namespace ch02 {

namespace {

// A backlog shorter than this is not told apart from the event timer's
// documented resolution (about 0.5 us; on the H100 runs readings differed by as
// little as 32 ns), the events' own cost and the launch calls around it.
constexpr double kMeasurableBacklogMs = 0.01;

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
  return parts.empty() ? "none" : out;
}

}  // namespace

// --- Sections 1 and 2 ----------------------------------------------------------

bool first_run_held_backlog(const CaseRun& run) {
  if (run.samples_ms.empty() || run.backlog_ms < kMeasurableBacklogMs) return false;
  return run.samples_ms.front() - lab::median(run.samples_ms) >= 0.5 * run.backlog_ms;
}

// @p held_ms, the median of events on a held stream around the kernel: no launch
// gap, but the events' own cost (chapter 03, section 6), so not the kernel's own duration.
std::string timer_contents(const CaseRun& run, double held_ms) {
  if (run.samples_ms.empty()) return "-";
  const bool under_half_the_kernel = lab::median(run.samples_ms) < 0.5 * held_ms;
  if (syncs_after(run.sync_case)) {
    if (under_half_the_kernel) return "less than the kernel: the sync did not wait for it";
    return first_run_held_backlog(run) ? "backlog (first run) + launch + kernel + sync" : "launch + kernel + sync";
  }
  return under_half_the_kernel ? "the launch call only"
                               : "the launch call; too close to the held-stream events' reading to tell";
}

std::vector<lab::Finding> host_timer_checks(const HostTimerRun& run) {
  std::vector<std::string> wrong;
  std::size_t checked = 0;
  std::string detail;
  for (const CaseRun& c : run.cases) {
    if (c.result.count == 0) continue;
    ++checked;
    detail = c.result.detail();
    if (!c.result.passed()) wrong.push_back(std::string("after '") + case_name(c.sync_case) + "': " + detail);
  }
  if (checked == 0) return {};
  const std::string text =
      wrong.empty() ? lab::format("checked after each of the %zu cases: ", checked) + detail : join(wrong);
  return {lab::correctness_check(run.id + "_correct", run.kernel + " correct after every case", wrong.empty(), text)
              .with("wrong_cases", wrong.size())};
}

std::vector<lab::Finding> long_kernel_checks(const HostTimerRun& run) {
  std::vector<lab::Finding> findings = host_timer_checks(run);
  const auto median_of = [&run](SyncCase sync_case) {  // NaN when the case did not run
    for (const CaseRun& c : run.cases)
      if (c.sync_case == sync_case) return lab::median_or_nan(c.samples_ms);
    return lab::median_or_nan({});
  };
  const double synced = median_of(SyncCase::before_and_after), before_only = median_of(SyncCase::before_only);
  const double unsynced = median_of(SyncCase::never);
  if (std::isnan(synced) || std::isnan(before_only) || std::isnan(unsynced)) return findings;
  findings.push_back(
      lab::timing_check(run.id + "_unsynced_under_tenth",
                        "without a sync after the launch the host timer reads under a tenth of the synchronised one",
                        unsynced < synced / 10 && before_only < synced / 10,
                        lab::format("medians: no sync %.3f ms, sync before only %.3f ms, sync before and after %.3f ms",
                                    unsynced, before_only, synced))
          .with("no_sync_ms", unsynced)
          .with("before_only_ms", before_only)
          .with("synced_ms", synced));
  return findings;
}

// --- Section 3 -------------------------------------------------------------------

bool queues_work(HostCall call) { return call != HostCall::cuda_malloc && call != HostCall::cuda_free; }
bool stream_zero_waits_for_work(WorkSetup s) {
  return s == WorkSetup::blocking_stream || s == WorkSetup::per_thread_legacy_stream;
}
bool ordered_after_work(HostCall call, WorkSetup setup) {
  if (call == HostCall::read_one_value) return true;  // queued on the work's own stream
  return queues_work(call) && stream_zero_waits_for_work(setup);
}
bool promised_wait(HostCall call, WorkSetup setup) {
  return call == HostCall::read_one_value || (call == HostCall::memcpy_blocking && ordered_after_work(call, setup));
}
bool waited_for_work(const CallProbe& probe) {
  return probe.work_done_at_return && probe.returned_after_ms >= probe.alone_ms + 0.5 * probe.work_ms;
}

std::vector<lab::Finding> implicit_sync_checks(const ImplicitSyncRun& run, WorkSetup setup) {
  std::vector<std::string> waited, did_not_wait, ordered_wrong;
  std::size_t ordered = 0;
  for (const CallProbe& p : run.probes) {
    if (p.setup != setup) continue;
    const std::string name = host_call_name(p.call);
    if (promised_wait(p.call, setup)) (waited_for_work(p) ? waited : did_not_wait).push_back(name);
    if (p.data.count == 0 || !ordered_after_work(p.call, setup)) continue;
    ++ordered;
    if (!p.data.passed()) ordered_wrong.push_back(name + ": " + p.data.detail());
  }
  const std::string label = setup_label(setup);
  const std::string id = std::string("_") + "abcd"[static_cast<int>(setup)];
  std::vector<lab::Finding> findings;
  // Only a promised wait is judged: any other call may or may not wait (the page quotes the documentation).
  if (!waited.empty() || !did_not_wait.empty()) {
    findings.push_back(
        lab::timing_check("documented_waits" + id, label + " the calls documented to wait for the queued work did",
                          did_not_wait.empty(), "waited: " + join(waited) + "; did not wait: " + join(did_not_wait))
            .with("did_not_wait_count", did_not_wait.size()));
  }
  if (ordered > 0) {
    findings.push_back(
        lab::correctness_check(
            "ordered_reads" + id, label + " what runs after the work reads its result", ordered_wrong.empty(),
            ordered_wrong.empty() ? lab::count_text(ordered, "call", "calls") + ", every value equal to the CPU's"
                                  : join(ordered_wrong))
            .with("wrong_count", ordered_wrong.size()));
  }
  return findings;
}

// --- Section 4 -------------------------------------------------------------------

std::vector<lab::Finding> placement_checks(const Placement& p) {
  const double saved = p.read_then_work_ms - p.work_then_read_ms;
  // Overlap saves up to the shorter piece; half of it is more than noise between two runs.
  const double needed = 0.5 * std::min(p.gpu_ms, p.cpu_ms);
  return {
      lab::correctness_check("correct_cpu_work_first", "result correct with the CPU work before the read",
                             p.work_then_read.passed(), p.work_then_read.detail()),
      lab::correctness_check("correct_read_first", "result correct with the CPU work after the read",
                             p.read_then_work.passed(), p.read_then_work.detail()),
      lab::timing_check(
          "cpu_work_overlaps",
          "CPU work placed before the read overlaps the GPU's (saves half the shorter piece or more)", saved >= needed,
          lab::format("%.3f ms against %.3f ms: %.3f ms %s (half the shorter piece: %.3f ms)", p.work_then_read_ms,
                      p.read_then_work_ms, std::abs(saved), saved > 0 ? "saved" : "lost", needed))
          .with("saved_ms", saved)
          .with("needed_ms", needed)};
}

}  // namespace ch02
