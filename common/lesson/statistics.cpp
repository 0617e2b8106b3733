#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace lab {

namespace {

// Quantile of already sorted samples.
double sorted_quantile(const std::vector<double>& sorted, double fraction) {
  const double position = fraction * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] + weight * (sorted[above] - sorted[below]);
}

}  // namespace

double quantile(std::vector<double> samples, double fraction) {
  if (samples.empty()) throw std::invalid_argument("quantile of no samples");
  if (!(fraction >= 0.0 && fraction <= 1.0)) throw std::invalid_argument("quantile fraction outside 0..1");
  std::sort(samples.begin(), samples.end());
  return sorted_quantile(samples, fraction);
}

Summary summarize(const std::vector<double>& samples) {
  if (samples.empty()) throw std::invalid_argument("summary of no samples");
  for (double s : samples) {
    if (std::isnan(s)) throw std::invalid_argument("summary of samples holding a NaN");
  }
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());

  Summary s;
  s.count = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  s.q1 = sorted_quantile(sorted, 0.25);
  s.median = sorted_quantile(sorted, 0.5);
  s.q3 = sorted_quantile(sorted, 0.75);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.count);
  if (s.count > 1) {
    double squares = 0.0;
    for (double v : sorted) squares += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(s.count - 1));
  }
  s.cv = s.mean != 0.0 ? s.stddev / s.mean : 0.0;
  return s;
}

double smallest_step(std::vector<double> samples, double noise) {
  std::sort(samples.begin(), samples.end());
  double step = 0;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    const double d = samples[i] - samples[i - 1];
    if (d > noise && (step == 0 || d < step)) step = d;
  }
  return step;
}

double span_ms(const std::vector<double>& begins, const std::vector<double>& ends) {
  double earliest = 0, latest = 0;  // the origin itself is at 0
  for (double b : begins) earliest = std::min(earliest, b);
  for (double e : ends) latest = std::max(latest, e);
  return latest - earliest;
}

}  // namespace lab
