/// @file data.hpp
/// @brief Chapter 08's data: what launch_graphs.cuh returns, one struct per
/// section. tables.hpp prints it, checks.hpp judges it; tests/ch08_checks_test.cpp
/// tests both on hand-made data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "verify.hpp"

namespace ch08 {

// --- 1. What a launch costs ----------------------------------------------------

/// An empty kernel's launch, measured three ways, beside its own duration.
struct LaunchCostRun {
  std::vector<double> launch_call_us;   ///< host time of one launch call (`empty<<<1, 1, 0, stream>>>()`)
  int back_to_back_kernels = 0;         ///< kernels queued behind a held stream per sample
  std::vector<double> back_to_back_us;  ///< events around those kernels, divided by their number: the GPU's pace
  std::vector<double> round_trip_us;    ///< host time of a launch and the cudaStreamSynchronize after it
  std::vector<double> cupti_kernel_us;  ///< CUPTI's duration of each back-to-back kernel; empty when not recorded
  std::string cupti_missing;            ///< why cupti_kernel_us is empty ("" when it is not)
};

// --- 2. The launch queue -------------------------------------------------------

/// Empty kernels launched one after the other into a held stream, each call timed.
struct QueueFillRun {
  double stall_ms = 0;             ///< a call in progress this long counts as blocked: the stream is released then
  std::vector<double> call_us;     ///< host time of each launch call, in order
  std::int64_t stalled_call = -1;  ///< index of the call blocked when the stream was released; -1: none
  bool holding_kernel_timed_out = false;  ///< the holding kernel gave up before it was released (results not valid)
};

/// One way of queueing spin kernels on a free stream, with CPU work placed after the launches.
struct PaceCase {
  std::int64_t launches = 0;  ///< kernels queued
  double launch_loop_ms = 0;  ///< a host timer around the launch loop alone (chapter 02's timer without a sync)
  double cpu_work_ms = 0;     ///< the CPU work placed after the loop (planned: as long as the GPU's work)
  double wait_ms = 0;         ///< the wait for the GPU after the CPU work
  double total_ms = 0;        ///< first launch to the end of the wait
  double gpu_ms = 0;          ///< events around all the kernels
};

/// Below the queue's depth and past it.
struct QueuePaceRun {
  double kernel_us = 0;  ///< each spin kernel's length
  PaceCase below;        ///< few launches: every call returns at once
  PaceCase past;         ///< --queue-launches: past the depth when the queue has one that small
};

// --- 3. CUDA graphs ------------------------------------------------------------

/// K dependent additions (c = a + b, then c = c + b, ...) as stream launches and as one graph.
struct GraphSize {
  int kernels = 0;                     ///< K
  std::vector<double> capture_us;      ///< cudaStreamBeginCapture ... cudaStreamEndCapture, host time
  std::vector<double> instantiate_us;  ///< cudaGraphInstantiate, host time
  std::vector<double> stream_us;       ///< K launches and a sync, host time
  std::vector<double> graph_us;        ///< one cudaGraphLaunch and a sync, host time
  std::vector<double> stream_gpu_us;   ///< events around the K launches
  std::vector<double> graph_gpu_us;    ///< events around the graph launch
  int results_checked = 0;             ///< results compared with the CPU (one after every sample of either kind)
  std::string wrong;                   ///< the first wrong result ("" when all were right)
};

/// Updating an instantiated graph against instantiating the new one.
struct GraphUpdateRun {
  int kernels = 0;                     ///< K of the graph updated
  std::vector<double> recapture_us;    ///< capturing the same K launches on other arrays
  std::vector<double> update_us;       ///< cudaGraphExecUpdate of the executable graph with it
  std::vector<double> instantiate_us;  ///< cudaGraphInstantiate of it instead
  std::string update_failure;          ///< cudaGraphExecUpdate's result when it refused ("" when every update worked)
  int results_checked = 0;             ///< replays of the updated graph checked against the CPU
  std::string wrong;                   ///< the first wrong result
};

/// Every K, and the update.
struct GraphRun {
  std::int64_t n = 0;            ///< floats per vector
  std::vector<GraphSize> sizes;  ///< K ascending
  GraphUpdateRun update;         ///< at the largest K
};

// --- 4. Timing microsecond kernels honestly -------------------------------------

/// The same small kernel timed four ways.
struct HonestTimingRun {
  std::int64_t n = 0;                 ///< floats per vector of chapter 01's c = a + b
  int graph_kernels = 0;              ///< K launches unrolled in the timed graph
  std::vector<double> event_pair_us;  ///< an event pair around each launch, the host waiting after each
  std::vector<double> blocked_us;     ///< an event pair queued behind a held stream (chapter 03)
  std::vector<double> graph_us;  ///< events around a graph of K launches, divided by K (triton's do_bench_cudagraph)
  std::vector<double> cupti_us;  ///< CUPTI's duration of every timed launch; empty when not recorded
  std::string cupti_missing;     ///< why cupti_us is empty
  std::vector<lab::Comparison> results;  ///< c after each method's loop, in the order above
};
/// The names of HonestTimingRun's three timed methods, in the order of its fields.
constexpr const char* kMethodNames[] = {"event pair per launch", "blocked stream (chapter 03)",
                                        "graph of K launches, events / K"};

// --- 5. Kernel errors arrive later ----------------------------------------------

/// What ch08_fault_child reported: one run of a kernel that stores outside every allocation.
struct FaultReport {
  bool measured = false;         ///< false: the child did not run, or did not report
  std::string why_not;           ///< why not measured
  bool launch_blocking = false;  ///< CUDA_LAUNCH_BLOCKING=1 was set for the child
  std::string launch_error;      ///< cudaGetLastError right after the faulting launch
  std::string sync_error;        ///< cudaDeviceSynchronize after it
  std::string later_last_error;  ///< cudaGetLastError after the synchronisation
  std::string later_malloc;      ///< cudaMalloc after it
  std::string later_kernel;      ///< a correct kernel launched and synchronised after it
  double launch_call_us = 0;     ///< median host time of a correct empty kernel's launch call, before the fault
};

/// Both runs of the child, or why they were skipped.
struct FaultRun {
  std::string skip_reason;  ///< why both runs were skipped (an instrumented run: compute-sanitizer would report the
                            ///< fault as an error); "" when they ran
  FaultReport normal;       ///< CUDA_LAUNCH_BLOCKING=0
  FaultReport blocking;     ///< CUDA_LAUNCH_BLOCKING=1
};

}  // namespace ch08
