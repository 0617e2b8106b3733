/// @file timing.cuh
/// @brief Host and GPU stopwatches, and the one measuring routine every chapter uses.
///
/// The measuring routine follows the house rules (docs/measuring.md): warm up,
/// take many samples with CUDA events, optionally flush the L2 cache before
/// each sample, and return every sample so the caller can summarise them.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

#include "memory.cuh"
#include "stream.cuh"

namespace lab {

/// Wall-clock time on the host (std::chrono::steady_clock). Around GPU work it
/// only means something after a synchronisation: see chapter 02.
class HostTimer {
 public:
  HostTimer() { restart(); }
  /// Starts counting from now.
  void restart() { start_ = std::chrono::steady_clock::now(); }
  /// Milliseconds since construction or the last restart().
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// A GPU stopwatch: two events on one stream. The time is what the GPU took
/// between reaching the start event and reaching the stop event; everything
/// queued on the stream in between counts, including idle gaps.
///
/// @code
///   lab::EventTimer timer(stream);
///   {
///     auto scope = timer.scope();  // records start now, stop at the closing brace
///     kernel<<<grid, block, 0, stream>>>(...);
///   }
///   float ms = timer.elapsed_ms();  // waits for the stop event
/// @endcode
class EventTimer {
 public:
  /// Records start on construction and stop on destruction.
  class Scope {
   public:
    /// Records the timer's start event.
    explicit Scope(EventTimer& timer) : timer_(timer) { timer_.start(); }
    /// Records the timer's stop event; an error is kept for elapsed_ms().
    ~Scope() {
      try {
        timer_.stop();
      } catch (...) {
        timer_.error_ = std::current_exception();
      }
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    EventTimer& timer_;
  };

  /// A timer for work queued on @p stream.
  explicit EventTimer(cudaStream_t stream = nullptr) : stream_(stream) {}
  /// Records the start event on the stream.
  void start() { start_.record(stream_); }
  /// Records the stop event on the stream.
  void stop() { stop_.record(stream_); }
  /// Start now, stop when the returned scope ends.
  Scope scope() { return Scope(*this); }
  /// Waits for the stop event and returns the milliseconds between the events.
  float elapsed_ms() {
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    stop_.synchronize();
    return Event::elapsed_ms(start_, stop_);
  }

 private:
  cudaStream_t stream_;
  Event start_;
  Event stop_;
  std::exception_ptr error_;
};

/// Evicts the L2 cache: writes a buffer twice the L2's size (read from
/// cudaDevAttrL2CacheSize) so that no line of earlier data survives, after
/// resetting lines marked persisting, which a plain flush would not evict.
class L2Flusher {
 public:
  /// Allocates the flush buffer for the current device.
  L2Flusher();
  /// Queues the flush on @p stream.
  void flush(cudaStream_t stream);
  /// Size of the flush buffer in bytes.
  std::size_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer<unsigned char> buffer_;
};

/// How lab::measure_ms() samples.
struct MeasureConfig {
  int warmup = 3;         ///< runs before the first sample (module loading, clocks, caches, allocations)
  int samples = 20;       ///< timed runs
  bool flush_l2 = false;  ///< flush the L2 before every sample ("cold" cache); otherwise "warm"
};

/// Runs @p work warm-up times, then times each of @p config.samples runs with
/// an event pair on @p stream, and returns the samples in milliseconds.
///
/// All samples are queued before the host waits, so the GPU runs them back to
/// back; @p work must queue its GPU work on the stream it is given and must not
/// synchronise. The L2 flush, when asked for, runs before each start event and
/// is not timed.
std::vector<double> measure_ms(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                               const MeasureConfig& config = {});

}  // namespace lab
