/// @file blocked_samples.cuh
/// @brief Exercise 03b: time a kernel of a few microseconds without the launch gap.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace exercise03b {

/// Times @p samples runs of @p work (a kernel of a few microseconds) on
/// @p stream with an event pair each, the host waiting for every sample. Each
/// sample is queued whole (start event, work, stop event) while a
/// lab::StreamBlocker holds the stream, and only then released, so the GPU
/// meets the three back to back and the launch gap is not inside the events.
/// @p work queues on the stream it is given and never synchronises. Returns
/// the samples in ms.
std::vector<double> time_without_launch_gap(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                                            int samples);

}  // namespace exercise03b
