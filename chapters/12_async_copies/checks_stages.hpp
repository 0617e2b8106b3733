/// @file checks_stages.hpp
/// @brief Sections 3 and 4: where each block waits (its per-tile %globaltimer
/// stamps summarised, and the stamped runs' check) and chapter 05's pipeline
/// model applied to the stages of one block, predicted against measured. Plain
/// C++; their tables are tables.hpp's.
///
/// The stage model. A block handles T tiles; copying one tile alone takes c
/// (issue to ready, from the 1-stage run's stamps), computing and storing it k
/// (ready to computed). With s buffers the copy of tile i + s - 1 runs while
/// tiles i .. i + s - 2 are computed, so in the steady state a tile costs
///   p(s) = max(k, c / (s - 1), b)    (s >= 2),   c + k   (s = 1)
/// where b is the tile's share of the copy's bandwidth (all blocks' tiles
/// moving at the device-to-device copy's rate). That is chapter 05's
/// pipelined(n) = h + k + (n - 1) max(h, k) with n = T tiles and h = the
/// effective copy per tile, plus the first copy's full latency (fill):
///   time(s) = c + k + (T - 1) p(s)
/// computed with ch05::pipelined_ms. The kernel takes as long as its busiest block.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch12 {

/// Summarises @p stamps of @p blocks blocks, @p tiles_per_block slots each
/// (a slot whose computed is 0 was never used). Throws std::invalid_argument
/// when the buffer is smaller than blocks x tiles_per_block.
StampSummary summarise_stamps(const std::vector<StageStamps>& stamps, int blocks, std::int64_t tiles_per_block);

// --- 3. Where each block waits ------------------------------------------------------

/// stamped_exact: the stamped runs' outputs equal the CPU's.
std::vector<lab::Finding> stamps_checks(const StampsRun& s);

// --- 4. A model of the stages ------------------------------------------------------

/// The stage model's time for one block in ms (see the file comment): @p c_ns copy
/// per tile, @p k_ns compute per tile, @p b_ns the bandwidth's floor per tile, @p tiles
/// T, @p stages s. Throws std::invalid_argument for tiles < 1 or stages < 1.
double stage_model_ms(double c_ns, double k_ns, double b_ns, std::int64_t tiles, int stages);
/// The bandwidth's floor per tile in ns: every block's tile, read and written, at @p copy_gbps.
double bandwidth_floor_ns(int tile_floats, int blocks, double copy_gbps);

/// One prediction beside its measurement.
struct ModelRow {
  std::string label;        ///< run_label of the measured run
  std::string version;      ///< pipeline or tma
  int stages = 0;           ///< s
  double predicted_ms = 0;  ///< stage_model_ms with the 1-stage run's c and k
  double measured_ms = 0;   ///< section 2's median
};

/// For each pipelined run of @p sweep at an extreme point, the model from the
/// 1-stage stamped run of the same version and point in @p stamps.
std::vector<ModelRow> model_rows(const StampsRun& stamps, const Sweep& sweep);

}  // namespace ch12
