/// @file findings.hpp
/// @brief Chapter 02's data and what the chapter concludes from it: the plain
/// structs its experiments return (sync_pitfalls.cuh fills them on the GPU), and
/// the pure functions that turn them into result tables and findings.
///
/// Plain C++, no CUDA header: it builds and is tested without a GPU
/// (tests/ch02_findings_test.cpp gives every branch hand-made data). Every
/// sentence a finding prints is computed here from the measured values; what
/// the CUDA documentation promises is printed by main.cu as background, with
/// its source.
#pragma once

#include <cstddef>
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

/// A short name, e.g. "sync before and after".
const char* case_name(SyncCase sync_case);
/// Does the case synchronise before starting the timer?
bool syncs_before(SyncCase sync_case);
/// Does the case synchronise before stopping the timer?
bool syncs_after(SyncCase sync_case);

/// One case: the host-timer readings and what was in flight when the first began.
struct CaseRun {
  SyncCase sync_case = SyncCase::before_and_after;  ///< which case
  std::vector<double> samples_ms;                   ///< one host-timer reading per run, first run first
  double backlog_ms = 0;   ///< GPU time of the work left in flight when the first timer started (events)
  lab::Comparison result;  ///< the kernel's output after the case, against the CPU (count 0: not checked)
};

/// The four cases around one kernel (section 1: c = a + b; section 2: a long kernel).
struct HostTimerRun {
  std::string kernel;              ///< what was timed, e.g. "c = a + b (1048576 floats)"
  int runs = 0;                    ///< host-timer readings per case
  int warmup = 0;                  ///< launches of the kernel left in flight before each case
  double backlog_kernel_ms = 0;    ///< the spin kernel queued before those launches
  std::vector<double> kernel_ms;   ///< the kernel alone: event samples on a held stream (no launch gap)
  std::vector<CaseRun> cases;      ///< one per SyncCase, in kAllCases order
};

/// Did the first reading of @p run also hold the work left in flight? True when
/// it exceeds the median reading by at least half of the backlog's GPU time
/// (and a backlog of at least 0.01 ms was there to see).
bool first_run_held_backlog(const CaseRun& run);

/// What the timer of @p run contained, derived from its readings and the
/// kernel's own GPU time @p kernel_ms (median of the event samples):
/// - a case that syncs after the launch reading under half the kernel: "less
///   than the kernel: the sync did not wait for it";
/// - one that syncs after: "launch + kernel + sync", with "backlog (first run)"
///   when first_run_held_backlog();
/// - one that does not sync after, reading under half the kernel: "the launch call only";
/// - otherwise: the launch call, "too close to the kernel's time to tell" (the
///   times alone cannot show the kernel was not inside).
std::string timer_contents(const CaseRun& run, double kernel_ms);

/// The kernel alone (events), then one row per case: first, median and max
/// reading, the backlog in flight, what the timer contained.
lab::ResultTable host_timer_table(const HostTimerRun& run);

/// Section 1: the kernel's output was correct after every case (when it was
/// checked), and whether the first "sync after only" reading held the backlog.
std::vector<lab::Finding> host_timer_findings(const HostTimerRun& run);

/// Section 2: host_timer_findings(), and a timing check that without a sync
/// after the launch the timer reads under a tenth of the synchronised one.
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
constexpr HostCall kAllHostCalls[] = {HostCall::kernel_launch,   HostCall::memcpy_async_pinned,
                                      HostCall::memcpy_async_pageable, HostCall::memcpy_blocking,
                                      HostCall::cuda_malloc,     HostCall::cuda_free,
                                      HostCall::read_one_value};

/// The call as code, e.g. "cudaMemcpy to pageable".
const char* host_call_name(HostCall call);

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

/// "(a)" ... "(d)".
const char* setup_label(WorkSetup setup);
/// Where the work is and what stream 0 is, e.g. "(b) work on a non-blocking stream (cudaStreamNonBlocking); ...".
std::string setup_title(WorkSetup setup);
/// Are the calls made from the file built with `--default-stream per-thread`?
bool built_per_thread(WorkSetup setup);
/// Does stream 0, as the calling code was built, wait for the work in @p setup?
/// (a) and (d): yes; (b) and (c): no (CUDA Runtime API, "Stream synchronization behavior").
bool stream_zero_waits_for_work(WorkSetup setup);

/// What the CUDA documentation says about one question.
enum class Documented {
  yes,          ///< documented to
  no,           ///< documented not to
  may,          ///< the documentation says it may
  unspecified,  ///< the documentation says nothing (any call may block when internal resources run out)
  not_applicable
};

/// Does the host wait for the queued work in this call? A copy the call waits
/// for waits for the work exactly when the copy is ordered after it.
Documented documented_wait(HostCall call, WorkSetup setup);
/// Does what the call queues (a kernel, a copy) run after the queued work?
Documented documented_order(HostCall call, WorkSetup setup);
/// When the call returns, as documented, e.g. "after its copy".
const char* documented_return_text(HostCall call);

/// One host call, timed, with work queued before it.
struct CallProbe {
  HostCall call = HostCall::kernel_launch;       ///< which call
  WorkSetup setup = WorkSetup::blocking_stream;  ///< where the work was queued
  double work_ms = 0;                ///< GPU time of the queued work (events around it on its stream)
  double returned_after_ms = 0;      ///< host time from just before the call until it returned
  bool work_done_at_return = false;  ///< had the work finished when the call returned (cudaEventQuery)?
  double alone_ms = 0;               ///< the same call with no spinning queued before it: what it costs itself
  lab::Comparison data;              ///< what the call read of c, against the CPU (count 0: it reads nothing)
};

/// Did the call wait for the queued work? Yes when the work had finished when
/// it returned *and* it took at least half the work's time longer than the
/// same call alone. The second condition keeps a call that is slow by itself
/// (a large pageable copy) from counting as waiting when it merely outlasted the work.
bool waited_for_work(const CallProbe& probe);

/// Every call in every setup.
struct ImplicitSyncRun {
  double queued_ms = 0;           ///< the spin kernel queued before c = a + b, ahead of each call
  std::vector<CallProbe> probes;  ///< setup by setup, each in kAllHostCalls order
};

/// One table per setup: what the documentation says (when the call returns,
/// whether what it queues runs after the work), then what happened.
lab::ResultTable implicit_sync_table(const ImplicitSyncRun& run, WorkSetup setup);

/// The findings of one setup:
/// - timing check: every call documented to wait for the work did (only a
///   promised wait is judged: any call may block, so a call not required to
///   wait that waited is an observation, not a failure);
/// - observation: which calls not required to wait did or did not;
/// - correctness check: every call ordered after the work read the kernel's result;
/// - observation: which calls not ordered after the work read c before the
///   kernel had written it (expected: that is the lesson, not a failure);
/// - observation: what the calls the documentation leaves open did.
/// A finding with no probe to judge is left out.
std::vector<lab::Finding> implicit_sync_findings(const ImplicitSyncRun& run, WorkSetup setup);

// --- Section 4: where the CPU work goes --------------------------------------

/// The same GPU and CPU work, placed two ways.
struct Placement {
  double gpu_ms = 0;             ///< the GPU work alone (events)
  double cpu_ms = 0;             ///< the CPU work alone (host timer)
  double work_then_read_ms = 0;  ///< wall time: queue GPU work, CPU work, then read the result
  double read_then_work_ms = 0;  ///< wall time: queue GPU work, read the result, then CPU work
  lab::Comparison work_then_read;  ///< the result read in the first placement
  lab::Comparison read_then_work;  ///< the result read in the second placement
};

/// The two pieces of work alone, then the two placements.
lab::ResultTable placement_table(const Placement& placement);

/// Both results correct; a timing check that CPU work placed before the read
/// finished sooner; an observation comparing each placement with the longer of
/// the two pieces and with their sum.
std::vector<lab::Finding> placement_findings(const Placement& placement);

}  // namespace ch02
