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

/// The benchmarks' thresholds.
inline constexpr double kCopyShareBenchmark = 90.0;  ///< best pipelined at >= 90 % of the copy
inline constexpr double kFullShmemSpeedup = 2.0;     ///< at one full block per SM, best pipelined >= 2x sync
inline constexpr double kVanishesBelow = 1.10;       ///< "within": best pipelined between 1/1.10x and 1.10x sync

/// The copy alone: bytes, median, GB/s, the working set against the L2.
lab::ResultTable copy_table(const Sweep& s);
/// One row per run of @p s (@p id "stage_sweep" or "work_sweep"): point, version, stages, work, tile,
/// resident blocks, median ms, GB/s, % of the copy.
lab::ResultTable sweep_table(const std::string& id, const std::string& title, const Sweep& s);
/// The stage sweep's findings: the working set against the L2, the best pipelined
/// against the copy (benchmark), at one full block per SM the best pipelined against
/// sync_staged (benchmark), and at the most blocks per SM whether the difference vanishes.
std::vector<lab::Finding> stage_sweep_findings(const Sweep& s);
/// The work sweep's findings: per extreme point, the least work at which the best
/// version falls below 90 % of the copy (the kernel turns compute bound).
std::vector<lab::Finding> work_sweep_findings(const Sweep& s);
/// Why staging pays only when nothing else hides the latency, with the guide's sections.
std::vector<lab::Background> bandwidth_background();

}  // namespace ch12
