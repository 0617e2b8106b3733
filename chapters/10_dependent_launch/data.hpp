/// @file data.hpp
/// @brief What chapter 10's experiments return (dependent_chain.cuh,
/// decide.cuh, graph_timing.cuh, capture_rules.cuh, queue_scale.cuh): plain
/// structs, one group per section. checks.hpp judges them, tables.hpp prints them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "verify.hpp"

namespace ch10 {

// --- 1 and 2. PDL in a stream and in a graph ---------------------------------

/// What one block of one chain kernel wrote: three readings of %globaltimer (ns).
struct BlockStamps {
  unsigned long long start_ns = 0;   ///< the block's first instruction
  unsigned long long waited_ns = 0;  ///< after cudaGridDependencySynchronize() (the preamble before it)
  unsigned long long end_ns = 0;     ///< after its last store
};

/// One way of running the K-kernel chain: its samples, its stamps, its results.
struct ChainVariant {
  std::string name;                   ///< "plain", "pdl", "pdl_early_trigger", "graph_plain", ...
  std::vector<double> per_kernel_us;  ///< events around the K kernels (or the graph launch) / K, one per sample
  std::vector<BlockStamps> stamps;    ///< the last sample's, kernel-major: stamps[k * blocks + block]
  int edges = -1;                     ///< graphs: edges of the graph (cudaGraphGetEdges); -1: not a graph
  int programmatic_edges = -1;        ///< graphs: programmatic ones, type and port (count_edges)
  int results_checked = 0;            ///< samples whose result was compared with the CPU
  std::size_t mismatches = 0;         ///< wrong elements over all of them
  std::string wrong;                  ///< the first wrong result ("" when all were right)
};

/// Sections 1 and 2: the chain in a stream, or as graphs; skipped below compute capability 9.0.
struct ChainRun {
  bool skipped = false;                ///< not run (the GPU has no programmatic dependent launch)
  std::string skip_reason;             ///< why
  std::int64_t n = 0;                  ///< floats per buffer
  int kernels = 0;                     ///< K
  int blocks = 0;                      ///< blocks per kernel (as many as SMs)
  double preamble_us = 0;              ///< each kernel's work before its wait
  bool held = true;                    ///< the stream was held while the K launches were queued (section 1)
  std::vector<ChainVariant> variants;  ///< in the order run
};

/// One kernel pair of the misuse demonstration: a primary that writes late, a PDL secondary.
struct MisuseCase {
  std::string name;  ///< "read_before_wait", "never_waits", "read_after_wait"; "_held" after: behind a held stream
  lab::Comparison result;  ///< the secondary's output against the CPU
  double lead_us = 0;  ///< the latest primary block's store start less the secondary's first block start (> 0: before)
};

/// Section 1's misuse and its fix; skipped below 9.0 and under --instrumented.
struct MisuseRun {
  bool skipped = false;           ///< not run
  std::string skip_reason;        ///< why
  double delay_us = 0;            ///< how long the primary waits, after its trigger, before it writes
  std::vector<MisuseCase> cases;  ///< read_before_wait, never_waits, read_after_wait, then the three _held
  std::string held_why_not;       ///< why the _held cases are missing ("" when they ran)
};

// --- 3. A graph that decides ---------------------------------------------------

/// One way of controlling the Jacobi solve: the same two kernels, another control.
struct JacobiWay {
  std::string name;                      ///< "host_loop", "graph_per_step" or "while_node"
  std::vector<double> total_ms;          ///< host time of each timed solve, first call to the end of the last wait
  std::vector<double> host_call_ms;      ///< per solve: time inside CUDA calls, the final wait left out
  std::vector<std::int64_t> iterations;  ///< sweeps of each solve (timed ones and the CUPTI one)
  std::int64_t host_calls = 0;           ///< CUDA calls the host made for one solve
  std::vector<double> cupti_kernel_us;   ///< CUPTI: both kernels' durations summed, per sweep; empty when missing
  std::string cupti_missing;             ///< why cupti_kernel_us is empty
  int results_checked = 0;               ///< solves compared with the CPU, bit for bit
  std::string wrong;                     ///< the first wrong result ("" when every one was right)
};

/// The Jacobi solve three ways.
struct JacobiRun {
  std::int64_t n = 0;               ///< unknowns
  double tolerance = 0;             ///< stop when no unknown moved more than this in a sweep
  std::int64_t max_iterations = 0;  ///< or after this many sweeps
  std::int64_t cpu_iterations = 0;  ///< sweeps the CPU reference made
  std::vector<JacobiWay> ways;      ///< host_loop, graph_per_step, while_node
};

// --- 4. Timing inside a graph --------------------------------------------------

/// One kernel node timed inside a replayed graph, four ways.
struct GraphTimingRun {
  std::int64_t n = 0;  ///< floats per buffer
  std::string
      external_returned;  ///< cudaEventElapsedTime on the pair around the node (first failure, else cudaSuccess)
  std::vector<double> external_us;  ///< external event pair around the node, per replay
  std::vector<double> floor_us;     ///< external event pair around nothing, per replay
  std::string floor_returned;       ///< cudaEventElapsedTime on the floor pair (first failure, else cudaSuccess)
  std::vector<double> cupti_us;     ///< CUPTI's duration of the node, per replay; empty when missing
  std::string cupti_missing;        ///< why cupti_us is empty
  std::string default_returned;     ///< cudaEventElapsedTime on the pair recorded without the flag
  std::vector<double> default_us;   ///< what it gave, when it returned cudaSuccess
  int results_checked = 0;          ///< replays compared with the CPU
  std::string wrong;                ///< the first wrong result
};

// --- 5. What stream capture forbids --------------------------------------------

/// One call made while a stream captured, as ch10_capture_child reported it.
struct CaptureProbe {
  std::string mode;          ///< "global", "thread_local", "relaxed", or "none" (the call needs no capture)
  std::string call;          ///< e.g. "malloc" (capture_call_names() lists them)
  bool measured = false;     ///< false: the child did not run, or did not report
  std::string why_not;       ///< why not measured
  std::string returned;      ///< cudaGetErrorName of what the call returned
  std::string status_after;  ///< cudaStreamIsCapturing after it: "active", "invalidated", "none" (or its error)
  std::string end_capture;   ///< cudaGetErrorName of cudaStreamEndCapture; "-" when nothing was captured
  bool graph_null = false;   ///< cudaStreamEndCapture gave a NULL graph
  std::string context;  ///< "cudaSuccess" when a kernel, a copy and a sync after it all worked; else the first error
};

/// Every (mode, call) child, in order, or why they were skipped.
struct CaptureRun {
  bool skipped = false;              ///< not run (an instrumented run)
  std::string skip_reason;           ///< why
  std::vector<CaptureProbe> probes;  ///< one per child
};

// --- 6. The launch queue's depth -----------------------------------------------

/// One ch10_queue_child run: chapter 08's fill_launch_queue under one CUDA_SCALE_LAUNCH_QUEUES value.
struct QueueScaleProbe {
  std::string value;               ///< the value set ("": the variable removed, the driver's default)
  bool measured = false;           ///< false: the child did not run, or did not report
  std::string why_not;             ///< why not measured
  std::string seen;                ///< what the child read from its environment ("": unset)
  std::int64_t launches = 0;       ///< the most launches it queued into the held stream
  std::int64_t depth = -1;         ///< launches that returned before the first call that waited; -1: none waited
  double median_call_us = 0;       ///< median launch call before that one
  double blocked_call_ms = 0;      ///< how long the waiting call took (the holding kernel's release ends it)
  bool holding_timed_out = false;  ///< the holding kernel gave up before it was released (depth not valid)
};

/// Every value's child, in order (the unset one first), or why they were skipped.
struct QueueScaleRun {
  bool skipped = false;                 ///< not run (an instrumented run)
  std::string skip_reason;              ///< why
  std::vector<QueueScaleProbe> probes;  ///< one per value
};

}  // namespace ch10
