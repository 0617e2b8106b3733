/// @file grid_stride_add.cuh
/// @brief Exercise 01: the interface your kernel is checked through.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace exercise01 {

/// Queues `c[i] = a[i] + b[i]` for every i < n on @p stream, with a grid far
/// smaller than n: only a grid-stride loop reaches every element.
void launch_grid_stride_add(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream);

}  // namespace exercise01
