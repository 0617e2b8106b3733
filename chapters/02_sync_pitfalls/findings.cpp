#include "findings.hpp"

#include <algorithm>
#include <cmath>

#include "vocabulary.hpp"

namespace ch02 {

namespace {

// A backlog shorter than this is not told apart from the event timer's
// documented resolution (about 0.5 us; on the H100 runs readings differed by as
// little as 32 ns), the events' own cost and the launch calls around it.
constexpr double kMeasurableBacklogMs = 0.01;
constexpr const char* kCaseNames[] = {"sync before and after", "sync before only", "sync after only", "no sync"};

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
  return parts.empty() ? "none" : out;
}

// What the timer of @p run contained, from its readings and @p held_ms, the
// median of events on a held stream around the kernel: no launch gap, but the
// events' own cost (chapter 03, section 6), so not the kernel's own duration.
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

}  // namespace

// --- Sections 1 and 2 ----------------------------------------------------------

const char* case_name(SyncCase sync_case) { return kCaseNames[static_cast<int>(sync_case)]; }
bool syncs_before(SyncCase c) { return c == SyncCase::before_and_after || c == SyncCase::before_only; }
bool syncs_after(SyncCase c) { return c == SyncCase::before_and_after || c == SyncCase::after_only; }

bool first_run_held_backlog(const CaseRun& run) {
  if (run.samples_ms.empty() || run.backlog_ms < kMeasurableBacklogMs) return false;
  return run.samples_ms.front() - lab::median(run.samples_ms) >= 0.5 * run.backlog_ms;
}

lab::ResultTable host_timer_table(const HostTimerRun& run) {
  lab::ResultTable table("host_timer_" + run.id, "A host timer around " + run.kernel + ", four ways", "case",
                         {{"first_ms", "first", "ms", 3},
                          {"median", "median", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"backlog_ms", "backlog in flight", "ms", 3},
                          {"contained", "the timer contained", "", 0}});
  if (!run.kernel_ms.empty()) {
    table.add_row("events on a held stream")
        .samples(run.kernel_ms, "ms")
        .set("first_ms", run.kernel_ms.front())
        .set("contained", "the kernel + the events' cost, no launch gap");
  }
  for (const CaseRun& c : run.cases) {
    lab::ResultTable::Row& row = table.add_row(case_name(c.sync_case));
    if (!c.samples_ms.empty()) row.samples(c.samples_ms, "ms").set("first_ms", c.samples_ms.front());
    row.set("backlog_ms", c.backlog_ms)
        .set("contained", timer_contents(c, lab::median_or_nan(run.kernel_ms)))
        .set("first_run_held_backlog", first_run_held_backlog(c));
  }
  table.note(
      lab::format("%d readings per case, after %d launches of the kernel and a %.1f ms spin kernel left in "
                  "flight (their GPU time: 'backlog in flight').",
                  run.runs, run.warmup, run.backlog_kernel_ms));
  return table;
}

std::vector<lab::Finding> host_timer_findings(const HostTimerRun& run) {
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

std::vector<lab::Finding> long_kernel_findings(const HostTimerRun& run) {
  std::vector<lab::Finding> findings = host_timer_findings(run);
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

namespace {

// The calls' names, in kAllHostCalls order.
constexpr const char* kCallNames[] = {"kernel<<<..., 0>>> copying c",
                                      "cudaMemcpyAsync to pinned, 0",
                                      "cudaMemcpyAsync to pageable, 0",
                                      "cudaMemcpy to pageable",
                                      "cudaMalloc 1 MiB",
                                      "cudaFree 1 MiB",
                                      "c[n-1] on the work's stream + sync"};

// Does the call queue work (a kernel, a copy)? cudaMalloc and cudaFree queue nothing.
bool queues_work(HostCall call) { return call != HostCall::cuda_malloc && call != HostCall::cuda_free; }

// Each setup's label and title (kAllSetups order).
constexpr const char* kSetupLabels[] = {"(a)", "(b)", "(c)", "(d)"};
constexpr const char* kSetupTitles[] = {
    "(a) work on a blocking stream (cudaStreamCreate); calls from a default build (stream 0: legacy)",
    "(b) work on a non-blocking stream (cudaStreamNonBlocking); calls from a default build (stream 0: legacy)",
    "(c) work on a blocking stream (cudaStreamCreate); calls from a --default-stream per-thread file",
    "(d) work on the legacy default stream (cudaStreamLegacy); calls from the per-thread file"};

}  // namespace

const char* host_call_name(HostCall call) { return kCallNames[static_cast<int>(call)]; }
const char* setup_label(WorkSetup setup) { return kSetupLabels[static_cast<int>(setup)]; }
bool built_per_thread(WorkSetup s) {
  return s == WorkSetup::per_thread_blocking_stream || s == WorkSetup::per_thread_legacy_stream;
}
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

lab::ResultTable implicit_sync_table(const ImplicitSyncRun& run, WorkSetup setup) {
  lab::ResultTable table(std::string("implicit_sync_") + "abcd"[static_cast<int>(setup)],
                         kSetupTitles[static_cast<int>(setup)], "call",
                         {{"after_the_work", "after the work? (docs)", "", 0},
                          {"alone_ms", "alone", "ms", 3},
                          {"returned_after_ms", "with the work", "ms", 3},
                          {"waited", "waited", "", 0},
                          {"values_read", "values read", "", 0},
                          {"values_wrong", "wrong", "", 0}});
  for (const CallProbe& p : run.probes) {
    if (p.setup != setup) continue;
    lab::ResultTable::Row& row = table.add_row(host_call_name(p.call));
    row.set("after_the_work", !queues_work(p.call)                ? "-"
                              : ordered_after_work(p.call, setup) ? "yes"
                                                                  : "no")
        .set("alone_ms", p.alone_ms)
        .set("returned_after_ms", p.returned_after_ms)
        .set("work_ms", p.work_ms)
        .set("work_done_at_return", p.work_done_at_return)
        .set("waited", waited_for_work(p));
    if (p.data.count > 0) {
      row.set("values_read", static_cast<long long>(p.data.count))
          .set("values_wrong", static_cast<long long>(p.data.mismatches));
    }
  }
  table.note(
      lab::format("The work: a %.1f ms spin kernel, then c = a + b into a c poisoned with NaN. 'waited': the work "
                  "was done when the call returned, which took half the work's time longer than alone (no spin "
                  "kernel).\n'wrong': values of c read unlike the CPU's.",
                  run.queued_ms));
  return table;
}

std::vector<lab::Finding> implicit_sync_findings(const ImplicitSyncRun& run, WorkSetup setup) {
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

lab::ResultTable placement_table(const Placement& p) {
  lab::ResultTable table("placement", "The same GPU and CPU work, placed two ways", "what",
                         {{"time_ms", "time", "ms", 3},
                          {"bound_ms", "longer / sum alone", "ms", 3},
                          {"values_wrong", "result: wrong values", "", 0}});
  table.add_row("the GPU work alone (events)").set("time_ms", p.gpu_ms);
  table.add_row("the CPU work alone (host timer)").set("time_ms", p.cpu_ms);
  table.add_row("queue GPU work, CPU work, then read the result")
      .set("time_ms", p.work_then_read_ms)
      .set("bound_ms", std::max(p.gpu_ms, p.cpu_ms))
      .set("values_wrong", static_cast<long long>(p.work_then_read.mismatches));
  table.add_row("queue GPU work, read the result, then CPU work")
      .set("time_ms", p.read_then_work_ms)
      .set("bound_ms", p.gpu_ms + p.cpu_ms)
      .set("values_wrong", static_cast<long long>(p.read_then_work.mismatches));
  table.note(
      "The GPU work: a spin kernel, then c = a + b. Reading the result: cudaMemcpyAsync, then "
      "cudaStreamSynchronize. Wall time on the host beside the longer of the two pieces alone (the most "
      "overlap can reach) and their sum (no overlap).");
  return table;
}

std::vector<lab::Finding> placement_findings(const Placement& p) {
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
