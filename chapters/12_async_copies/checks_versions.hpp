/// @file checks_versions.hpp
/// @brief The configurations the chapter sweeps (data.hpp holds what each run
/// returns), which runs count as pipelined and exact, and section 1's check.
/// Plain C++: tests/ch12_checks_test.cpp checks every branch on hand-made data.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch12 {

/// Many small-tile blocks per SM down to one, then one block whose tiles fill shared memory.
std::vector<OccupancyPoint> occupancy_points();
/// The first and last of occupancy_points(): where the difference is largest (sections 1, 3, 4).
std::vector<OccupancyPoint> extreme_points();

/// direct, sync_staged, pipeline 1-4, tma 1-4.
std::vector<VersionSpec> version_specs();
/// direct, sync_staged, pipeline 2, tma 2: section 1's side by side.
std::vector<VersionSpec> side_by_side_specs();

/// Floats per tile when @p buffers tiles (at least 1) fill @p optin_bytes of
/// shared memory less @p reserved_bytes: a multiple of 128 floats (512 B).
int fill_tile_floats(std::size_t optin_bytes, std::size_t reserved_bytes, int buffers);

/// Is @p version "pipeline" or "tma"?
bool pipelined_version(const std::string& version);
/// Is @p r a pipelined version (pipeline or tma) that ran?
bool pipelined(const ConfigRun& r);
/// Did @p r run with both checks exact?
bool correct(const ConfigRun& r);

// --- 1. One staged kernel, four ways ---------------------------------------------

/// versions_exact: every run exact before and after timing.
std::vector<lab::Finding> versions_checks(const Sweep& s);

}  // namespace ch12
