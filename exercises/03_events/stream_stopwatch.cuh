/// @file stream_stopwatch.cuh
/// @brief Exercise 03: an event timer for the work queued on one stream.
#pragma once

#include <cuda_runtime.h>

#include "stream.cuh"

namespace exercise03 {

/// Times the work queued on one stream between start() and stop(), with a
/// pair of CUDA events: the C++ counterpart of the Numba tutorial's `CUDATimer`.
class StreamStopwatch {
 public:
  /// A stopwatch for work queued on @p stream.
  explicit StreamStopwatch(cudaStream_t stream) : stream_(stream) {}
  /// Marks the start: work queued on the stream after this call is timed.
  void start();
  /// Marks the stop: work queued on the stream before this call is timed.
  void stop();
  /// Milliseconds between the two marks, once the GPU has reached the stop mark.
  float elapsed_ms();

 private:
  cudaStream_t stream_;
  lab::Event start_;
  lab::Event stop_;
};

}  // namespace exercise03
