/// @file statistics.hpp
/// @brief Summary statistics over timing samples. Report the median with min and
/// max or quartiles: clock changes and first-run costs make the mean a poor summary.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace lab {

/// What a set of samples looks like.
struct Summary {
  std::size_t count = 0;  ///< number of samples
  double min = 0;         ///< smallest sample
  double q1 = 0;          ///< first quartile (25th percentile)
  double median = 0;      ///< median (50th percentile)
  double q3 = 0;          ///< third quartile (75th percentile)
  double max = 0;         ///< largest sample
  double mean = 0;        ///< arithmetic mean
  double stddev = 0;      ///< sample standard deviation (n - 1 in the denominator); 0 for one sample
  double cv = 0;          ///< coefficient of variation, stddev / mean; 0 when the mean is 0
};

/// The @p fraction quantile (0..1) of @p samples, interpolated linearly (NumPy's
/// default). Throws std::invalid_argument when empty.
double quantile(std::vector<double> samples, double fraction);

/// The median of @p samples (quantile 0.5). Throws std::invalid_argument when empty.
inline double median(const std::vector<double>& samples) { return quantile(samples, 0.5); }

/// The median of @p samples, or NaN when there are none (a measurement that did
/// not happen reads as "nan" in a table instead of throwing).
inline double median_or_nan(const std::vector<double>& samples) {
  return samples.empty() ? std::numeric_limits<double>::quiet_NaN() : median(samples);
}

/// Bandwidth in GB/s (10^9 bytes per second) of moving @p bytes in @p milliseconds.
inline double gigabytes_per_second(double bytes, double milliseconds) { return bytes / (milliseconds * 1e-3) / 1e9; }

/// The smallest non-zero difference between two of @p samples, differences up to
/// @p noise counting as none: the step a timer's readings come in, seen from the
/// readings (32 ns for events and 0.256 us for CUPTI on the H100 runs); 0 when no two differ.
double smallest_step(std::vector<double> samples, double noise);

/// From the earliest of @p begins to the latest of @p ends, in ms: event times
/// read against a common origin at 0 (the first stream's begin event), so a
/// begin that ran before the origin is negative; 0 when both are empty.
double span_ms(const std::vector<double>& begins, const std::vector<double>& ends);

/// Summarises @p samples. Throws std::invalid_argument when empty or holding a NaN.
Summary summarize(const std::vector<double>& samples);

}  // namespace lab
