/// @file urgent_stream.cuh
/// @brief Exercise 11: a stream for urgent work, at the greatest priority the device offers.
#pragma once

#include <cuda_runtime.h>

namespace exercise11 {

/// Creates a non-blocking stream (cudaStreamNonBlocking) of the greatest
/// priority the current device offers (cudaDeviceGetStreamPriorityRange), for
/// a small kernel that must start soon while other streams keep the GPU full.
/// The caller destroys it with cudaStreamDestroy.
cudaStream_t create_urgent_stream();

}  // namespace exercise11
