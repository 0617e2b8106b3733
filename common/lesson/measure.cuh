/// @file measure.cuh
/// @brief The one measuring routine: warm up, then many samples timed with events (docs/measuring.md).
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace lab {

/// How lab::measure_ms() places its samples on the stream.
enum class SampleMode {
  /// All samples are queued, then the host waits once: they run back to back
  /// once the host is ahead. For work that takes longer to run than to launch.
  back_to_back,
  /// The host waits after every sample: each is a lone launch into an idle GPU,
  /// and a short kernel's events include the launch gap (chapter 03).
  isolated,
  /// Like isolated, but a lab::StreamBlocker holds the stream until the whole
  /// sample is queued: no launch gap inside the events (nvbench's method).
  blocked_stream
};

/// How lab::measure_ms() samples.
struct MeasureConfig {
  int warmup = 3;                              ///< runs before the first sample (module loading, clocks, caches)
  int samples = 20;                            ///< timed runs
  bool flush_l2 = false;                       ///< flush the L2 before every sample ("cold"); otherwise "warm"
  SampleMode mode = SampleMode::back_to_back;  ///< how samples reach the GPU
};

/// Runs @p work warm-up times, then times each of @p config.samples runs with an
/// event pair on @p stream; returns the samples in ms. @p work queues on the
/// stream it is given and must not synchronise (a blocked stream would wait for
/// the blocker's timeout: std::runtime_error).
std::vector<double> measure_ms(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                               const MeasureConfig& config = {});

}  // namespace lab
