#include "tables.hpp"

#include <algorithm>
#include <string>

#include "checks.hpp"
#include "vocabulary.hpp"

namespace ch02 {

namespace {

// Each setup's title (kAllSetups order).
constexpr const char* kSetupTitles[] = {
    "(a) work on a blocking stream (cudaStreamCreate); calls from a default build (stream 0: legacy)",
    "(b) work on a non-blocking stream (cudaStreamNonBlocking); calls from a default build (stream 0: legacy)",
    "(c) work on a blocking stream (cudaStreamCreate); calls from a --default-stream per-thread file",
    "(d) work on the legacy default stream (cudaStreamLegacy); calls from the per-thread file"};

}  // namespace

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

}  // namespace ch02
