#include "verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace lab {

std::vector<float> random_floats(std::size_t count, std::uint64_t seed, float low, float high) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<float> distribution(low, high);
  std::vector<float> values(count);
  for (auto& v : values) v = distribution(generator);
  return values;
}

std::string Comparison::detail() const {
  char buffer[160];
  if (mismatches == 0) {
    std::snprintf(buffer, sizeof buffer, "%zu values, max |error| %.3g", count, max_abs_error);
    return buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%zu of %zu values out of tolerance; first:", mismatches, count);
  std::string out = buffer;
  for (const auto& m : first) {
    std::snprintf(buffer, sizeof buffer, " [%zu] expected %.9g got %.9g;", m.index, m.expected, m.actual);
    out += buffer;
  }
  return out;
}

Comparison compare(const std::vector<float>& actual, const std::vector<float>& expected, double abs_tolerance,
                   double rel_tolerance) {
  constexpr std::size_t kShown = 5;
  Comparison result;
  result.count = expected.size();
  if (actual.size() != expected.size()) {
    result.mismatches = std::max(actual.size(), expected.size());
    result.first.push_back(Mismatch{std::min(actual.size(), expected.size()), static_cast<double>(expected.size()),
                                    static_cast<double>(actual.size())});
    return result;
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double e = expected[i];
    const double a = actual[i];
    const double error = std::fabs(a - e);
    // Written so that a NaN (a poisoned element nobody wrote) never passes.
    const bool ok = error <= abs_tolerance + rel_tolerance * std::fabs(e);
    if (std::isfinite(error)) result.max_abs_error = std::max(result.max_abs_error, error);
    if (!ok) {
      if (result.first.size() < kShown) result.first.push_back(Mismatch{i, e, a});
      ++result.mismatches;
    }
  }
  return result;
}

}  // namespace lab
