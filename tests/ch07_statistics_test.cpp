// Chapter 07's sample statistics on fixed data (no GPU needed).
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "sample_statistics.hpp"
#include "support/text_lines.hpp"

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

TEST_CASE("render_histogram: one line per bin, the fullest bin the longest bar") {
  const std::string text = ch07::render_histogram(ch07::histogram({1.0, 1.1, 1.2, 1.9, 2.0, 3.0}, 4), "ms", 6);
  const std::vector<std::string> lines = lab_test::lines_of(text);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].find("|###### 3") != std::string::npos);
  CHECK(lines[1].find("|##     1") != std::string::npos);
  CHECK(lines[0].find("1.0000 -     1.5000 ms") != std::string::npos);
}

TEST_CASE("tukey_outliers: fences at 1.5 IQR outside the quartiles") {
  // 1..8 and one far sample: q1 = 3, q3 = 7 (NumPy's linear quantiles of 9 values), IQR 4.
  const ch07::Outliers o = ch07::tukey_outliers({1, 2, 3, 4, 5, 6, 7, 8, 100});
  CHECK(o.low_fence == doctest::Approx(-3.0));
  CHECK(o.high_fence == doctest::Approx(13.0));
  CHECK(o.below == 0);
  CHECK(o.above == 1);
}

TEST_CASE("samples_for_stable_median: the smallest block whose medians all agree") {
  // Alternating 10, 12: single samples are 9 % off the median 11; pairs have median 11 exactly.
  std::vector<double> alternating;
  for (int i = 0; i < 16; ++i) alternating.push_back(i % 2 == 0 ? 10.0 : 12.0);
  CHECK(ch07::samples_for_stable_median(alternating, 0.01) == 2);
  CHECK(ch07::samples_for_stable_median(alternating, 0.10) == 1);  // 10 and 12 are within 10 % of 11
  // Equal samples: one is enough.
  CHECK(ch07::samples_for_stable_median(std::vector<double>(8, 3.0), 0.001) == 1);
  // A drift (the first half slower): no block size up to half the samples agrees within 1 %.
  std::vector<double> drift(8, 20.0);
  for (int i = 4; i < 8; ++i) drift[static_cast<std::size_t>(i)] = 10.0;
  CHECK(ch07::samples_for_stable_median(drift, 0.01) == 0);
  CHECK(ch07::samples_for_stable_median({1.0}, 0.01) == 0);
}

TEST_CASE("judge_clock: flags readings under 75 % of nominal, and says whether they vary") {
  const ch07::ClockVerdict steady = ch07::judge_clock({1980, 1980, 1975, 1980}, 1980);
  CHECK(steady.below == 0);
  CHECK_FALSE(steady.varied);  // 5 MHz of 1980 is under 1 %
  CHECK(steady.min_mhz == doctest::Approx(1975));
  CHECK(steady.max_mhz == doctest::Approx(1980));
  const ch07::ClockVerdict throttled = ch07::judge_clock({1980, 1400, 1450, 1485, 1980}, 1980);
  CHECK(throttled.below == 2);  // 1400 and 1450 are under 0.75 x 1980 = 1485; 1485 itself is not
  CHECK(throttled.varied);
  CHECK(throttled.median_mhz == doctest::Approx(1485));
  CHECK_THROWS_AS(ch07::judge_clock({}, 1980), std::invalid_argument);
}
