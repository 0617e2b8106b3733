/// @file timers.cuh
/// @brief The two stopwatches: a host timer, and a pair of CUDA events (chapters 02 and 03).
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <exception>
#include <utility>

#include "stream.cuh"

namespace lab {

/// Wall-clock time on the host; around GPU work it means something only after a
/// synchronisation (chapter 02).
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

/// A GPU stopwatch: two events on one stream, timing everything queued between
/// them, idle gaps included.
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
  /// Records start on construction and stop on destruction (an error then is
  /// thrown by elapsed_ms()).
  class Scope {
   public:
    explicit Scope(EventTimer& timer) : timer_(timer) { timer_.start(); }  ///< records the start event
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
  void start() { start_.record(stream_); }  ///< records the start event on the stream
  void stop() { stop_.record(stream_); }    ///< records the stop event on the stream
  Scope scope() { return Scope(*this); }    ///< start now, stop when the scope ends
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

}  // namespace lab
