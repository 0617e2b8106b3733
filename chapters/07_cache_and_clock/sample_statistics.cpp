#include "sample_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <random>
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

MedianInterval bootstrap_median_interval(const std::vector<double>& samples, double confidence, int resamples,
                                         std::uint64_t seed) {
  if (samples.empty()) throw std::invalid_argument("bootstrap_median_interval: no samples");
  if (resamples < 1) throw std::invalid_argument("bootstrap_median_interval: no resamples");
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::size_t> pick(0, samples.size() - 1);
  std::vector<double> medians(static_cast<std::size_t>(resamples));
  std::vector<double> draw(samples.size());
  for (double& median : medians) {
    for (double& x : draw) x = samples[pick(random)];
    median = lab::median(draw);
  }
  MedianInterval interval;
  interval.count = samples.size();
  interval.median = lab::median(samples);
  interval.low = lab::quantile(medians, (1.0 - confidence) / 2);
  interval.high = lab::quantile(medians, (1.0 + confidence) / 2);
  return interval;
}

std::vector<std::size_t> precision_counts(std::size_t total) {
  std::vector<std::size_t> counts;
  for (std::size_t decade = 1; decade < total; decade *= 10) {
    for (std::size_t step : {1, 2, 5}) {
      const std::size_t n = step * decade;
      if (n >= 5 && n < total) counts.push_back(n);
    }
  }
  if (total >= 5) counts.push_back(total);
  return counts;
}

MedianInterval first_n_interval(const std::vector<double>& samples, std::size_t n) {
  return bootstrap_median_interval(
      std::vector<double>(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(n)));
}

}  // namespace ch07
