// Chapter 12's experiments: the versions of the staged kernel under each
// configuration, checked, timed, checked again; the copy; the stamped runs.
#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

#include "check.cuh"
#include "experiments.cuh"
#include "measure.cuh"
#include "verify.hpp"

namespace ch12 {

Version version_of(const std::string& name) {
  for (Version v : {Version::direct, Version::sync_staged, Version::pipeline, Version::tma}) {
    if (name == version_name(v)) return v;
  }
  throw std::invalid_argument("ch12: no version named '" + name + "'");
}

Bench::Bench(std::int64_t n, std::uint64_t seed, int small_tile_floats, const lab::DeviceInfo& device)
    : n_(n / 4 * 4),
      small_tile_floats_(small_tile_floats),
      device_(device),
      input_(lab::random_floats(static_cast<std::size_t>(n_), seed)),
      in_(static_cast<std::size_t>(n_)),
      out_(static_cast<std::size_t>(n_)) {
  in_.upload(input_);
  if (n_ > kFullCheckFloats) {
    // The first and the last window, and the rest at random places (multiples of 4).
    std::mt19937_64 random(seed + 1);
    std::uniform_int_distribution<std::int64_t> place(0, (n_ - kWindowFloats) / 4);
    windows_ = {0, n_ - kWindowFloats};
    while (static_cast<int>(windows_.size()) < kCheckWindows) windows_.push_back(place(random) * 4);
  }
}

StageConfig Bench::config(const VersionSpec& spec, const OccupancyPoint& point, int work) const {
  StageConfig c{0, std::max(1, spec.stages), point.blocks_per_sm, work};
  if (point.fill) {
    const Version v = version_of(spec.version);
    // The pipeline's shared state and tma's barriers live beside the tiles: 1 KiB kept for them.
    c.tile_floats = fill_tile_floats(device_.shared_per_block_optin, 1024, std::max(1, buffers(v, c)));
  } else {
    c.tile_floats = small_tile_floats_;
  }
  return c;
}

std::string Bench::check(const StageConfig& c, std::int64_t* checked) const {
  std::vector<float> actual, expected;
  if (windows_.empty()) {
    actual = out_.download();
    expected = reference(input_, c.tile_floats, c.work);
  } else {
    std::vector<float> window(static_cast<std::size_t>(kWindowFloats));
    for (std::int64_t first : windows_) {
      LAB_CHECK(cudaMemcpy(window.data(), out_.data() + first, window.size() * sizeof(float), cudaMemcpyDeviceToHost));
      actual.insert(actual.end(), window.begin(), window.end());
      for (std::int64_t i = first; i < first + kWindowFloats; ++i)
        expected.push_back(reference_at(input_, i, c.tile_floats, c.work));
    }
  }
  const lab::Comparison comparison = lab::compare(actual, expected);  // exact: the same operations in the same order
  *checked += static_cast<std::int64_t>(comparison.count);
  return comparison.passed() ? std::string() : comparison.detail();
}

namespace {

// The fields of a ConfigRun that describe its configuration.
ConfigRun describe(const VersionSpec& spec, const OccupancyPoint& point, const StageConfig& c) {
  ConfigRun r;
  r.point = point.name;
  r.version = spec.version;
  r.stages = spec.stages;
  r.blocks_per_sm = c.blocks_per_sm;
  r.tile_floats = c.tile_floats;
  r.work = c.work;
  r.threads = threads_per_block(c);
  r.shared_bytes = static_cast<double>(shared_bytes(version_of(spec.version), c));
  return r;
}

// Why @p v cannot run @p c on @p d, or "".
std::string reason_to_skip(Version v, const StageConfig& c, const lab::DeviceInfo& d, int resident) {
  std::string why;
  if (!version_supported(v, d, &why)) return why;
  if (shared_bytes(v, c) > d.shared_per_block_optin)
    return "needs " + std::to_string(shared_bytes(v, c)) + " B of shared memory per block; the opt-in limit is " +
           std::to_string(d.shared_per_block_optin);
  if (resident < 1) return "not one block fits an SM";
  return "";
}

}  // namespace

ConfigRun Bench::run(const VersionSpec& spec, const OccupancyPoint& point, int work, int reps) {
  const Version v = version_of(spec.version);
  const StageConfig c = config(spec, point, work);
  ConfigRun r = describe(spec, point, c);
  std::string why = left_out_[static_cast<int>(v)];
  if (!why.empty() || !version_supported(v, device_, &why)) {
    r.skipped = why;
    return r;
  }
  r.resident_per_sm = shared_bytes(v, c) <= device_.shared_per_block_optin ? resident_blocks_per_sm(v, c) : 0;
  r.skipped = reason_to_skip(v, c, device_, r.resident_per_sm);
  if (!r.skipped.empty()) return r;
  r.registers = registers_per_thread(v, c);
  const auto launch = [&](cudaStream_t s) {
    launch_version(v, in_.data(), out_.data(), n_, c, device_.sm_count, s, nullptr);
  };
  out_.poison(stream_);
  launch(stream_);
  stream_.synchronize();
  r.wrong = check(c, &r.checked);
  out_.poison(stream_);  // a timed launch that writes nothing fails the check after timing
  lab::MeasureConfig measure;
  measure.warmup = 1;
  measure.samples = reps;
  r.ms = lab::measure_ms(launch, stream_, measure);
  stream_.synchronize();
  r.wrong_after = check(c, &r.checked);
  return r;
}

std::vector<double> Bench::time_copy(int reps) {
  lab::MeasureConfig measure;
  measure.samples = reps;
  return lab::measure_ms(
      [&](cudaStream_t s) {
        LAB_CHECK(cudaMemcpyAsync(out_.data(), in_.data(), out_.bytes(), cudaMemcpyDeviceToDevice, s));
      },
      stream_, measure);
}

StampRun Bench::stamped(const VersionSpec& spec, const OccupancyPoint& point, int work) {
  const Version v = version_of(spec.version);
  const StageConfig c = config(spec, point, work);
  StampRun s;
  s.config = describe(spec, point, c);
  std::string why = left_out_[static_cast<int>(v)];
  if (!why.empty() || !version_supported(v, device_, &why)) {
    s.config.skipped = why;
    return s;
  }
  s.config.resident_per_sm = shared_bytes(v, c) <= device_.shared_per_block_optin ? resident_blocks_per_sm(v, c) : 0;
  s.config.skipped = reason_to_skip(v, c, device_, s.config.resident_per_sm);
  if (!s.config.skipped.empty()) return s;
  const int blocks = grid_blocks(c, device_.sm_count);
  s.tiles_per_block = tiles_per_block(n_, c, device_.sm_count);
  lab::DeviceBuffer<StageStamps> stamps(static_cast<std::size_t>(blocks * s.tiles_per_block));
  LAB_CHECK(cudaMemsetAsync(stamps.data(), 0, stamps.bytes(), stream_));
  out_.poison(stream_);
  launch_version(v, in_.data(), out_.data(), n_, c, device_.sm_count, stream_, stamps.data());
  stream_.synchronize();
  s.config.wrong = check(c, &s.config.checked);
  s.summary = summarise_stamps(stamps.download(), blocks, s.tiles_per_block);
  return s;
}

Sweep run_side_by_side(Bench& bench, Bench& small, int work, int reps) {
  Sweep s{bench.n(), static_cast<double>(bench.device().l2_bytes), bench.device().sm_count, bench.time_copy(reps), {}};
  for (const OccupancyPoint& point : extreme_points()) {
    for (const VersionSpec& spec : side_by_side_specs()) {
      ConfigRun r = bench.run(spec, point, work, reps);
      const ConfigRun whole = small.run(spec, point, work, 1);  // every value of a smaller output
      r.checked += whole.checked;
      if (r.wrong.empty()) r.wrong = whole.wrong;
      if (r.wrong_after.empty()) r.wrong_after = whole.wrong_after;
      s.runs.push_back(r);
    }
  }
  return s;
}

Sweep run_stage_sweep(Bench& bench, int work, int reps) {
  Sweep s{bench.n(), static_cast<double>(bench.device().l2_bytes), bench.device().sm_count, bench.time_copy(reps), {}};
  for (const OccupancyPoint& point : occupancy_points()) {
    for (const VersionSpec& spec : version_specs()) s.runs.push_back(bench.run(spec, point, work, reps));
  }
  const std::vector<double> after = bench.time_copy(reps);  // the copy before and after the sweep: all samples count
  s.copy_ms.insert(s.copy_ms.end(), after.begin(), after.end());
  return s;
}

Sweep run_work_sweep(Bench& bench, const std::vector<int>& works, int reps) {
  Sweep s{bench.n(), static_cast<double>(bench.device().l2_bytes), bench.device().sm_count, bench.time_copy(reps), {}};
  for (int work : works) {
    for (const OccupancyPoint& point : extreme_points()) {
      for (const VersionSpec& spec : version_specs()) s.runs.push_back(bench.run(spec, point, work, reps));
    }
  }
  return s;
}

StampsRun run_stamps(Bench& bench, int work, double copy_gbps) {
  StampsRun s{bench.n(), copy_gbps, {}};
  for (const OccupancyPoint& point : extreme_points()) {
    for (const VersionSpec& spec : version_specs()) s.runs.push_back(bench.stamped(spec, point, work));
  }
  return s;
}

}  // namespace ch12
