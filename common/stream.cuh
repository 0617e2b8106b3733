/// @file stream.cuh
/// @brief Owning, move-only CUDA streams and events.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "check.cuh"
#include "memory.cuh"

namespace lab {

/// A CUDA stream (cudaStreamCreateWithFlags / cudaStreamDestroy). Converts to
/// cudaStream_t, so it goes straight into a launch: `kernel<<<g, b, 0, stream>>>`.
class Stream {
 public:
  /// @param flags cudaStreamDefault (synchronises with the legacy default
  ///              stream) or cudaStreamNonBlocking (does not)
  explicit Stream(unsigned flags = cudaStreamDefault) { LAB_CHECK(cudaStreamCreateWithFlags(&stream_, flags)); }
  ~Stream() { release(); }
  /// Takes over what @p other owns; @p other is left empty.
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  /// Releases what this owns, then takes over what @p other owns.
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      release();
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const { return stream_; }       ///< the raw handle
  operator cudaStream_t() const { return stream_; }  ///< the raw handle, implicitly
  /// Blocks the host until all work queued on this stream has finished.
  void synchronize() const { LAB_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  void release() noexcept {
    if (stream_ != nullptr) detail::report_release_failure(cudaStreamDestroy(stream_), "cudaStreamDestroy");
    stream_ = nullptr;
  }
  cudaStream_t stream_ = nullptr;
};

/// A CUDA event (cudaEventCreateWithFlags / cudaEventDestroy): a marker in a
/// stream that the GPU timestamps when it reaches it.
class Event {
 public:
  /// @param flags cudaEventDefault, cudaEventDisableTiming (cheaper, for
  ///              ordering only) and/or cudaEventBlockingSync (the waiting
  ///              host thread sleeps instead of spinning)
  explicit Event(unsigned flags = cudaEventDefault) { LAB_CHECK(cudaEventCreateWithFlags(&event_, flags)); }
  ~Event() { release(); }
  /// Takes over what @p other owns; @p other is left empty.
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  /// Releases what this owns, then takes over what @p other owns.
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      release();
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const { return event_; }  ///< the raw handle
  /// Queues the event on @p stream; it completes when the stream reaches it.
  void record(cudaStream_t stream = nullptr) { LAB_CHECK(cudaEventRecord(event_, stream)); }
  /// Blocks the host until the event has completed.
  void synchronize() const { LAB_CHECK(cudaEventSynchronize(event_)); }
  /// Has the event completed? Never blocks.
  bool query() const {
    const cudaError_t status = cudaEventQuery(event_);
    if (status == cudaErrorNotReady) return false;
    LAB_CHECK(status);
    return true;
  }
  /// Milliseconds between two completed events (resolution about 0.5 us).
  static float elapsed_ms(const Event& start, const Event& stop) {
    float ms = 0.0f;
    LAB_CHECK(cudaEventElapsedTime(&ms, start.event_, stop.event_));
    return ms;
  }

 private:
  void release() noexcept {
    if (event_ != nullptr) detail::report_release_failure(cudaEventDestroy(event_), "cudaEventDestroy");
    event_ = nullptr;
  }
  cudaEvent_t event_ = nullptr;
};

}  // namespace lab
