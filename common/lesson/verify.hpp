/// @file verify.hpp
/// @brief Random inputs (a fixed seed, so a failure can be reproduced) and the
/// comparison of a result with its CPU reference, with a stated tolerance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lab {

/// @p count floats drawn uniformly from [@p low, @p high) with generator seed @p seed.
std::vector<float> random_floats(std::size_t count, std::uint64_t seed, float low = -1.0f, float high = 1.0f);

/// One element that is out of tolerance.
struct Mismatch {
  std::size_t index;  ///< where
  double expected;    ///< the CPU reference
  double actual;      ///< what the GPU produced
};

/// The outcome of lab::compare.
struct Comparison {
  std::size_t count = 0;                                        ///< elements compared
  std::size_t mismatches = 0;                                   ///< elements out of tolerance (NaN always is)
  double max_abs_error = 0;                                     ///< largest |actual - expected| among finite values
  std::vector<Mismatch> first;                                  ///< the first few mismatches, for the message
  bool passed() const { return count > 0 && mismatches == 0; }  ///< no mismatch at all
  /// "1048579 values, exact" or "3 of 1024 values differ; first: [7] expected 1 got nan, ..."
  std::string detail() const;
};

/// Compares element by element: a value passes when |actual - expected| <=
/// abs_tolerance + rel_tolerance * |expected|. A size difference fails every element.
Comparison compare(const std::vector<float>& actual, const std::vector<float>& expected, double abs_tolerance = 0.0,
                   double rel_tolerance = 0.0);

}  // namespace lab
