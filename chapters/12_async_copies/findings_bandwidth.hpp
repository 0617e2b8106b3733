/// @file findings_bandwidth.hpp
/// @brief Section 2's tables and findings: every version against the
/// device-to-device copy, swept over stages and occupancy (at --work) and over
/// the work per element (at the two extreme occupancy points). Plain C++.
#pragma once

#include <string>
#include <vector>

#include "findings_versions.hpp"
#include "report.hpp"

namespace ch12 {

/// below_copy_* looks for the least work at which the fastest version falls below this % of the copy.
inline constexpr double kCopyShareBenchmark = 90.0;
inline constexpr double kVanishesBelow = 1.10;  ///< "within": best pipelined between 1/1.10x and 1.10x sync

/// The copy alone: bytes, median, GB/s, the working set against the L2.
lab::ResultTable copy_table(const Sweep& s);
/// The stage sweep's findings: at the most blocks per SM the best pipelined against sync_staged
/// (high_occupancy_gap), and version_*.skipped for a version none of whose rows ran.
std::vector<lab::Finding> stage_sweep_findings(const Sweep& s);
/// The work sweep's findings: per extreme point, the least work at which the fastest
/// version falls below 90 % of the copy, and how far apart the versions were there.
std::vector<lab::Finding> work_sweep_findings(const Sweep& s);

}  // namespace ch12
