// Chapter 07's sample statistics on fixed data (no GPU needed).
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "sample_statistics.hpp"

TEST_CASE("histogram: equal-width bins from min to max, the max in the last bin") {
  const ch07::Histogram h = ch07::histogram({1.0, 1.1, 1.2, 1.9, 2.0, 3.0}, 4);  // bins of 0.5 from 1.0
  CHECK(h.low == doctest::Approx(1.0));
  CHECK(h.width == doctest::Approx(0.5));
  REQUIRE(h.counts.size() == 4);
  CHECK(h.counts[0] == 3);  // 1.0, 1.1, 1.2
  CHECK(h.counts[1] == 1);  // 1.9
  CHECK(h.counts[2] == 1);  // 2.0
  CHECK(h.counts[3] == 1);  // 3.0 closes the last bin
}

TEST_CASE("histogram: all samples equal make one bin; no samples is an error") {
  const ch07::Histogram h = ch07::histogram({5.0, 5.0, 5.0}, 10);
  CHECK(h.counts == std::vector<int>{3});
  CHECK(h.width == 0.0);
  CHECK_THROWS_AS(ch07::histogram({}, 4), std::invalid_argument);
}

TEST_CASE("tukey_outliers: fences at 1.5 IQR outside the quartiles") {
  // 1..8 and one far sample: q1 = 3, q3 = 7 (NumPy's linear quantiles of 9 values), IQR 4.
  const ch07::Outliers o = ch07::tukey_outliers({1, 2, 3, 4, 5, 6, 7, 8, 100});
  CHECK(o.low_fence == doctest::Approx(-3.0));
  CHECK(o.high_fence == doctest::Approx(13.0));
  CHECK(o.below == 0);
  CHECK(o.above == 1);
}

namespace {

// n samples of a normal distribution (mean 10, standard deviation 1), fixed seed.
std::vector<double> normal_samples(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(10.0, 1.0);
  std::vector<double> samples(n);
  for (double& x : samples) x = normal(random);
  return samples;
}

}  // namespace

TEST_CASE("bootstrap_median_interval: holds the median, and narrows roughly as 1/sqrt(n)") {
  const std::vector<double> few = normal_samples(25, 1);
  const std::vector<double> many = normal_samples(400, 2);
  const ch07::MedianInterval wide = ch07::bootstrap_median_interval(few);
  const ch07::MedianInterval narrow = ch07::bootstrap_median_interval(many);
  CHECK(wide.count == 25);
  CHECK(narrow.count == 400);
  CHECK(wide.low <= wide.median);
  CHECK(wide.median <= wide.high);
  CHECK(narrow.low < 10.0);  // the true median, 10, lies inside
  CHECK(narrow.high > 10.0);
  // 16 times the samples: about 4 times narrower (a median's standard error goes as 1/sqrt(n)).
  const double ratio = (wide.high - wide.low) / (narrow.high - narrow.low);
  CAPTURE(ratio);
  CHECK(ratio > 2.5);
  CHECK(ratio < 6.5);
  // For a normal distribution of standard deviation 1, the 95 % interval of the median of
  // 400 samples is about 2 x 1.96 x 1.2533 / sqrt(400) = 0.25 wide.
  CHECK(narrow.high - narrow.low == doctest::Approx(0.25).epsilon(0.3));
}

TEST_CASE("bootstrap_median_interval: repeats with the same seed; equal samples give zero width; empty is an error") {
  const std::vector<double> samples = normal_samples(50, 3);
  const ch07::MedianInterval first = ch07::bootstrap_median_interval(samples);
  const ch07::MedianInterval again = ch07::bootstrap_median_interval(samples);
  CHECK(first.low == again.low);
  CHECK(first.high == again.high);
  const ch07::MedianInterval equal = ch07::bootstrap_median_interval(std::vector<double>(20, 4.0));
  CHECK(equal.low == 4.0);
  CHECK(equal.high == 4.0);
  CHECK(equal.width_percent() == 0.0);
  const ch07::MedianInterval one = ch07::bootstrap_median_interval({7.0});
  CHECK(one.median == 7.0);
  CHECK(one.high - one.low == 0.0);
  CHECK_THROWS_AS(ch07::bootstrap_median_interval({}), std::invalid_argument);
  CHECK_THROWS_AS(ch07::bootstrap_median_interval({1.0}, 0.95, 0), std::invalid_argument);
}

TEST_CASE("precision_counts: 5, 10, 20, 50, ... and all of them; first_n_interval uses only the first n") {
  CHECK(ch07::precision_counts(200) == std::vector<std::size_t>{5, 10, 20, 50, 100, 200});
  CHECK(ch07::precision_counts(20) == std::vector<std::size_t>{5, 10, 20});
  CHECK(ch07::precision_counts(7) == std::vector<std::size_t>{5, 7});
  CHECK(ch07::precision_counts(4).empty());
  const std::vector<double> samples{1, 2, 3, 4, 5, 100, 200, 300};
  const ch07::MedianInterval first = ch07::first_n_interval(samples, 5);
  CHECK(first.count == 5);
  CHECK(first.median == 3);
  CHECK(first.high <= 5);
}
