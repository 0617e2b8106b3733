#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "verify.hpp"

TEST_CASE("random inputs are reproducible from the seed and inside the range") {
  const auto a = lab::random_floats(1000, 42, -2.0f, 3.0f);
  CHECK(a == lab::random_floats(1000, 42, -2.0f, 3.0f));
  CHECK(a != lab::random_floats(1000, 43, -2.0f, 3.0f));
  for (float v : a) {
    CHECK(v >= -2.0f);
    CHECK(v < 3.0f);
  }
}

TEST_CASE("exact comparison passes equal values and reports the first mismatches") {
  const std::vector<float> expected{1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(lab::compare(expected, expected).passed());
  std::vector<float> actual = expected;
  for (int i : {1, 3, 4, 5, 6, 7}) actual[static_cast<std::size_t>(i)] += 1.0f;
  const lab::Comparison c = lab::compare(actual, expected);
  CHECK_FALSE(c.passed());
  CHECK(c.mismatches == 6);
  CHECK(c.first.size() == 5);  // only the first few are kept for the message
  CHECK(c.first[0].index == 1);
  CHECK(c.detail().find("6 of 8 values out of tolerance") == 0);
}

TEST_CASE("a poisoned element (NaN) never passes, whatever the tolerance") {
  std::vector<float> actual{1, std::numeric_limits<float>::quiet_NaN(), 3};
  const lab::Comparison c = lab::compare(actual, {1, 2, 3}, 1e9, 1e9);
  CHECK_FALSE(c.passed());
  CHECK(c.mismatches == 1);
  CHECK(c.first[0].index == 1);
}

TEST_CASE("tolerance: absolute plus relative to the expected value") {
  CHECK(lab::compare({1.001f}, {1.0f}, 0.01).passed());
  CHECK_FALSE(lab::compare({1.1f}, {1.0f}, 0.01).passed());
  CHECK(lab::compare({1010.0f}, {1000.0f}, 0.0, 0.02).passed());
  CHECK_FALSE(lab::compare({1030.0f}, {1000.0f}, 0.0, 0.02).passed());
}

TEST_CASE("different sizes and empty inputs fail") {
  CHECK_FALSE(lab::compare({1, 2}, {1, 2, 3}).passed());
  CHECK_FALSE(lab::compare({}, {}).passed());
}
