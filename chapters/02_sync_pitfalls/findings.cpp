#include "findings.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "statistics.hpp"

namespace ch02 {

namespace {

// A backlog shorter than this is not told apart from the event timer's own
// resolution (about 0.5 us) and the launch calls around it.
constexpr double kMeasurableBacklogMs = 0.01;

std::string ms(double value) { return lab::fixed(value, 3) + " ms"; }

// "1.250 ms more" or "0.100 ms less".
std::string more_or_less(double difference) {
  return difference >= 0 ? ms(difference) + " more" : ms(-difference) + " less";
}

double median_or_zero(const std::vector<double>& samples) { return samples.empty() ? 0.0 : lab::median(samples); }

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i > 0 ? separator : "") + parts[i];
  return out;
}

const CaseRun* find_case(const HostTimerRun& run, SyncCase sync_case) {
  for (const CaseRun& c : run.cases) {
    if (c.sync_case == sync_case && !c.samples_ms.empty()) return &c;
  }
  return nullptr;
}

std::vector<const CallProbe*> probes_of(const ImplicitSyncRun& run, WorkSetup setup) {
  std::vector<const CallProbe*> out;
  for (const CallProbe& p : run.probes) {
    if (p.setup == setup) out.push_back(&p);
  }
  return out;
}

const char* documented_text(Documented d) {
  switch (d) {
    case Documented::yes: return "yes";
    case Documented::no: return "no";
    case Documented::may: return "may";
    case Documented::unspecified: return "not said";
    case Documented::not_applicable: return "-";
  }
  return "?";
}

lab::Finding backlog_observation(const CaseRun& after_only) {
  const std::string name = "the backlog in the first 'sync after only' reading";
  const double first = after_only.samples_ms.front();
  const double median = lab::median(after_only.samples_ms);
  const std::string readings = "'sync after only' read " + ms(first) + " on its first run and " + ms(median) +
                               " at the median";
  if (after_only.backlog_ms < kMeasurableBacklogMs) {
    return lab::observation(name, "only " + ms(after_only.backlog_ms) +
                                      " of GPU work was left in flight before the timers started: there was no "
                                      "backlog to see (" + readings + ")");
  }
  if (first_run_held_backlog(after_only)) {
    return lab::observation(name, readings + ": its first run also held " + ms(first - median) + " of the " +
                                      ms(after_only.backlog_ms) +
                                      " of work left in flight before it, which was not its own work");
  }
  return lab::observation(name, readings + ": less than half of the " + ms(after_only.backlog_ms) +
                                    " left in flight landed in its first run (the GPU had done the rest before "
                                    "the timer started)");
}

}  // namespace

// --- Sections 1 and 2 ----------------------------------------------------------

const char* case_name(SyncCase sync_case) {
  switch (sync_case) {
    case SyncCase::before_and_after: return "sync before and after";
    case SyncCase::before_only: return "sync before only";
    case SyncCase::after_only: return "sync after only";
    case SyncCase::never: return "no sync";
  }
  return "?";
}

bool syncs_before(SyncCase sync_case) {
  return sync_case == SyncCase::before_and_after || sync_case == SyncCase::before_only;
}

bool syncs_after(SyncCase sync_case) {
  return sync_case == SyncCase::before_and_after || sync_case == SyncCase::after_only;
}

bool first_run_held_backlog(const CaseRun& run) {
  if (run.samples_ms.empty() || run.backlog_ms < kMeasurableBacklogMs) return false;
  return run.samples_ms.front() - lab::median(run.samples_ms) >= 0.5 * run.backlog_ms;
}

std::string timer_contents(const CaseRun& run, double kernel_ms) {
  if (run.samples_ms.empty()) return "-";
  const double median = lab::median(run.samples_ms);
  const bool under_half_the_kernel = median < 0.5 * kernel_ms;
  if (syncs_after(run.sync_case)) {
    if (under_half_the_kernel) return "less than the kernel: the sync did not wait for it";
    if (first_run_held_backlog(run)) return "backlog (first run) + launch + kernel + sync";
    return "launch + kernel + sync";
  }
  if (under_half_the_kernel) return "the launch call only";
  return "the launch call; too close to the kernel's time to tell";
}

lab::ResultTable host_timer_table(const HostTimerRun& run) {
  lab::ResultTable table("A host timer around " + run.kernel + ", four ways", "case",
                         {{"first_ms", "first", "ms", 3},
                          {"median", "median", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"backlog_ms", "backlog in flight", "ms", 3},
                          {"contained", "the timer contained", "", 0}});
  if (!run.kernel_ms.empty()) {
    table.add_row("the kernel alone (events)")
        .samples(run.kernel_ms, "ms")
        .set("first_ms", run.kernel_ms.front())
        .set("contained", "the kernel, no launch gap");
  }
  const double kernel_ms = median_or_zero(run.kernel_ms);
  for (const CaseRun& c : run.cases) {
    lab::ResultTable::Row& row = table.add_row(case_name(c.sync_case));
    if (!c.samples_ms.empty()) row.samples(c.samples_ms, "ms").set("first_ms", c.samples_ms.front());
    row.set("backlog_ms", c.backlog_ms)
        .set("contained", timer_contents(c, kernel_ms))
        .set("first_run_held_backlog", first_run_held_backlog(c));
  }
  table.note("Host-timer readings, " + std::to_string(run.runs) + " runs per case. Before each case " +
             std::to_string(run.warmup) + " launches of the kernel and a " + lab::fixed(run.backlog_kernel_ms, 1) +
             " ms spin kernel were queued and left in flight; 'backlog in flight' is their GPU time (events).\n"
             "'the kernel alone': events around the kernel on a held stream (chapter 03), no launch gap. 'the timer "
             "contained' is derived from these numbers.");
  return table;
}

std::vector<lab::Finding> host_timer_findings(const HostTimerRun& run) {
  std::vector<lab::Finding> findings;
  std::vector<std::string> wrong;
  std::size_t checked = 0;
  std::string detail;
  for (const CaseRun& c : run.cases) {
    if (c.result.count == 0) continue;
    ++checked;
    detail = c.result.detail();
    if (!c.result.passed()) wrong.push_back(std::string("after '") + case_name(c.sync_case) + "': " + detail);
  }
  if (checked > 0) {
    findings.push_back(lab::correctness_check(
        run.kernel + " correct after every case", wrong.empty(),
        wrong.empty() ? "checked after each of the " + std::to_string(checked) + " cases: " + detail
                      : join(wrong, "; ")));
  }
  if (const CaseRun* after_only = find_case(run, SyncCase::after_only)) {
    findings.push_back(backlog_observation(*after_only));
  }
  return findings;
}

std::vector<lab::Finding> long_kernel_findings(const HostTimerRun& run) {
  std::vector<lab::Finding> findings = host_timer_findings(run);
  const CaseRun* both = find_case(run, SyncCase::before_and_after);
  const CaseRun* before = find_case(run, SyncCase::before_only);
  const CaseRun* never = find_case(run, SyncCase::never);
  if (both == nullptr || before == nullptr || never == nullptr) return findings;
  const double synced = lab::median(both->samples_ms);
  const double before_only = lab::median(before->samples_ms);
  const double unsynced = lab::median(never->samples_ms);
  const bool passed = unsynced < synced / 10 && before_only < synced / 10;
  findings.push_back(lab::timing_check(
      "without a sync after the launch the host timer reads under a tenth of the synchronised one", passed,
      "medians: no sync " + ms(unsynced) + ", sync before only " + ms(before_only) + ", sync before and after " +
          ms(synced) + (unsynced > 0 ? " (" + lab::fixed(synced / unsynced, 0) + " times the no-sync reading)" : "")));
  return findings;
}

// --- Section 3 -------------------------------------------------------------------

const char* host_call_name(HostCall call) {
  switch (call) {
    case HostCall::kernel_launch: return "kernel<<<..., 0>>> copying c";
    case HostCall::memcpy_async_pinned: return "cudaMemcpyAsync to pinned, 0";
    case HostCall::memcpy_async_pageable: return "cudaMemcpyAsync to pageable, 0";
    case HostCall::memcpy_blocking: return "cudaMemcpy to pageable";
    case HostCall::cuda_malloc: return "cudaMalloc 1 MiB";
    case HostCall::cuda_free: return "cudaFree 1 MiB";
    case HostCall::read_one_value: return "c[n-1] on the work's stream + sync";
  }
  return "?";
}

const char* setup_label(WorkSetup setup) {
  switch (setup) {
    case WorkSetup::blocking_stream: return "(a)";
    case WorkSetup::non_blocking_stream: return "(b)";
    case WorkSetup::per_thread_blocking_stream: return "(c)";
    case WorkSetup::per_thread_legacy_stream: return "(d)";
  }
  return "?";
}

std::string setup_title(WorkSetup setup) {
  const std::string label = setup_label(setup);
  switch (setup) {
    case WorkSetup::blocking_stream:
      return label + " work on a blocking stream (cudaStreamCreate); calls from a default build, where stream 0 "
                     "is the legacy default stream: it waits for blocking streams";
    case WorkSetup::non_blocking_stream:
      return label + " work on a non-blocking stream (cudaStreamNonBlocking); calls from a default build, where "
                     "stream 0 is the legacy default stream: it does not wait for non-blocking streams";
    case WorkSetup::per_thread_blocking_stream:
      return label + " work on a blocking stream (cudaStreamCreate); calls from a file built with "
                     "--default-stream per-thread, where stream 0 is the thread's own stream: it does not wait "
                     "for other streams";
    case WorkSetup::per_thread_legacy_stream:
      return label + " work on the legacy default stream (cudaStreamLegacy); calls from the per-thread file: "
                     "the per-thread stream still waits for the legacy default stream";
  }
  return label;
}

bool built_per_thread(WorkSetup setup) {
  return setup == WorkSetup::per_thread_blocking_stream || setup == WorkSetup::per_thread_legacy_stream;
}

bool stream_zero_waits_for_work(WorkSetup setup) {
  return setup == WorkSetup::blocking_stream || setup == WorkSetup::per_thread_legacy_stream;
}

Documented documented_order(HostCall call, WorkSetup setup) {
  switch (call) {
    case HostCall::kernel_launch:
    case HostCall::memcpy_async_pinned:
    case HostCall::memcpy_async_pageable:
    case HostCall::memcpy_blocking: return stream_zero_waits_for_work(setup) ? Documented::yes : Documented::no;
    case HostCall::cuda_malloc:
    case HostCall::cuda_free: return Documented::not_applicable;
    case HostCall::read_one_value: return Documented::yes;  // on the work's own stream: stream order
  }
  return Documented::not_applicable;
}

Documented documented_wait(HostCall call, WorkSetup setup) {
  const bool ordered = documented_order(call, setup) == Documented::yes;
  switch (call) {
    case HostCall::kernel_launch:
    case HostCall::memcpy_async_pinned: return Documented::no;
    // Pageable: "might be synchronous with respect to the host", so it may wait
    // for its copy, and through it for the work the copy is ordered after.
    case HostCall::memcpy_async_pageable: return ordered ? Documented::may : Documented::no;
    // Device to host: "returns only once the copy has completed".
    case HostCall::memcpy_blocking: return ordered ? Documented::yes : Documented::no;
    case HostCall::cuda_malloc: return Documented::unspecified;
    case HostCall::cuda_free: return Documented::may;  // "may perform implicit synchronization"
    case HostCall::read_one_value: return Documented::yes;
  }
  return Documented::unspecified;
}

const char* documented_return_text(HostCall call) {
  switch (call) {
    case HostCall::kernel_launch:
    case HostCall::memcpy_async_pinned: return "at once";
    case HostCall::memcpy_async_pageable: return "may wait for its copy";
    case HostCall::memcpy_blocking: return "after its copy";
    case HostCall::cuda_malloc: return "not said";
    case HostCall::cuda_free: return "may synchronise";
    case HostCall::read_one_value: return "after the stream's work";
  }
  return "?";
}

bool waited_for_work(const CallProbe& probe) {
  return probe.work_done_at_return && probe.returned_after_ms >= probe.alone_ms + 0.5 * probe.work_ms;
}

lab::ResultTable implicit_sync_table(const ImplicitSyncRun& run, WorkSetup setup) {
  lab::ResultTable table(setup_title(setup), "call",
                         {{"returns", "returns (docs)", "", 0},
                          {"after_the_work", "after the work? (docs)", "", 0},
                          {"alone_ms", "alone", "ms", 3},
                          {"returned_after_ms", "with the work", "ms", 3},
                          {"waited", "waited", "", 0},
                          {"values_read", "values read", "", 0},
                          {"values_wrong", "wrong", "", 0}});
  for (const CallProbe* p : probes_of(run, setup)) {
    lab::ResultTable::Row& row = table.add_row(host_call_name(p->call));
    row.set("returns", documented_return_text(p->call))
        .set("after_the_work", documented_text(documented_order(p->call, setup)))
        .set("documented_wait", documented_text(documented_wait(p->call, setup)))
        .set("alone_ms", p->alone_ms)
        .set("returned_after_ms", p->returned_after_ms)
        .set("work_ms", p->work_ms)
        .set("work_done_at_return", p->work_done_at_return)
        .set("waited", waited_for_work(*p));
    if (p->data.count > 0) {
      row.set("values_read", static_cast<long long>(p->data.count))
          .set("values_wrong", static_cast<long long>(p->data.mismatches));
    }
  }
  table.note("Before each call: a " + lab::fixed(run.queued_ms, 1) +
             " ms spin kernel, then c = a + b, queued on the work's stream, c poisoned with NaN before. 'alone': the "
             "same call with no spin kernel queued.\n'waited': the work had finished when the call returned "
             "(cudaEventQuery on an event after it) and the call took at least half the work's time more than "
             "alone.\n'values read' / 'wrong': what the call read of c (the kernel: what it copied), against the CPU's "
             "a + b.");
  return table;
}

std::vector<lab::Finding> implicit_sync_findings(const ImplicitSyncRun& run, WorkSetup setup) {
  const std::string label = setup_label(setup);
  std::vector<lab::Finding> findings;
  std::vector<std::string> must_wait_waited, must_wait_did_not;     // documented to wait
  std::vector<std::string> free_waited, free_did_not;               // not required to wait
  std::vector<std::string> ordered_wrong;                            // ordered after the work, wrong data
  std::size_t ordered_checked = 0;
  std::vector<std::string> early_readers, lucky_readers;             // not ordered after the work
  std::vector<std::string> open_calls;                               // the documentation leaves it open
  for (const CallProbe* p : probes_of(run, setup)) {
    const std::string name = host_call_name(p->call);
    const Documented wait = documented_wait(p->call, setup);
    const bool call_waited = waited_for_work(*p);
    const std::string outcome = call_waited ? "waited for it" : "did not wait for it";
    if (wait == Documented::yes) {
      (call_waited ? must_wait_waited : must_wait_did_not).push_back(name);
    } else if (wait == Documented::no) {
      (call_waited ? free_waited : free_did_not).push_back(name);
    } else if (wait == Documented::may || wait == Documented::unspecified) {
      open_calls.push_back(name + " (" + documented_return_text(p->call) + ") " + outcome);
    }
    if (p->data.count == 0) continue;
    const Documented order = documented_order(p->call, setup);
    if (order == Documented::yes) {
      ++ordered_checked;
      if (!p->data.passed()) ordered_wrong.push_back(name + ": " + p->data.detail());
    } else if (order == Documented::no) {
      (p->data.mismatches > 0 ? early_readers : lucky_readers).push_back(name);
    }
  }

  // Only a wait the documentation promises is judged: "any CUDA API call may
  // block" (API synchronization behavior), so a call that is not required to
  // wait and did is reported, not failed.
  if (!must_wait_waited.empty() || !must_wait_did_not.empty()) {
    std::string text = "waited: " + (must_wait_waited.empty() ? std::string("none") : join(must_wait_waited, ", "));
    if (!must_wait_did_not.empty()) text = "did not wait: " + join(must_wait_did_not, ", ") + "; " + text;
    findings.push_back(lab::timing_check(label + " the calls documented to wait for the queued work did",
                                         must_wait_did_not.empty(), text));
  }
  if (!free_waited.empty() || !free_did_not.empty()) {
    std::string text = "did not wait: " + (free_did_not.empty() ? std::string("none") : join(free_did_not, ", "));
    if (!free_waited.empty()) {
      text += "; waited all the same: " + join(free_waited, ", ") +
              " (allowed: any call may block, API synchronization behavior)";
    }
    findings.push_back(lab::observation(label + " calls not required to wait", text));
  }
  if (ordered_checked > 0) {
    findings.push_back(lab::correctness_check(
        label + " what runs after the work reads its result", ordered_wrong.empty(),
        ordered_wrong.empty() ? std::to_string(ordered_checked) + (ordered_checked == 1 ? " call" : " calls") +
                                    ", every value equal to the CPU's"
                              : join(ordered_wrong, "; ")));
  }
  if (!early_readers.empty() || !lucky_readers.empty()) {
    std::string text;
    if (!early_readers.empty()) {
      text = join(early_readers, ", ") +
             " read c before the kernel had written it (the NaN poison, counted in 'wrong'): nothing orders them "
             "after the work";
    }
    if (!lucky_readers.empty()) {
      text += (text.empty() ? "" : "; ") + join(lucky_readers, ", ") +
              " read only correct values: the work happened to finish first, though nothing orders them after it";
    }
    findings.push_back(lab::observation(label + " calls not ordered after the work", text));
  }
  if (!open_calls.empty()) {
    findings.push_back(lab::observation(label + " calls the documentation leaves open", join(open_calls, "; ")));
  }
  return findings;
}

// --- Section 4 -------------------------------------------------------------------

lab::ResultTable placement_table(const Placement& placement) {
  lab::ResultTable table("The same GPU and CPU work, placed two ways", "what",
                         {{"time_ms", "time", "ms", 3}, {"values_wrong", "result: wrong values", "", 0}});
  table.add_row("the GPU work alone (events)").set("time_ms", placement.gpu_ms);
  table.add_row("the CPU work alone (host timer)").set("time_ms", placement.cpu_ms);
  table.add_row("queue GPU work, CPU work, then read the result")
      .set("time_ms", placement.work_then_read_ms)
      .set("values_wrong", static_cast<long long>(placement.work_then_read.mismatches));
  table.add_row("queue GPU work, read the result, then CPU work")
      .set("time_ms", placement.read_then_work_ms)
      .set("values_wrong", static_cast<long long>(placement.read_then_work.mismatches));
  table.note("The GPU work: a spin kernel, then c = a + b, on the chapter's stream. Reading the result: "
             "cudaMemcpyAsync on that stream, then cudaStreamSynchronize.\nThe placements are wall time on the host.");
  return table;
}

std::vector<lab::Finding> placement_findings(const Placement& placement) {
  std::vector<lab::Finding> findings;
  findings.push_back(lab::correctness_check("result correct with the CPU work before the read",
                                            placement.work_then_read.passed(), placement.work_then_read.detail()));
  findings.push_back(lab::correctness_check("result correct with the CPU work after the read",
                                            placement.read_then_work.passed(), placement.read_then_work.detail()));
  const double saved = placement.read_then_work_ms - placement.work_then_read_ms;
  findings.push_back(lab::timing_check(
      "CPU work placed before the read overlaps the GPU's", placement.work_then_read_ms < placement.read_then_work_ms,
      ms(placement.work_then_read_ms) + " against " + ms(placement.read_then_work_ms) + ": " +
          (saved > 0 ? ms(saved) + " saved" : ms(-saved) + " lost")));
  const double longer = std::max(placement.gpu_ms, placement.cpu_ms);
  const double sum = placement.gpu_ms + placement.cpu_ms;
  findings.push_back(lab::observation(
      "each placement against the work it holds",
      "CPU work first took " + more_or_less(placement.work_then_read_ms - longer) +
          " than the longer of the two alone (" + ms(longer) + "); reading first took " +
          more_or_less(placement.read_then_work_ms - sum) + " than their sum (" + ms(sum) + ")"));
  return findings;
}

}  // namespace ch02
