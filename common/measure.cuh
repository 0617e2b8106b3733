/// @file measure.cuh
/// @brief The one measuring routine: warm up, then many samples timed with events (docs/measuring.md).
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace lab {

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
