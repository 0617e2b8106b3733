/// @file add_bandwidth.cuh
/// @brief Exercise 01b: report the bandwidth of chapter 01's `c = a + b` kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>

namespace exercise01b {

/// The bandwidth of @p add, a launch of `c = a + b` on @p n floats per vector,
/// in GB/s (10^9 bytes per second): every byte the kernel moves (a and b read,
/// c written) over its typical time, timed with events on @p stream after a
/// warm-up (the first run of a kernel pays for loading it: it is no sample).
/// @p add queues the kernel on the stream it is given and never synchronises.
double add_bandwidth_gbps(const std::function<void(cudaStream_t)>& add, std::int64_t n, cudaStream_t stream);

}  // namespace exercise01b
