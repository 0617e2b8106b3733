/// @file data.hpp
/// @brief Chapter 02's data: the plain structs sync_pitfalls.cuh fills on the GPU, and the
/// cases, calls and setups they name. The checks that judge them are in checks.hpp, the
/// tables that print them in tables.hpp. What the CUDA documentation says of each call, and
/// why the calls behave as they do, is on the chapter page (README.md), with its sources.
#pragma once

#include <string>
#include <vector>

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
/// The cases' names, in SyncCase order.
constexpr const char* kCaseNames[] = {"sync before and after", "sync before only", "sync after only", "no sync"};

/// e.g. "sync before and after"
inline const char* case_name(SyncCase c) { return kCaseNames[static_cast<int>(c)]; }
/// Does the case synchronise before starting the timer?
inline bool syncs_before(SyncCase c) { return c == SyncCase::before_and_after || c == SyncCase::before_only; }
/// Does it synchronise before stopping the timer?
inline bool syncs_after(SyncCase c) { return c == SyncCase::before_and_after || c == SyncCase::after_only; }

/// One case: the host-timer readings and what was in flight when the first began.
struct CaseRun {
  SyncCase sync_case = SyncCase::before_and_after;  ///< which case
  std::vector<double> samples_ms;                   ///< one host-timer reading per run, first run first
  double backlog_ms = 0;   ///< GPU time of the work left in flight when the first timer started (events)
  lab::Comparison result;  ///< the kernel's output after the case, against the CPU (count 0: not checked)
};

/// The four cases around one kernel.
struct HostTimerRun {
  std::string id;                 ///< "add" (section 1) or "long_kernel" (section 2): names its table and checks
  std::string kernel;             ///< what was timed, e.g. "c = a + b (1048576 floats)"
  int runs = 0;                   ///< host-timer readings per case
  int warmup = 0;                 ///< launches of the kernel left in flight before each case
  double backlog_kernel_ms = 0;   ///< the spin kernel queued before those launches
  std::vector<double> kernel_ms;  ///< event samples on a held stream (no launch gap, but the events' cost)
  std::vector<CaseRun> cases;     ///< one per SyncCase, in kAllCases order
};

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
/// The calls' names, in HostCall order.
constexpr const char* kCallNames[] = {"kernel<<<..., 0>>> copying c",
                                      "cudaMemcpyAsync to pinned, 0",
                                      "cudaMemcpyAsync to pageable, 0",
                                      "cudaMemcpy to pageable",
                                      "cudaMalloc 1 MiB",
                                      "cudaFree 1 MiB",
                                      "c[n-1] on the work's stream + sync"};

/// The call as code, e.g. "cudaMemcpy to pageable"
inline const char* host_call_name(HostCall call) { return kCallNames[static_cast<int>(call)]; }

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
/// The setups' labels, in WorkSetup order.
constexpr const char* kSetupLabels[] = {"(a)", "(b)", "(c)", "(d)"};

/// "(a)" ... "(d)"
inline const char* setup_label(WorkSetup setup) { return kSetupLabels[static_cast<int>(setup)]; }
/// Are the calls made from the --default-stream per-thread file?
inline bool built_per_thread(WorkSetup s) {
  return s == WorkSetup::per_thread_blocking_stream || s == WorkSetup::per_thread_legacy_stream;
}

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

/// Every call in every setup.
struct ImplicitSyncRun {
  double queued_ms = 0;           ///< the spin kernel queued before c = a + b, ahead of each call
  std::vector<CallProbe> probes;  ///< setup by setup, each in kAllHostCalls order
};

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

}  // namespace ch02
