/// @file sync_pitfalls.cuh
/// @brief Chapter 02's lesson: what a host timer around asynchronous GPU work
/// really measures, which host calls wait for queued work and on what
/// condition, and where to put CPU work so that it overlaps the GPU's.
///
/// The four timing cases follow the timing section of godweiyang's
/// NN-CUDA-Example article, the `add2` PyTorch custom operator (synchronise
/// before and after, only before, only after, never); the
/// CPU-work placement follows the pin_memory / non_blocking article. The data
/// each experiment returns is in data.hpp; what the chapter concludes from it is
/// in checks.hpp. Section 3's probe is in implicit_sync.cuh, compiled twice.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "add_kernels.cuh"
#include "cpu_work.hpp"
#include "cupti_timeline.cuh"
#include "data.hpp"
#include "options.hpp"

namespace ch02 {

// --- Sections 1 and 2: a host timer around a kernel, four ways ---------------

/// The kernel the host timer is put around: chapter 01's `c = a + b` (section 1,
/// the article's experiment), or a kernel that spins for a set time (section 2).
struct TimedKernel {
  ch01::AddProblem* add = nullptr;  ///< c = a + b, when set
  double spin_ms = 0;               ///< otherwise: spin for this long

  /// Chapter 01's c = a + b on @p problem.
  static TimedKernel add_kernel(ch01::AddProblem& problem) { return {&problem, 0.0}; }
  /// A one-thread kernel that spins for @p ms of GPU time.
  static TimedKernel spinning(double ms) { return {nullptr, ms}; }
};

/// Queues @p kernel on @p stream (checked) and returns without waiting.
void queue_timed_kernel(const TimedKernel& kernel, cudaStream_t stream);

/// Times @p runs launches of @p kernel with a host timer (lab::HostTimer),
/// calling cudaStreamSynchronize before starting and/or before stopping it as
/// @p sync_case says. Returns one reading per run in milliseconds. Leaves work
/// in flight in the "before only" and "never" cases: the caller synchronises.
std::vector<double> time_with_host_timer(SyncCase sync_case, const TimedKernel& kernel, cudaStream_t stream, int runs);

/// One case of the article's experiment: a kernel of o.backlog_ms and o.warmup
/// launches of @p kernel are queued and left in flight (their GPU time measured
/// with events), then c is poisoned on the stream, then time_with_host_timer()
/// with o.runs readings. Ends synchronised, with c checked when @p kernel is c = a + b.
CaseRun run_case(SyncCase sync_case, const TimedKernel& kernel, const Options& o, cudaStream_t stream);

/// Sections 1 and 2: events on a held stream around the kernel (no launch gap,
/// but the events' own cost: chapter 03, section 6), then run_case() for each SyncCase.
HostTimerRun compare_host_timers(const TimedKernel& kernel, const Options& o, cudaStream_t stream);

// --- Section 3: which calls wait for queued work, and on what condition -------

/// Section 3's probe (implicit_sync.cuh) as built in implicit_sync_per_thread.cu,
/// with `--default-stream per-thread`: there stream 0 (and cudaMemcpy's
/// implicit stream) is the calling thread's own default stream. It queues
/// @p queued_ms of spinning and then @p problem's c = a + b on @p work_stream,
/// makes @p call and times how long it takes to return, asks whether the work
/// had finished by then, and (after synchronising) checks what the call read
/// of c against the CPU. sync_pitfalls.cu calls the same probe, built the
/// default way (stream 0 = the legacy default stream), for setups (a) and (b).
CallProbe probe_host_call_per_thread(HostCall call, WorkSetup setup, ch01::AddProblem& problem,
                                     cudaStream_t work_stream, double queued_ms);

/// Section 3: every HostCall in every WorkSetup, each with the probe built the
/// way the setup says, once with @p queued_ms of spinning queued before the
/// call and once with none (CallProbe::alone_ms). With `--timeline` or
/// `--trace`, @p timeline records one more cudaMemcpy probe in each setup.
ImplicitSyncRun probe_host_calls(ch01::AddProblem& problem, double queued_ms, lab::TimelineSession& timeline);

// --- Section 4: where the CPU work goes ---------------------------------------

/// Queues @p gpu_ms of spinning and then @p problem's kernel on @p stream, and
/// does @p cpu_ms of CPU work either before reading the result (the two
/// overlap) or after (the read waits for the GPU first, so the times add up).
/// The result is read the same way in both: cudaMemcpyAsync on @p stream,
/// then cudaStreamSynchronize.
Placement compare_cpu_work_placement(ch01::AddProblem& problem, double gpu_ms, double cpu_ms, cudaStream_t stream);

}  // namespace ch02
