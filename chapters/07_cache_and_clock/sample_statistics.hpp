/// @file sample_statistics.hpp
/// @brief Looking at many timing samples at once: a text histogram, outliers,
/// and how many samples a stable median needs. Plain C++, tested on the CPU
/// with fixed data; lab::summarize (common/statistics.hpp) gives the rest.
#pragma once

#include <cstddef>
#include <string>
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

/// The histogram as text: one line per bin, its range in @p unit, a bar of '#'
/// scaled so the fullest bin is @p bar_width long, and the count.
std::string render_histogram(const Histogram& histogram, const std::string& unit, int bar_width = 40);

/// Samples outside Tukey's fences: below q1 - 1.5 IQR or above q3 + 1.5 IQR.
struct Outliers {
  double low_fence = 0;   ///< q1 - 1.5 x (q3 - q1)
  double high_fence = 0;  ///< q3 + 1.5 x (q3 - q1)
  std::size_t below = 0;  ///< samples under the low fence
  std::size_t above = 0;  ///< samples over the high fence (on a GPU: interruptions, clock dips)
};

/// Tukey's outliers of @p samples. Throws std::invalid_argument when empty.
Outliers tukey_outliers(const std::vector<double>& samples);

/// How many consecutive samples give a median within @p tolerance (relative,
/// e.g. 0.01 for 1 %) of the median of all of them: the smallest block size n
/// of 1, 2, 4, 8, ... for which the median of every whole block of n samples
/// (samples [0, n), [n, 2n), ...) lies within the tolerance. Needs at least two
/// blocks, so n <= size / 2. Returns 0 when no such n exists: take more samples.
std::size_t samples_for_stable_median(const std::vector<double>& samples, double tolerance);

/// The in-kernel SM clock over a set of readings, against the nominal clock.
struct ClockVerdict {
  double min_mhz = 0;     ///< lowest reading
  double median_mhz = 0;  ///< median reading
  double max_mhz = 0;     ///< highest reading
  std::size_t below = 0;  ///< readings under fraction x nominal (nvbench discards such samples)
  bool varied = false;    ///< max - min more than 1 % of the median
};

/// Summarises the clock readings @p mhz against @p nominal_mhz; nvbench's rule
/// flags readings below @p fraction = 0.75 of nominal. Throws std::invalid_argument when empty.
ClockVerdict judge_clock(const std::vector<double>& mhz, double nominal_mhz, double fraction = 0.75);

}  // namespace ch07
