#include "sample_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "statistics.hpp"

namespace ch07 {

Histogram histogram(const std::vector<double>& samples, int bins) {
  if (samples.empty()) throw std::invalid_argument("histogram: no samples");
  const auto [low, high] = std::minmax_element(samples.begin(), samples.end());
  Histogram h;
  h.low = *low;
  if (*high == *low) {  // every sample equal: one bin holds them all
    h.counts = {static_cast<int>(samples.size())};
    return h;
  }
  const int n = std::max(bins, 1);
  h.width = (*high - *low) / n;
  h.counts.assign(static_cast<std::size_t>(n), 0);
  for (double x : samples) {
    const int bin = std::min(static_cast<int>((x - h.low) / h.width), n - 1);  // the largest sample closes the last bin
    ++h.counts[static_cast<std::size_t>(bin)];
  }
  return h;
}

std::string render_histogram(const Histogram& h, const std::string& unit, int bar_width) {
  const int fullest = *std::max_element(h.counts.begin(), h.counts.end());
  std::string text;
  for (std::size_t i = 0; i < h.counts.size(); ++i) {
    const double from = h.low + static_cast<double>(i) * h.width;
    const int bar = fullest > 0 ? static_cast<int>(std::lround(static_cast<double>(h.counts[i]) * bar_width / fullest)) : 0;
    char line[160];
    std::snprintf(line, sizeof line, "  %10.4f - %10.4f %s |%-*s %d\n", from, from + h.width, unit.c_str(), bar_width,
                  std::string(static_cast<std::size_t>(bar), '#').c_str(), h.counts[i]);
    text += line;
  }
  return text;
}

Outliers tukey_outliers(const std::vector<double>& samples) {
  const lab::Summary s = lab::summarize(samples);
  Outliers o;
  const double iqr = s.q3 - s.q1;
  o.low_fence = s.q1 - 1.5 * iqr;
  o.high_fence = s.q3 + 1.5 * iqr;
  for (double x : samples) {
    if (x < o.low_fence) ++o.below;
    if (x > o.high_fence) ++o.above;
  }
  return o;
}

std::size_t samples_for_stable_median(const std::vector<double>& samples, double tolerance) {
  if (samples.size() < 2) return 0;
  const double overall = lab::summarize(samples).median;
  for (std::size_t n = 1; n <= samples.size() / 2; n *= 2) {
    bool stable = true;
    for (std::size_t begin = 0; stable && begin + n <= samples.size(); begin += n) {
      const std::vector<double> block(samples.begin() + static_cast<std::ptrdiff_t>(begin),
                                      samples.begin() + static_cast<std::ptrdiff_t>(begin + n));
      stable = std::fabs(lab::summarize(block).median - overall) <= tolerance * std::fabs(overall);
    }
    if (stable) return n;
  }
  return 0;
}

ClockVerdict judge_clock(const std::vector<double>& mhz, double nominal_mhz, double fraction) {
  const lab::Summary s = lab::summarize(mhz);
  ClockVerdict v;
  v.min_mhz = s.min;
  v.median_mhz = s.median;
  v.max_mhz = s.max;
  for (double x : mhz) v.below += x < fraction * nominal_mhz ? 1 : 0;
  v.varied = s.max - s.min > 0.01 * s.median;
  return v;
}

}  // namespace ch07
