/// @file stream_blocker.cuh
/// @brief Holding a stream until a whole sample is queued (nvbench's blocking kernel).
#pragma once

#include <cuda_runtime.h>

#include "memory.cuh"

namespace lab {

/// Holds a stream with a one-thread kernel that spins until the host releases
/// it, so a whole sample is queued first and then runs with no launch gap:
///
/// @code
///   lab::StreamBlocker blocker;
///   blocker.block(stream);            // the stream now waits for release()
///   cudaEventRecord(start, stream); kernel<<<g, b, 0, stream>>>(...); cudaEventRecord(stop, stream);
///   blocker.release();                // everything above runs without gaps
/// @endcode
///
/// The kernel gives up after a timeout (timed_out()): a profiler that serialises
/// kernels runs it before the host can release it. Run the work once before
/// blocking: lazy module loading would wait for the held GPU (nvbench issue #136).
class StreamBlocker {
 public:
  /// @param timeout_ms how long the holding kernel waits before giving up
  explicit StreamBlocker(double timeout_ms = 5000.0);
  /// Releases a stream still held, and waits for it, so nothing hangs.
  ~StreamBlocker();
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;

  /// Queues the holding kernel on @p stream. Throws std::logic_error if a
  /// stream is already held by this blocker.
  void block(cudaStream_t stream);
  /// Lets the held stream go on.
  void release();
  /// Did the holding kernel give up before release()? Ask after the stream passed it.
  bool timed_out() const;

 private:
  PinnedBuffer<int> flags_;  // [0] released, [1] timed out; read by the kernel through unified addressing
  unsigned long long timeout_ns_;
  cudaStream_t held_ = nullptr;
  bool holding_ = false;
};

}  // namespace lab
