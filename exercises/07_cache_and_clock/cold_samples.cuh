/// @file cold_samples.cuh
/// @brief Exercise 07: flush the L2 cache before each cold sample.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace exercise07 {

/// Times @p samples runs of @p work on @p stream with an event pair each, the
/// host waiting after every sample. Before each sample, @p flush must run on
/// the same stream, before the start event, so that every sample starts with a
/// cold L2 and the flush itself is not timed. Returns the samples in ms.
std::vector<double> time_cold(const std::function<void(cudaStream_t)>& work,
                              const std::function<void(cudaStream_t)>& flush, cudaStream_t stream, int samples);

}  // namespace exercise07
