/// @file sample_statistics.hpp
/// @brief Looking at many timing samples at once: a histogram, outliers, and
/// how precisely their median is known (a bootstrap interval). Plain C++,
/// tested on the CPU with fixed data; lab::summarize (common/lesson/statistics.hpp)
/// gives the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ch07 {

/// Counts of samples in equal-width bins from the smallest to the largest sample.
struct Histogram {
  double low = 0;           ///< left edge of the first bin (the smallest sample)
  double width = 0;         ///< width of every bin; 0 when all samples are equal (one bin)
  std::vector<int> counts;  ///< samples per bin; bin i holds [low + i*width, low + (i+1)*width), the last bin is closed
};

/// Sorts @p samples into @p bins bins (at least 1). Throws std::invalid_argument when empty.
Histogram histogram(const std::vector<double>& samples, int bins);

/// Samples outside Tukey's fences: below q1 - 1.5 IQR or above q3 + 1.5 IQR.
struct Outliers {
  double low_fence = 0;   ///< q1 - 1.5 x (q3 - q1)
  double high_fence = 0;  ///< q3 + 1.5 x (q3 - q1)
  std::size_t below = 0;  ///< samples under the low fence
  std::size_t above = 0;  ///< samples over the high fence (on a GPU: interruptions, clock dips)
};

/// Tukey's outliers of @p samples. Throws std::invalid_argument when empty.
Outliers tukey_outliers(const std::vector<double>& samples);

/// A percentile-bootstrap confidence interval of the median.
struct MedianInterval {
  std::size_t count = 0;  ///< samples it was computed from
  double median = 0;      ///< their median
  double low = 0;         ///< lower end of the interval
  double high = 0;        ///< upper end
  /// high - low as a percentage of the median (0 when the median is 0).
  double width_percent() const { return median != 0 ? 100.0 * (high - low) / median : 0.0; }
};

/// The @p confidence (e.g. 0.95) percentile-bootstrap interval of the median of
/// @p samples: @p resamples times, draw samples.size() samples with replacement
/// (a fixed-seed std::mt19937_64 from @p seed, so the result repeats) and take
/// their median; the interval holds the middle @p confidence of those medians.
/// Throws std::invalid_argument when @p samples is empty or @p resamples < 1.
MedianInterval bootstrap_median_interval(const std::vector<double>& samples, double confidence = 0.95,
                                         int resamples = 2000, std::uint64_t seed = 7);

/// The sample counts at which precision_table() shows the interval: 5, 10, 20,
/// 50, 100, 200, ... below @p total, then @p total (none when it is under 5).
std::vector<std::size_t> precision_counts(std::size_t total);
/// bootstrap_median_interval() of the first @p n of @p samples.
MedianInterval first_n_interval(const std::vector<double>& samples, std::size_t n);

}  // namespace ch07
