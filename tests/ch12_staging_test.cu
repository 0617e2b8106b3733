// Chapter 12 on the GPU: the direct, sync_staged and pipeline versions equal
// the CPU (every value, bit for bit) for each stage count, for tiles that leave
// a short last one and for tiles that fill the opt-in shared memory; the stamps
// are ordered and cover every tile; a bench run checks before and after timing;
// invalid configurations throw.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "checks_stages.hpp"
#include "device.cuh"
#include "experiments.cuh"
#include "memory.cuh"
#include "staging.cuh"
#include "stream.cuh"
#include "tables.hpp"
#include "verify.hpp"

namespace {

const lab::DeviceInfo& device() {
  static const lab::DeviceInfo info = lab::query_device(0);
  return info;
}

// Runs @p v on @p n random floats into a poisoned output and compares every value with the CPU.
lab::Comparison run_and_compare(ch12::Version v, std::int64_t n, const ch12::StageConfig& c) {
  const std::vector<float> input = lab::random_floats(static_cast<std::size_t>(n), 12);
  lab::DeviceBuffer<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  in.upload(input);
  lab::Stream stream;
  out.poison(stream);
  ch12::launch_version(v, in.data(), out.data(), n, c, device().sm_count, stream, nullptr);
  stream.synchronize();
  return lab::compare(out.download(), ch12::reference(input, c.tile_floats, c.work));
}

}  // namespace

TEST_CASE("staging: direct, sync_staged and pipeline 1-4 equal the CPU, short last tile included") {
  const std::int64_t n = (std::int64_t{1} << 16) + 1004;
  for (int blocks_per_sm : {1, 8}) {
    for (int tile : {512, 1000}) {
      for (int work : {0, 7}) {
        for (ch12::Version v : {ch12::Version::direct, ch12::Version::sync_staged}) {
          const lab::Comparison c = run_and_compare(v, n, {tile, 1, blocks_per_sm, work});
          CHECK_MESSAGE(c.passed(), ch12::version_name(v) << " tile " << tile << ": " << c.detail());
        }
        for (int stages = 1; stages <= ch12::kMaxStages; ++stages) {
          const lab::Comparison c = run_and_compare(ch12::Version::pipeline, n, {tile, stages, blocks_per_sm, work});
          CHECK_MESSAGE(c.passed(), "pipeline x" << stages << " tile " << tile << ": " << c.detail());
        }
      }
    }
  }
}

TEST_CASE("staging: tiles that fill the opt-in shared memory, one block per SM") {
  ch12::Bench bench((std::int64_t{1} << 20) + 1004, 5, 2048, device());
  const ch12::OccupancyPoint full = ch12::extreme_points().back();
  for (const ch12::VersionSpec& spec :
       {ch12::VersionSpec{"sync_staged", 1}, ch12::VersionSpec{"pipeline", 2}, ch12::VersionSpec{"pipeline", 4}}) {
    const ch12::ConfigRun r = bench.run(spec, full, 3, 2);
    REQUIRE_MESSAGE(r.skipped.empty(), r.skipped);
    CHECK(r.resident_per_sm >= 1);
    CHECK(r.shared_bytes > 48 * 1024);
    CHECK_MESSAGE(ch12::correct(r), ch12::run_label(r) << ": " << r.wrong << r.wrong_after);
    CHECK(r.ms.size() == 2);
  }
}

TEST_CASE("staging: the stamps are ordered and cover every tile") {
  ch12::Bench bench((std::int64_t{1} << 20) + 1004, 6, 2048, device());
  for (const ch12::VersionSpec& spec :
       {ch12::VersionSpec{"direct", 0}, ch12::VersionSpec{"sync_staged", 1}, ch12::VersionSpec{"pipeline", 3}}) {
    const ch12::StampRun s = bench.stamped(spec, ch12::extreme_points().front(), 2);
    REQUIRE(s.config.skipped.empty());
    CHECK(ch12::correct(s.config));
    const ch12::StageConfig c = bench.config(spec, ch12::extreme_points().front(), 2);
    CHECK(s.summary.tiles == ch12::tile_count(bench.n(), c));
    CHECK(s.summary.compute_ns > 0);
    CHECK(s.summary.copy_ns >= 0);
  }
}

TEST_CASE("staging: a bench run checks before and after timing, and the copy is timed") {
  ch12::Bench bench(std::int64_t{1} << 22, 7, 2048, device());  // checked in windows
  const ch12::ConfigRun r = bench.run({"pipeline", 2}, ch12::extreme_points().front(), 4, 3);
  REQUIRE(r.skipped.empty());
  CHECK(r.ms.size() == 3);
  CHECK(r.checked == 2 * ch12::kCheckWindows * ch12::kWindowFloats);
  CHECK_MESSAGE(ch12::correct(r), r.wrong << r.wrong_after);
  CHECK(bench.time_copy(3).size() == 3);
}

TEST_CASE("staging: invalid configurations throw before any launch") {
  float* none = nullptr;
  CHECK_THROWS_AS(ch12::launch_version(ch12::Version::pipeline, none, none, 1024, {512, 5, 1, 0}, 1, nullptr, nullptr),
                  std::invalid_argument);
  CHECK_THROWS_AS(ch12::launch_version(ch12::Version::sync_staged, none, none, 1024, {6, 1, 1, 0}, 1, nullptr, nullptr),
                  std::invalid_argument);
  CHECK_THROWS_AS(ch12::launch_version(ch12::Version::direct, none, none, 1022, {512, 1, 1, 0}, 1, nullptr, nullptr),
                  std::invalid_argument);
}
