/// @file sync_pitfalls.cuh
/// @brief Chapter 02's lesson: what a host timer around asynchronous GPU work
/// really measures, which calls synchronise without saying so, and where to
/// put CPU work so that it overlaps the GPU's.
///
/// The four timing cases follow the PyTorch custom-operator tutorial's timing
/// section (synchronise before and after, only before, only after, never); the
/// CPU-work placement follows the pin_memory / non_blocking article.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vector_add.cuh"

namespace ch02 {

/// Anything that queues GPU work on a stream without waiting for it.
using GpuWork = std::function<void(cudaStream_t)>;

/// Where the host timer's code synchronises with the GPU.
enum class SyncCase {
  before_and_after,  ///< sync; start; launch; sync; stop  (the right way)
  before_only,       ///< sync; start; launch; stop        (times the launch call)
  after_only,        ///< start; launch; sync; stop        (times whatever was queued before, too)
  never              ///< start; launch; stop              (times the launch call, and work piles up)
};

/// The cases in the order the chapter shows them.
constexpr SyncCase kAllCases[] = {SyncCase::before_and_after, SyncCase::before_only, SyncCase::after_only,
                                  SyncCase::never};

/// A short name, e.g. "sync before and after".
const char* case_name(SyncCase sync_case);
/// What the timer contains in this case, e.g. "launch + kernel + sync".
/// @p first_run: the first run after a warm-up left in flight (only "after only" differs).
const char* case_contents(SyncCase sync_case, bool first_run);
/// Does the case synchronise before starting the timer?
bool syncs_before(SyncCase sync_case);
/// Does the case synchronise before stopping the timer?
bool syncs_after(SyncCase sync_case);

/// Times @p runs calls of @p work with a host timer (lab::HostTimer),
/// synchronising @p stream before and/or after as @p sync_case says. Returns
/// one sample per run in milliseconds. Leaves queued work in flight in the
/// "before only" and "never" cases: the caller synchronises afterwards.
/// @p on_timer, when given, is called with true right after the timer starts
/// and with false right after it is read (chapter 02 marks the timer on its
/// CUPTI timeline with it).
std::vector<double> time_with_host_timer(SyncCase sync_case, const GpuWork& work, cudaStream_t stream, int runs,
                                         const std::function<void(bool started)>& on_timer = {});

/// One case of the seed experiment.
struct CaseRun {
  std::vector<double> samples_ms;  ///< host-timer samples, first run first
  double backlog_ms = 0;           ///< GPU time of the warm-up left in flight before the first run (events)
};

/// The seed experiment for one case: queue a warm-up and leave it in flight
/// (a kernel of @p backlog_ms, standing for a GPU still busy with earlier work,
/// then @p warmup calls of @p work), then time_with_host_timer(). Ends
/// synchronised, so the next case starts from an idle GPU.
CaseRun run_case(SyncCase sync_case, const GpuWork& work, cudaStream_t stream, int warmup, double backlog_ms,
                 int runs, const std::function<void(bool started)>& on_timer = {});

/// Host calls that may or may not wait for work already queued.
enum class HostCall {
  kernel_launch,             ///< launching another kernel on the stream
  memcpy_async_to_pinned,    ///< cudaMemcpyAsync device-to-host into pinned memory
  memcpy_async_to_pageable,  ///< cudaMemcpyAsync device-to-host into ordinary (pageable) memory
  blocking_memcpy,           ///< cudaMemcpy device-to-host
  malloc_and_free,           ///< a cudaMalloc / cudaFree pair
  read_one_value             ///< copying one result to the host and using it (PyTorch's `.item()`)
};

/// The calls in the order the chapter shows them.
constexpr HostCall kAllHostCalls[] = {HostCall::kernel_launch,   HostCall::memcpy_async_to_pinned,
                                      HostCall::memcpy_async_to_pageable, HostCall::blocking_memcpy,
                                      HostCall::malloc_and_free, HostCall::read_one_value};

/// The call as code, e.g. "cudaMemcpyAsync D2H into pinned memory".
const char* host_call_name(HostCall call);
/// Does the CUDA documentation say this call waits for queued work
/// (Runtime API, "API synchronization behavior")?
bool documented_to_wait(HostCall call);

/// What one host call did with work queued before it.
struct ImplicitSync {
  double queued_ms = 0;          ///< GPU work queued just before the call
  double returned_after_ms = 0;  ///< host time until the call returned
  bool waited = false;           ///< returned after more than half of queued_ms
  lab::Comparison result;        ///< the data the call read (or the kernel wrote), against the CPU
};

/// Queues @p queued_ms of GPU work followed by @p problem's kernel on
/// @p stream, then makes @p call and times how long it takes to return. After
/// synchronising, checks the data the call read (or wrote) against the CPU.
ImplicitSync probe_implicit_sync(HostCall call, ch01::AddProblem& problem, double queued_ms, cudaStream_t stream);

/// One slice of CPU work: a few thousand dependent multiply-adds (microseconds
/// on one core). Returns the iterations done.
std::uint64_t cpu_work_slice();

/// Keeps one CPU core busy with arithmetic for about @p ms of host time and
/// returns how many iterations it did (so the compiler cannot drop the loop).
std::uint64_t do_cpu_work(double ms);

/// The same GPU and CPU work, placed two ways.
struct Placement {
  double gpu_ms = 0;                ///< the GPU work alone (events)
  double cpu_ms = 0;                ///< the CPU work asked for
  double work_then_sync_ms = 0;     ///< wall time: queue GPU work, CPU work, then read the result
  double sync_then_work_ms = 0;     ///< wall time: queue GPU work, read the result, then CPU work
  lab::Comparison work_then_sync;   ///< the result read in the first placement
  lab::Comparison sync_then_work;   ///< the result read in the second placement
};

/// Queues @p gpu_ms of GPU work plus @p problem's kernel, and does @p cpu_ms of
/// CPU work either before reading the result (the GPU and CPU overlap) or
/// after (the blocking cudaMemcpy that reads the result waits first, so their
/// times add up). Both placements read the result with the same blocking copy.
Placement compare_cpu_work_placement(ch01::AddProblem& problem, double gpu_ms, double cpu_ms, cudaStream_t stream);

}  // namespace ch02
