/// @file schedule_v2.cuh
/// @brief Exercise 05: write NVIDIA's V2 schedule (async.cu) with the real calls.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "overlap.cuh"

namespace exercise05 {

/// Queues V2 over the data of @p problem split into stream.size() equal chunks
/// (stream.size() divides it), chunk i on @p stream[i]: every chunk's copy in
/// (cudaMemcpyAsync), then every chunk's kernel (ch05::transform of
/// @p iterations steps), then every chunk's copy out (cudaMemcpyAsync).
/// Never waits for the GPU.
void schedule_v2(ch05::OverlapProblem& problem, const std::vector<cudaStream_t>& stream, int iterations);

}  // namespace exercise05
