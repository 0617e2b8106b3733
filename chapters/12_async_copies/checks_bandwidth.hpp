/// @file checks_bandwidth.hpp
/// @brief Section 2's checks: every version against the device-to-device copy,
/// swept over stages and occupancy (at --work) and over the work per element
/// (at the two extreme occupancy points). Plain C++; its tables are tables.hpp's.
#pragma once

#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch12 {

/// below_copy_* looks for the least work at which the fastest version falls below this % of the copy.
inline constexpr double kCopyShareBenchmark = 90.0;
inline constexpr double kVanishesBelow = 1.10;  ///< "within": best pipelined between 1/1.10x and 1.10x sync

/// The stage sweep's checks: at the most blocks per SM the best pipelined against sync_staged
/// (high_occupancy_gap), and version_*.skipped for a version none of whose rows ran.
std::vector<lab::Finding> stage_sweep_checks(const Sweep& s);
/// The work sweep's checks: per extreme point, the least work at which the fastest
/// version falls below 90 % of the copy, and how far apart the versions were there.
std::vector<lab::Finding> work_sweep_checks(const Sweep& s);

}  // namespace ch12
