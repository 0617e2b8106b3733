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

/// Evicts the L2 cache: touches a buffer twice the L2's size (read from
/// cudaDevAttrL2CacheSize) so that no line of earlier data survives, after
/// resetting lines marked persisting, which a plain flush would not evict
/// (nvbench issue #458).
class L2Flusher {
 public:
  /// How the buffer is touched.
  enum class Method {
    /// cudaMemsetAsync over the buffer, as nvbench does. Leaves the L2 full of
    /// the buffer's dirty lines, which must be written back to memory before
    /// the next kernel's data can take their place.
    write,
    /// A kernel reads the buffer. Leaves the L2 full of clean lines, which can
    /// be dropped at once: closer to a cold cache after an idle period.
    read
  };

  /// Allocates the flush buffer for the current device.
  explicit L2Flusher(Method method = Method::write);
  /// Queues the flush on @p stream.
  void flush(cudaStream_t stream);
  /// Size of the flush buffer in bytes.
  std::size_t bytes() const { return buffer_.bytes(); }
  /// How this flusher touches its buffer.
  Method method() const { return method_; }

 private:
  DeviceBuffer<unsigned char> buffer_;
  DeviceBuffer<unsigned> sink_;  // the read flush writes here only if its sum is impossible
  Method method_;
};

/// Holds a stream with a one-thread kernel that spins until the host releases
/// it (NVIDIA nvbench's "blocking kernel"). Work queued behind it waits, so a
/// whole sample can be queued first and then reaches the GPU back to back, with
/// no launch gap between the start event and the work:
///
/// @code
///   lab::StreamBlocker blocker;
///   blocker.block(stream);            // the stream now waits for release()
///   start.record(stream); kernel<<<g, b, 0, stream>>>(...); stop.record(stream);
///   blocker.release();                // everything above runs without gaps
/// @endcode
///
/// The kernel gives up after a timeout instead of hanging, and timed_out() says
/// so: a profiler that serialises kernels (Nsight Compute) runs the holding
/// kernel before the host can release it. Kernels queued behind it must
/// already be loaded (lazy module loading would wait for the held GPU: nvbench
/// issue #136), so run the work once before blocking.
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
  /// Did the holding kernel give up before release()? Meaningful once the
  /// stream has passed it (for example after cudaStreamSynchronize).
  bool timed_out() const;

 private:
  PinnedBuffer<int> flags_;  // [0] released, [1] timed out; read by the kernel through unified addressing
  unsigned long long timeout_ns_;
  cudaStream_t held_ = nullptr;
  bool holding_ = false;
};

/// How lab::measure_ms() places its samples on the stream.
enum class SampleMode {
  /// All samples are queued, then the host waits once. Once the host is ahead
  /// of the GPU the samples run back to back; the first ones may still include
  /// the gap between launches. Right for work that takes longer to run than to launch.
  back_to_back,
  /// The host waits after every sample, so each is a lone launch into an idle
  /// GPU, as in an application that synchronises often. A short kernel's events
  /// then include the launch gap (chapter 03, pitfall 2).
  isolated,
  /// Like isolated, but a lab::StreamBlocker holds the stream until the sample
  /// (flush, start event, work, stop event) is queued, then releases it: the
  /// events bracket the work without the launch gap (nvbench's method).
  blocked_stream
};

/// How lab::measure_ms() samples.
struct MeasureConfig {
  int warmup = 3;                             ///< runs before the first sample (module loading, clocks, caches)
  int samples = 20;                           ///< timed runs
  bool flush_l2 = false;                      ///< flush the L2 before every sample ("cold"); otherwise "warm"
  SampleMode mode = SampleMode::back_to_back; ///< how samples reach the GPU
  /// Untimed work queued before every sample's start event (after the flush),
  /// and once in the warm-up, e.g. a spin kernel that keeps the GPU busy so the
  /// sample starts without a launch gap (chapter 07). Must not synchronise.
  std::function<void(cudaStream_t)> before_sample;
};

/// A short name for @p mode, e.g. "blocked stream".
const char* sample_mode_name(SampleMode mode);

/// Runs @p work warm-up times, then times each of @p config.samples runs with
/// an event pair on @p stream, and returns the samples in milliseconds.
///
/// @p work must queue its GPU work on the stream it is given and must not
/// synchronise (in blocked_stream mode a synchronisation inside @p work would
/// wait for the held stream until the blocker's timeout). The L2 flush, when
/// asked for, and then config.before_sample run before each start event and are
/// not timed. Throws
/// std::runtime_error if the blocked stream timed out.
std::vector<double> measure_ms(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                               const MeasureConfig& config = {});

}  // namespace lab
