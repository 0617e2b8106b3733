/// @file time_peer_copy.cuh
/// @brief Exercise 09b: time a copy from GPU 0 to GPU 1 with events of the right device.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace exercise09b {

/// One copy from GPU 0 to GPU 1, and a stream on each GPU.
struct PeerCopy {
  const float* source = nullptr;    ///< on GPU 0
  float* destination = nullptr;     ///< on GPU 1
  std::size_t bytes = 0;            ///< bytes to copy
  cudaStream_t stream_0 = nullptr;  ///< a stream of GPU 0: the copy is queued on it
  cudaStream_t stream_1 = nullptr;  ///< a stream of GPU 1
};

/// Queues the copy (cudaMemcpyPeerAsync from GPU 0 to GPU 1) on
/// @p copy.stream_0 @p reps times, one after the other, and returns the time of
/// each in ms, read from two events that bracket it on the stream it is queued
/// on. Waits for each copy; leaves GPU 0 current.
std::vector<double> time_peer_copy_ms(const PeerCopy& copy, int reps);

}  // namespace exercise09b
