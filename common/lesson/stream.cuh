/// @file stream.cuh
/// @brief Owning, move-only CUDA streams and events.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "check.cuh"
#include "memory.cuh"

namespace lab {

/// A CUDA stream, move-only; converts to cudaStream_t: `kernel<<<g, b, 0, stream>>>`.
class Stream {
 public:
  /// @param flags cudaStreamDefault (synchronises with the legacy default
  ///              stream) or cudaStreamNonBlocking (does not)
  explicit Stream(unsigned flags = cudaStreamDefault) {
    cudaStream_t stream = nullptr;
    LAB_CHECK(cudaStreamCreateWithFlags(&stream, flags));
    stream_ = Handle(stream);
  }

  cudaStream_t get() const { return stream_.get(); }       ///< the raw handle (nullptr once moved from)
  operator cudaStream_t() const { return stream_.get(); }  ///< the raw handle, implicitly
  /// Blocks the host until all work queued on this stream has finished.
  void synchronize() const { LAB_CHECK(cudaStreamSynchronize(get())); }

 private:
  using Handle = detail::UniqueHandle<cudaStream_t, cudaStreamDestroy>;
  Handle stream_;
};

/// A CUDA event, move-only: a marker the GPU timestamps when its stream reaches it.
class Event {
 public:
  /// @param flags cudaEventDefault, cudaEventDisableTiming (cheaper, for
  ///              ordering only) and/or cudaEventBlockingSync (the waiting
  ///              host thread sleeps instead of spinning)
  explicit Event(unsigned flags = cudaEventDefault) {
    cudaEvent_t event = nullptr;
    LAB_CHECK(cudaEventCreateWithFlags(&event, flags));
    event_ = Handle(event);
  }

  cudaEvent_t get() const { return event_.get(); }  ///< the raw handle (nullptr once moved from)
  /// The raw handle, implicitly, so a lesson writes the call it teaches:
  /// `LAB_CHECK(cudaEventRecord(start, stream))`, as NVIDIA's samples do.
  operator cudaEvent_t() const { return event_.get(); }
  /// Queues the event on @p stream; it completes when the stream reaches it.
  void record(cudaStream_t stream = nullptr) { LAB_CHECK(cudaEventRecord(get(), stream)); }
  /// Blocks the host until the event has completed.
  void synchronize() const { LAB_CHECK(cudaEventSynchronize(get())); }
  /// Has the event completed? Never blocks.
  bool query() const {
    const cudaError_t status = cudaEventQuery(get());
    if (status == cudaErrorNotReady) return false;
    LAB_CHECK(status);
    return true;
  }
  /// Milliseconds between two completed events (documented resolution about
  /// 0.5 us; readings came in 32 ns steps on the H100 runs).
  static float elapsed_ms(const Event& start, const Event& stop) {
    float ms = 0.0f;
    LAB_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return ms;
  }
  /// The same, in microseconds.
  static double elapsed_us(const Event& start, const Event& stop) {
    return static_cast<double>(elapsed_ms(start, stop)) * 1e3;
  }

 private:
  using Handle = detail::UniqueHandle<cudaEvent_t, cudaEventDestroy>;
  Handle event_;
};

}  // namespace lab
