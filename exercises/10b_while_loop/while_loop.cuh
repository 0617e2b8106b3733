/// @file while_loop.cuh
/// @brief Exercise 10b: a Jacobi solve that loops on the device, in one graph launch.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "decide.cuh"
#include "launch_graphs.cuh"

namespace exercise10b {

/// What solve_in_one_launch did: the graph it built and launched, and how often it launched it.
struct Solve {
  ch08::Graph graph;                ///< the graph (the check looks at its nodes)
  std::int64_t graph_launches = 0;  ///< cudaGraphLaunch calls made for the solve
};

/// Solves @p solver's system on @p stream (a non-blocking stream; x0 and x1
/// may hold anything) until the decision kernel says stop, with chapter 10's
/// kernels: solver.queue_start, solver.queue_sweep and solver.queue_decide.
/// Returns with the stream idle, the solution in the solver's buffers.
Solve solve_in_one_launch(ch10::JacobiSolver& solver, cudaStream_t stream);

}  // namespace exercise10b
