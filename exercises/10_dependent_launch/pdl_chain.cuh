/// @file pdl_chain.cuh
/// @brief Exercise 10: launch a dependent kernel with programmatic dependent launch (PDL).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace exercise10 {

/// Queues out[i] = in[i] + b[i] for the @p n elements on @p stream, one thread
/// per element, where @p in is the output of the kernel queued on @p stream
/// just before. The launch lets the kernel start before that one has finished
/// (programmatic dependent launch, compute capability 9.0), and the kernel
/// reads @p in only once cudaGridDependencySynchronize() says it is there.
void launch_dependent(const float* in, const float* b, float* out, std::int64_t n, cudaStream_t stream);

}  // namespace exercise10
