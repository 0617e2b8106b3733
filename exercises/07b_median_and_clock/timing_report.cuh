/// @file timing_report.cuh
/// @brief Exercise 07b: report a timing as its median, its spread and the SM clock it ran at.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>

namespace exercise07b {

/// What a timing should say: how many samples, their median with the spread
/// around it, and the SM clock the GPU ran at (chapter 07: a time means little
/// without the clock).
struct TimingReport {
  std::size_t samples = 0;  ///< how many samples the numbers below summarise
  double median_ms = 0;     ///< the middle sample
  double q1_ms = 0;         ///< first quartile (25th percentile) of the samples
  double q3_ms = 0;         ///< third quartile (75th percentile) of the samples
  double sm_clock_mhz = 0;  ///< the SM clock, measured in a kernel right after the samples, in MHz
};

/// Takes @p samples event-timed samples of @p work on @p stream (after a
/// warm-up) and reports them with the SM clock. @p work queues on the stream it
/// is given and never synchronises.
TimingReport report_timing(const std::function<void(cudaStream_t)>& work, cudaStream_t stream, int samples);

}  // namespace exercise07b
