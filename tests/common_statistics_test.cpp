#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "statistics.hpp"

TEST_CASE("summary of hand-checked samples") {
  // sorted: 1 2 3 4 100; mean 22; deviations -21 -20 -19 -18 78
  const lab::Summary s = lab::summarize({4, 100, 1, 3, 2});
  CHECK(s.count == 5);
  CHECK(s.min == 1);
  CHECK(s.max == 100);
  CHECK(s.median == 3);
  CHECK(s.q1 == 2);
  CHECK(s.q3 == 4);
  CHECK(s.mean == doctest::Approx(22.0));
  const double variance = (21.0 * 21 + 20 * 20 + 19 * 19 + 18 * 18 + 78 * 78) / 4.0;
  CHECK(s.stddev == doctest::Approx(std::sqrt(variance)));
  CHECK(s.cv == doctest::Approx(std::sqrt(variance) / 22.0));
}

TEST_CASE("the median resists an outlier that moves the mean") {
  const lab::Summary s = lab::summarize({10, 10, 10, 10, 1000});
  CHECK(s.median == 10);
  CHECK(s.mean == doctest::Approx(208.0));
}

TEST_CASE("quartiles interpolate between ranks like NumPy") {
  // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) == [1.75, 2.5, 3.25]
  const lab::Summary s = lab::summarize({4, 3, 2, 1});
  CHECK(s.q1 == doctest::Approx(1.75));
  CHECK(s.median == doctest::Approx(2.5));
  CHECK(s.q3 == doctest::Approx(3.25));
  CHECK(lab::quantile({1, 2, 3, 4}, 0.0) == 1);
  CHECK(lab::quantile({1, 2, 3, 4}, 1.0) == 4);
  CHECK(lab::quantile({1, 2, 3, 4}, 0.9) == doctest::Approx(3.7));
}

TEST_CASE("one sample has no spread") {
  const lab::Summary s = lab::summarize({7.5});
  CHECK(s.min == 7.5);
  CHECK(s.q1 == 7.5);
  CHECK(s.median == 7.5);
  CHECK(s.q3 == 7.5);
  CHECK(s.max == 7.5);
  CHECK(s.stddev == 0);
  CHECK(s.cv == 0);
}

TEST_CASE("a zero mean gives a zero coefficient of variation, not a division by zero") {
  const lab::Summary s = lab::summarize({-1, 1});
  CHECK(s.mean == 0);
  CHECK(s.cv == 0);
  CHECK(s.stddev == doctest::Approx(std::sqrt(2.0)));
}

TEST_CASE("no samples, NaN samples and bad fractions are refused") {
  CHECK_THROWS_AS(lab::summarize({}), std::invalid_argument);
  CHECK_THROWS_AS(lab::summarize({1, std::nan(""), 2}), std::invalid_argument);
  CHECK_THROWS_AS(lab::quantile({}, 0.5), std::invalid_argument);
  CHECK_THROWS_AS(lab::quantile({1}, 1.5), std::invalid_argument);
  CHECK_THROWS_AS(lab::quantile({1}, std::nan("")), std::invalid_argument);
}

TEST_CASE("bandwidth: bytes over milliseconds in GB/s") {
  CHECK(lab::gigabytes_per_second(2e9, 1000.0) == doctest::Approx(2.0));
  CHECK(lab::gigabytes_per_second(536870912.0, 0.181) == doctest::Approx(2966.1).epsilon(1e-4));
}

TEST_CASE("smallest_step: the step a timer's readings come in, float noise aside") {
  CHECK(lab::smallest_step({7.744, 7.712, 7.808, 7.776}, 1e-4) == doctest::Approx(0.032));
  CHECK(lab::smallest_step({0.768, 0.76800001, 1.024}, 1e-4) == doctest::Approx(0.256));
  CHECK(lab::smallest_step({2.5, 2.5, 2.5}, 1e-4) == 0.0);
  CHECK(lab::smallest_step({}, 1e-4) == 0.0);
}
