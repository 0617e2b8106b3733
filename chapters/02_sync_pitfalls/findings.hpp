/// @file findings.hpp
/// @brief Chapter 02's data (plain structs sync_pitfalls.cuh fills on the GPU) and the
/// pure functions that turn it into tables and checks, CPU-tested in tests/ch02_findings_test.cpp.
/// What the CUDA documentation says of each call, and why the calls behave as they do, is on
/// the chapter page (README.md), with its sources.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"
#include "verify.hpp"

namespace ch02 {

// --- Sections 1 and 2: a host timer around a kernel, four ways --------------

/// Where the host timer's code synchronises with the GPU.
enum class SyncCase {
  before_and_after,  ///< sync; start; launch; sync; stop  (the right way)
  before_only,       ///< sync; start; launch; stop        (times the launch call)
  after_only,        ///< start; launch; sync; stop        (also times whatever was queued before)
  never              ///< start; launch; stop              (times the launch call; kernels pile up)
};

/// The cases in the order the chapter shows them.
constexpr SyncCase kAllCases[] = {SyncCase::before_and_after, SyncCase::before_only, SyncCase::after_only,
                                  SyncCase::never};

const char* case_name(SyncCase sync_case);  ///< e.g. "sync before and after"
bool syncs_before(SyncCase sync_case);      ///< does the case synchronise before starting the timer?
bool syncs_after(SyncCase sync_case);       ///< does it synchronise before stopping the timer?

/// One case: the host-timer readings and what was in flight when the first began.
struct CaseRun {
  SyncCase sync_case = SyncCase::before_and_after;  ///< which case
  std::vector<double> samples_ms;                   ///< one host-timer reading per run, first run first
  double backlog_ms = 0;   ///< GPU time of the work left in flight when the first timer started (events)
  lab::Comparison result;  ///< the kernel's output after the case, against the CPU (count 0: not checked)
};

/// The four cases around one kernel.
struct HostTimerRun {
  std::string id;                 ///< "add" (section 1) or "long_kernel" (section 2): names its table and findings
  std::string kernel;             ///< what was timed, e.g. "c = a + b (1048576 floats)"
  int runs = 0;                   ///< host-timer readings per case
  int warmup = 0;                 ///< launches of the kernel left in flight before each case
  double backlog_kernel_ms = 0;   ///< the spin kernel queued before those launches
  std::vector<double> kernel_ms;  ///< event samples on a held stream (no launch gap, but the events' cost)
  std::vector<CaseRun> cases;     ///< one per SyncCase, in kAllCases order
};

/// Did the first reading exceed the median by half the backlog in flight or more (a backlog of 0.01 ms or more)?
bool first_run_held_backlog(const CaseRun& run);
/// Events on a held stream, then one row per case: its readings, the backlog in
/// flight, and what the timer contained (the launch call, or launch + kernel + sync, with the backlog),
/// from the case's readings against the held-stream events' median.
lab::ResultTable host_timer_table(const HostTimerRun& run);
/// The kernel's output was correct after every case (when checked).
std::vector<lab::Finding> host_timer_findings(const HostTimerRun& run);
/// host_timer_findings(), and: without a sync after the launch the timer reads under a tenth (timing).
std::vector<lab::Finding> long_kernel_findings(const HostTimerRun& run);

// --- Section 3: which calls wait for queued work, and on what condition ------

/// A host call made while work is queued on another stream.
enum class HostCall {
  kernel_launch,          ///< a kernel launched on stream 0 that copies c
  memcpy_async_pinned,    ///< cudaMemcpyAsync of c into pinned memory, on stream 0
  memcpy_async_pageable,  ///< cudaMemcpyAsync of c into pageable memory, on stream 0
  memcpy_blocking,        ///< cudaMemcpy of c into pageable memory (stream 0, implicitly)
  cuda_malloc,            ///< cudaMalloc of 1 MiB
  cuda_free,              ///< cudaFree of 1 MiB allocated before the work was queued
  read_one_value          ///< copy c[n-1] on the work's own stream and cudaStreamSynchronize it (PyTorch's `.item()`)
};

/// The calls in the order the chapter shows them.
constexpr HostCall kAllHostCalls[] = {
    HostCall::kernel_launch, HostCall::memcpy_async_pinned, HostCall::memcpy_async_pageable, HostCall::memcpy_blocking,
    HostCall::cuda_malloc,   HostCall::cuda_free,           HostCall::read_one_value};

const char* host_call_name(HostCall call);  ///< the call as code, e.g. "cudaMemcpy to pageable"

/// Where the work is queued, and how the calling code was built.
enum class WorkSetup {
  blocking_stream,             ///< (a) a stream from cudaStreamCreate; calls from a default build (stream 0 = legacy)
  non_blocking_stream,         ///< (b) a cudaStreamNonBlocking stream; calls from a default build
  per_thread_blocking_stream,  ///< (c) a stream from cudaStreamCreate; calls from a --default-stream per-thread file
  per_thread_legacy_stream     ///< (d) the legacy default stream (cudaStreamLegacy); calls from the per-thread file
};

/// The setups in the order the chapter shows them.
constexpr WorkSetup kAllSetups[] = {WorkSetup::blocking_stream, WorkSetup::non_blocking_stream,
                                    WorkSetup::per_thread_blocking_stream, WorkSetup::per_thread_legacy_stream};

const char* setup_label(WorkSetup setup);  ///< "(a)" ... "(d)"
bool built_per_thread(WorkSetup setup);    ///< are the calls made from the --default-stream per-thread file?

// What the CUDA Runtime API documents ("2. API synchronization behavior", "3. Stream
// synchronization behavior"; quoted on the page), as the expectations the checks judge.

/// Does stream 0, as the calling code was built, wait for the work? (a) and (d): yes; (b) and (c): no.
bool stream_zero_waits_for_work(WorkSetup setup);
/// Does what @p call queues (a kernel, a copy) run after the work? Stream 0's calls when stream 0 waits for the
/// work, the read on the work's own stream always; cudaMalloc and cudaFree queue nothing: false.
bool ordered_after_work(HostCall call, WorkSetup setup);
/// Is the host promised to wait for the work in @p call? cudaMemcpy to the host when its copy is ordered after
/// the work ("returns once the copy has completed"), and the read that synchronises the work's own stream.
/// Any other call may or may not wait: not promised.
bool promised_wait(HostCall call, WorkSetup setup);

/// One host call, timed, with work queued before it.
struct CallProbe {
  HostCall call = HostCall::kernel_launch;       ///< which call
  WorkSetup setup = WorkSetup::blocking_stream;  ///< where the work was queued
  double work_ms = 0;                            ///< GPU time of the queued work (events around it on its stream)
  double returned_after_ms = 0;                  ///< host time from just before the call until it returned
  bool work_done_at_return = false;              ///< had the work finished when the call returned (cudaEventQuery)?
  double alone_ms = 0;   ///< the same call with no spinning queued before it: what it costs itself
  lab::Comparison data;  ///< what the call read of c, against the CPU (count 0: it reads nothing)
};

/// Did the call wait for the queued work? The work was done when it returned, and it took half the work's time
/// longer than alone or more (so a call slow by itself, a large pageable copy, does not count).
bool waited_for_work(const CallProbe& probe);

/// Every call in every setup.
struct ImplicitSyncRun {
  double queued_ms = 0;           ///< the spin kernel queued before c = a + b, ahead of each call
  std::vector<CallProbe> probes;  ///< setup by setup, each in kAllHostCalls order
};

/// One table per setup: whether each call's work runs after the queued work (documented), then what happened.
lab::ResultTable implicit_sync_table(const ImplicitSyncRun& run, WorkSetup setup);
/// One setup's checks, each left out with no call to judge: the calls documented to wait did (timing: only a
/// promised wait is judged, as any call may block); what runs after the work read its result (correctness).
std::vector<lab::Finding> implicit_sync_findings(const ImplicitSyncRun& run, WorkSetup setup);

// --- Section 4: where the CPU work goes --------------------------------------

/// The same GPU and CPU work, placed two ways.
struct Placement {
  double gpu_ms = 0;               ///< the GPU work alone (events)
  double cpu_ms = 0;               ///< the CPU work alone (host timer)
  double work_then_read_ms = 0;    ///< wall time: queue GPU work, CPU work, then read the result
  double read_then_work_ms = 0;    ///< wall time: queue GPU work, read the result, then CPU work
  lab::Comparison work_then_read;  ///< the result read in the first placement
  lab::Comparison read_then_work;  ///< the result read in the second placement
};

/// The two pieces of work alone, then the two placements beside the longer piece and the sum.
lab::ResultTable placement_table(const Placement& placement);
/// Both results correct; CPU work placed before the read finished sooner by half
/// the shorter piece of work or more (timing).
std::vector<lab::Finding> placement_findings(const Placement& placement);

}  // namespace ch02
