/// @file timer_step.hpp
/// @brief The step a timer's readings came in, seen from the readings
/// themselves: CUPTI's kernel durations (0.256 us on the H100 runs) are the
/// reference sections 1 and 4 judge event times against (32 ns steps), so the
/// chapter prints the reference's own grading beside it. Plain C++, CPU-tested.
#pragma once

#include <string>
#include <vector>

namespace ch08 {

/// The smallest non-zero difference between two of @p us (differences under
/// 1e-4, float noise in microseconds, count as none); 0 when no two differ.
double observed_step(const std::vector<double>& us);

/// "mean 0.87 us, in steps of 0.256 us" ("..., every one equal" when no two
/// differ): what to read beside the median of CUPTI's durations @p cupti_us (not empty).
std::string cupti_spread(const std::vector<double>& cupti_us);

}  // namespace ch08
