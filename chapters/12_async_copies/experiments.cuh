/// @file experiments.cuh
/// @brief Chapter 12's experiments: every version of staging.cuh's kernel under
/// the configurations checks_versions.hpp names, checked against the CPU
/// before and after timing, beside the device-to-device copy; the stamped runs
/// of section 3. Each returns plain data (data.hpp) and prints nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "checks_stages.hpp"
#include "checks_versions.hpp"
#include "data.hpp"
#include "device.cuh"
#include "memory.cuh"
#include "staging.cuh"
#include "stream.cuh"

namespace ch12 {

/// Outputs up to this many floats are checked whole; larger ones in windows.
inline constexpr std::int64_t kFullCheckFloats = std::int64_t{1} << 21;
/// A larger output is checked in this many windows (the first and last tiles among them) ...
inline constexpr int kCheckWindows = 16;
/// ... of this many floats each.
inline constexpr std::int64_t kWindowFloats = std::int64_t{1} << 14;

/// The version named @p name ("direct", ...); throws std::invalid_argument for another name.
Version version_of(const std::string& name);

/// The input, the output and a stream: what every experiment runs on.
class Bench {
 public:
  /// @p n random floats in [-1, 1) (seed @p seed; n rounded down to a multiple of 4) on
  /// @p device; tiles of @p small_tile_floats where several blocks share an SM.
  Bench(std::int64_t n, std::uint64_t seed, int small_tile_floats, const lab::DeviceInfo& device);
  /// The launch configuration of @p spec at @p point with @p work (fill points: tiles
  /// that fill the opt-in shared memory for the spec's buffers).
  StageConfig config(const VersionSpec& spec, const OccupancyPoint& point, int work) const;
  /// @p spec at @p point: a run into a poisoned output checked against the CPU,
  /// @p reps event-timed runs (lab::measure_ms), the output poisoned before them
  /// and checked again after. Skipped (with the reason) when the version is not
  /// supported or not one block fits an SM.
  ConfigRun run(const VersionSpec& spec, const OccupancyPoint& point, int work, int reps);
  /// @p reps event-timed device-to-device copies of the input into the output (chapter 01's copy).
  std::vector<double> time_copy(int reps);
  /// @p spec at @p point, once, with stamps: the stamps summarised and the output checked.
  StampRun stamped(const VersionSpec& spec, const OccupancyPoint& point, int work);
  std::int64_t n() const { return n_; }                      ///< floats per buffer
  const lab::DeviceInfo& device() const { return device_; }  ///< the device
  /// Leaves version @p v out of every run: its rows are skipped, saying @p why.
  void leave_out(Version v, const std::string& why) { left_out_[static_cast<int>(v)] = why; }

 private:
  // Checks the output against the CPU (whole, or in windows); returns the first mismatch or "".
  std::string check(const StageConfig& c, std::int64_t* checked) const;
  std::int64_t n_;
  int small_tile_floats_;
  lab::DeviceInfo device_;
  std::string left_out_[4];  // per Version: why it is left out (empty: it runs)
  std::vector<float> input_;
  std::vector<std::int64_t> windows_;  // first float of each check window
  lab::DeviceBuffer<float> in_, out_;
  lab::Stream stream_;
};

/// 1. side_by_side_specs() at both extreme points with @p work, on @p bench, and the
/// same on @p small (every output value checked); the copy timed @p reps times.
Sweep run_side_by_side(Bench& bench, Bench& small, int work, int reps);
/// 2. version_specs() at every occupancy point with @p work, beside the copy.
Sweep run_stage_sweep(Bench& bench, int work, int reps);
/// 2. version_specs() at both extreme points for each of @p works, beside the copy.
Sweep run_work_sweep(Bench& bench, const std::vector<int>& works, int reps);
/// 3. version_specs() at both extreme points with @p work, each once with stamps.
StampsRun run_stamps(Bench& bench, int work, double copy_gbps);

}  // namespace ch12
