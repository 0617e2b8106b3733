/// @file findings_versions.hpp
/// @brief What every section runs (one configuration of one version, and a
/// sweep of them beside the device-to-device copy), the configurations the
/// chapter sweeps, and section 1's tables and findings. Plain C++:
/// tests/ch12_findings_test.cpp checks every branch on hand-made data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "report.hpp"

namespace ch12 {

/// One version under one configuration: its shape, its samples, its checks.
struct ConfigRun {
  std::string point;         ///< the occupancy point (occupancy_points()), e.g. "8/SM" or "1/SM full"
  std::string version;       ///< "direct", "sync_staged", "pipeline" or "tma"
  int stages = 0;            ///< buffers in flight (pipeline, tma), 1 for sync_staged, 0 for direct
  int blocks_per_sm = 0;     ///< blocks launched per SM
  int tile_floats = 0;       ///< floats per tile
  int work = 0;              ///< FMAs per element
  int threads = 0;           ///< threads per block
  double shared_bytes = 0;   ///< dynamic shared memory per block
  int resident_per_sm = 0;   ///< blocks one SM can hold (occupancy calculator); below blocks_per_sm: they queue
  int registers = 0;         ///< registers per thread of the kernel it ran (cudaFuncAttributes::numRegs)
  std::string skipped;       ///< why it did not run ("" when it ran)
  std::vector<double> ms;    ///< the timed samples
  std::int64_t checked = 0;  ///< values compared with the CPU, before timing and again after it
  std::string wrong;         ///< the first mismatch before timing ("" when every value was exact)
  std::string wrong_after;   ///< the same after timing
};

/// Configurations of the kernel beside the device-to-device copy of the same data.
struct Sweep {
  std::int64_t n = 0;           ///< floats per buffer
  double l2_bytes = 0;          ///< the device's L2
  int sm_count = 0;             ///< SMs
  std::vector<double> copy_ms;  ///< cudaMemcpyAsync device to device of n floats (chapter 01's copy)
  std::vector<ConfigRun> runs;  ///< in the order they ran
};

/// One occupancy point of the sweeps.
struct OccupancyPoint {
  std::string name;   ///< "8/SM", "4/SM", "2/SM", "1/SM", "1/SM full"
  int blocks_per_sm;  ///< blocks launched per SM
  bool fill;          ///< tiles sized to fill the opt-in shared memory (else --tile-kib tiles)
};

/// Many small-tile blocks per SM down to one, then one block whose tiles fill shared memory.
std::vector<OccupancyPoint> occupancy_points();
/// The first and last of occupancy_points(): where the difference is largest (sections 1, 3, 4).
std::vector<OccupancyPoint> extreme_points();

/// A version and its stage count.
struct VersionSpec {
  std::string version;  ///< version name
  int stages;           ///< 0 direct, 1 sync_staged, 1-4 pipeline and tma
};
/// direct, sync_staged, pipeline 1-4, tma 1-4.
std::vector<VersionSpec> version_specs();
/// direct, sync_staged, pipeline 2, tma 2: section 1's side by side.
std::vector<VersionSpec> side_by_side_specs();

/// Floats per tile when @p buffers tiles (at least 1) fill @p optin_bytes of
/// shared memory less @p reserved_bytes: a multiple of 128 floats (512 B).
int fill_tile_floats(std::size_t optin_bytes, std::size_t reserved_bytes, int buffers);

/// Bytes the kernel and the copy move for @p n floats: n read, n written (chapter 01's copy_bytes).
double bytes_moved(std::int64_t n);
/// The median of @p r's samples in GB/s over bytes_moved(n) (NaN without samples).
double run_gbps(const ConfigRun& r, std::int64_t n);
/// The copy's median in GB/s.
double copy_gbps(const Sweep& s);
/// A row name: "pipeline x2 @ 8/SM, w4".
std::string run_label(const ConfigRun& r);
/// Is @p version "pipeline" or "tma"?
bool pipelined_version(const std::string& version);
/// Is @p r a pipelined version (pipeline or tma) that ran?
bool pipelined(const ConfigRun& r);
/// Did @p r run with both checks exact?
bool correct(const ConfigRun& r);
/// @p r's bandwidth / sync_staged's at the same point and work in @p s (NaN when that did not run).
double vs_sync_staged(const Sweep& s, const ConfigRun& r);

// --- 1. One staged kernel, four ways ---------------------------------------------

/// One row per run of @p s (@p id "versions", "stage_sweep" or "work_sweep"): tile, threads, shared memory,
/// registers, resident blocks, median, GB/s, % of the copy, against sync_staged at the same point and work,
/// values checked, exact (and, for the JSON, version, stages, point, work, or why a row was skipped).
lab::ResultTable sweep_table(const std::string& id, const std::string& title, const Sweep& s);
/// versions_exact: every run exact before and after timing.
std::vector<lab::Finding> versions_findings(const Sweep& s);

}  // namespace ch12
