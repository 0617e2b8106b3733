/// @file data.hpp
/// @brief What chapter 12's experiments return: one configuration of one
/// version and its samples, a sweep of them beside the device-to-device copy,
/// the configurations swept, and what a block records per tile when asked
/// (staging.cuh's launch_version with a stamps buffer), summarised. Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

/// A version and its stage count.
struct VersionSpec {
  std::string version;  ///< version name
  int stages;           ///< 0 direct, 1 sync_staged, 1-4 pipeline and tma
};

/// One block's %globaltimer stamps for one of its tiles, taken by its thread 0.
/// A tile the block never handled keeps all three at 0.
struct StageStamps {
  unsigned long long issued;    ///< the copy of this tile was issued (direct: the tile's loop iteration began)
  unsigned long long ready;     ///< the wait for this tile returned: its data is visible to the whole block
  unsigned long long computed;  ///< the block finished computing and storing this tile
};

/// One block's or one run's stamps, summarised (checks_stages.hpp's summarise_stamps).
struct StampSummary {
  std::int64_t tiles = 0;  ///< tiles stamped
  double wait_ns = 0;      ///< per tile: from the previous tile computed (or the first issue) to ready
  double compute_ns = 0;   ///< per tile: ready to computed
  double copy_ns = 0;      ///< per tile: issued to ready (the copy's latency as the block saw it)
  double block_ns = 0;     ///< per block: first issue to last computed, the mean over blocks
  double wait_share = 0;   ///< % of the blocks' time spent waiting
};

/// One run with stamps: its configuration and what its blocks saw.
struct StampRun {
  ConfigRun config;                  ///< the configuration (its ms: none; its checks: the stamped run's)
  std::int64_t tiles_per_block = 0;  ///< the busiest block's tiles
  StampSummary summary;              ///< the stamps summarised
};

/// Section 3's runs, at both extreme points, and the copy's GB/s for the model.
struct StampsRun {
  std::int64_t n = 0;          ///< floats per buffer
  double copy_gbps = 0;        ///< the copy's median from section 2
  std::vector<StampRun> runs;  ///< one per version spec and point
};

}  // namespace ch12
