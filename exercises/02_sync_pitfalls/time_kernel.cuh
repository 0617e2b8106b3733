/// @file time_kernel.cuh
/// @brief Exercise 02: the interface your timing function is checked through.
#pragma once

#include <cuda_runtime.h>

#include <functional>

namespace exercise02 {

/// Returns how long the GPU work that @p launch queues on @p stream takes, in
/// milliseconds, measured with a host timer (lab::HostTimer): that work only,
/// not work queued on the stream before the call.
double time_kernel_ms(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream);

}  // namespace exercise02
