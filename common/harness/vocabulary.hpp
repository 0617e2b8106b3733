/// @file vocabulary.hpp
/// @brief The words the findings use for their numbers, spelled once. A
/// findings file includes this header and uses these names; it declares no
/// alias or formatter of its own.
///
/// | idea | the one name |
/// |---|---|
/// | median of samples (NaN when there are none) | lab::median_or_nan (statistics.hpp) |
/// | bandwidth in GB/s (10^9 B/s) | lab::gigabytes_per_second (statistics.hpp) |
/// | a part as a percentage of a whole | lab::percent_of |
/// | how far a value lies above a reference, in % | lab::percent_above |
/// | a number with fixed decimals | lab::fixed (fields.hpp) |
/// | a signed difference in % ("+2.5 %") | lab::signed_percent (fields.hpp) |
/// | any other sentence with numbers | lab::format (printf's patterns, checked by the compiler) |
/// | a size in binary units | lab::kKiB, lab::kMiB, lab::kGiB, lab::mib_text |
/// | "1 stream", "3 streams" | lab::count_text |
/// | a finding that says what happened | lab::named_observation (report.hpp) |
#pragma once

#include <cstddef>
#include <limits>
#include <string>

#include "fields.hpp"
#include "report.hpp"
#include "statistics.hpp"

namespace lab {

inline constexpr double kKiB = 1024.0;         ///< bytes in a KiB
inline constexpr double kMiB = 1024.0 * kKiB;  ///< bytes in a MiB
inline constexpr double kGiB = 1024.0 * kMiB;  ///< bytes in a GiB

/// printf into a string: `lab::format("%.1f %% of the copy", percent)`. The
/// compiler checks the arguments against the pattern (-Wformat).
std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));

/// 100 * @p part / @p whole, or NaN when @p whole is not positive.
inline double percent_of(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : std::numeric_limits<double>::quiet_NaN();
}

/// How far @p value lies above @p reference, in % of @p reference (negative
/// when below), or NaN when @p reference is not positive.
inline double percent_above(double value, double reference) {
  return reference > 0 ? 100.0 * (value - reference) / reference : std::numeric_limits<double>::quiet_NaN();
}

/// @p bytes in MiB with @p decimals digits: "12.3 MiB".
std::string mib_text(double bytes, int decimals = 1);

/// @p count and the noun that fits it: count_text(1, "stream", "streams") is "1 stream".
std::string count_text(std::size_t count, const char* one, const char* many);

}  // namespace lab
