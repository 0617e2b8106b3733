/// @file findings_graphs.hpp
/// @brief Sections 3 and 4's data (what decide.cuh and graph_timing.cuh return)
/// and the pure functions that turn it into tables and findings. Plain C++:
/// tests/ch10_graphs_findings_test.cpp checks every branch on hand-made data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report.hpp"

namespace ch10 {

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

/// Per way: sweeps, time per sweep, the kernels' share (CUPTI) and the rest, host calls.
lab::ResultTable jacobi_table(const JacobiRun& run);
/// jacobi_identical (bit for bit the CPU's) and while_overhead (besides the kernels, against the host loop).
std::vector<lab::Finding> jacobi_findings(const JacobiRun& run);

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

/// Rows external_pair, external_floor, cupti_node, default_pair.
lab::ResultTable graph_timing_table(const GraphTimingRun& run);
/// graph_timing_correct, external_pair_brackets (the pair contains the node), graph_timing_benchmark.
std::vector<lab::Finding> graph_timing_findings(const GraphTimingRun& run);

}  // namespace ch10
