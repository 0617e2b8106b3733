// Chapter 12's checks on hand-made data: every branch of every function in
// chapters/12_async_copies/checks_*.hpp (its id, verdict and numbers), its tables, the
// stage model on hand-worked numbers, the options and the CPU reference. No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "checks_bandwidth.hpp"
#include "checks_stages.hpp"
#include "checks_versions.hpp"
#include "options.hpp"
#include "overlap_model.hpp"
#include "stencil.cuh"
#include "support/findings_support.hpp"
#include "tables.hpp"
#include "vocabulary.hpp"

namespace {

using lab_test::by_id;
using lab_test::value;

constexpr std::int64_t kN = std::int64_t{1} << 20;  // floats per buffer in the hand-made sweeps

// The ms that move kN floats in and out at @p gbps.
double ms_at(double gbps) { return ch12::bytes_moved(kN) / (gbps * 1e9) * 1e3; }

ch12::ConfigRun run(const std::string& point, const std::string& version, int stages, double gbps, int work = 4) {
  ch12::ConfigRun r;
  r.point = point;
  r.version = version;
  r.stages = stages;
  r.blocks_per_sm = point == "8/SM" ? 8 : 1;
  r.tile_floats = point == "1/SM full" ? 28672 / std::max(1, stages) : 2048;
  r.work = work;
  r.threads = point == "8/SM" ? 256 : 512;
  r.resident_per_sm = r.blocks_per_sm;
  r.registers = 32;
  r.ms = {ms_at(gbps), ms_at(gbps), ms_at(gbps)};
  r.checked = 2048;
  return r;
}

ch12::ConfigRun skipped(const std::string& point, const std::string& version, int stages, const std::string& why) {
  ch12::ConfigRun r = run(point, version, stages, 1);
  r.ms.clear();
  r.checked = 0;
  r.skipped = why;
  return r;
}

// The copy at 3000 GB/s, 8 x a 0.5 MiB "L2" (n = 4 MiB per buffer); at 8/SM sync 2760 (92 %) and pipeline 2800;
// at 1/SM full sync 1000 and pipeline x2 2600 (2.6x); tma skipped.
ch12::Sweep sweep(double l2_bytes = 0.5 * 1024 * 1024) {
  ch12::Sweep s;
  s.n = kN;
  s.l2_bytes = l2_bytes;
  s.sm_count = 132;
  s.copy_ms = {ms_at(3000), ms_at(3000)};
  s.runs = {run("8/SM", "direct", 0, 2700),        run("8/SM", "sync_staged", 1, 2760),
            run("8/SM", "pipeline", 2, 2800),      skipped("8/SM", "tma", 2, "TMA needs compute capability 9.0"),
            run("1/SM full", "direct", 0, 1500),   run("1/SM full", "sync_staged", 1, 1000),
            run("1/SM full", "pipeline", 2, 2600), skipped("1/SM full", "tma", 2, "TMA needs compute capability 9.0")};
  return s;
}

ch12::ConfigRun* find(ch12::Sweep& s, const std::string& point, const std::string& version) {
  for (ch12::ConfigRun& r : s.runs)
    if (r.point == point && r.version == version) return &r;
  return nullptr;
}

}  // namespace

// --- configurations and helpers --------------------------------------------------------

TEST_CASE("ch12 configurations: points, specs and fill tiles") {
  const auto points = ch12::occupancy_points();
  REQUIRE(points.size() == 5);
  CHECK(points.front().blocks_per_sm == 8);
  CHECK(points.back().fill);
  CHECK(ch12::extreme_points().size() == 2);
  CHECK(ch12::extreme_points().back().name == "1/SM full");
  CHECK(ch12::version_specs().size() == 10);
  CHECK(ch12::side_by_side_specs().size() == 4);
  // 227 KiB opt-in less 1 KiB: 57856 floats for one buffer, 28928 for two, rounded down to 128.
  CHECK(ch12::fill_tile_floats(232448, 1024, 1) == 57856);
  CHECK(ch12::fill_tile_floats(232448, 1024, 2) == 28928);
  CHECK(ch12::fill_tile_floats(232448, 1024, 3) == 19200);
  CHECK(ch12::fill_tile_floats(512, 1024, 1) == 0);
  CHECK(ch12::bytes_moved(1000) == 8000.0);
  CHECK(ch12::run_label(run("8/SM", "pipeline", 3, 1)) == "pipeline x3 @ 8/SM, w4");
  CHECK(ch12::run_label(run("8/SM", "sync_staged", 1, 1)) == "sync_staged @ 8/SM, w4");
  CHECK(ch12::pipelined(run("8/SM", "tma", 1, 1)));
  CHECK_FALSE(ch12::pipelined(run("8/SM", "sync_staged", 1, 1)));
  CHECK_FALSE(ch12::pipelined(skipped("8/SM", "tma", 1, "no")));
  CHECK(ch12::correct(run("8/SM", "direct", 0, 1)));
  ch12::ConfigRun late = run("8/SM", "direct", 0, 1);
  late.wrong_after = "1 of 2048 values differ";
  CHECK_FALSE(ch12::correct(late));
  CHECK(ch12::run_gbps(run("8/SM", "direct", 0, 2500), kN) == doctest::Approx(2500));
}

TEST_CASE("ch12 options: buffer size, work values, tiles, memory") {
  ch12::Options o;
  CHECK(ch12::buffer_floats(o, 50 * 1024 * 1024) == 8 * 50 * 1024 * 1024 / 4);  // 8 x the L2
  o.mib = 16;
  CHECK(ch12::buffer_floats(o, 50 * 1024 * 1024) == 4 * 1024 * 1024);
  CHECK(ch12::memory_need(o, 0).device_bytes == 32.0 * 1024 * 1024);
  o.max_work = 20;
  CHECK(ch12::work_values(o) == std::vector<int>{0, 1, 4, 16});
  o.max_work = 0;
  CHECK(ch12::work_values(o) == std::vector<int>{0});
  CHECK(ch12::small_tile_floats(o) == 2048);
  CHECK(ch12::kSmallCheckFloats % 4 == 0);
}

TEST_CASE("ch12 reference: the tile-local stencil wraps inside each tile, the last one short") {
  const std::vector<float> in{1, 2, 3, 4, 5, 6};
  const std::vector<float> out = ch12::reference(in, 4, 0);
  // Tile [1 2 3 4]: element 0's neighbours are 4 and 2; tile [5 6]: element 4's are 6 and 6.
  CHECK(out[0] == 0.25f * (4 + 2) + 0.5f * 1);
  CHECK(out[3] == 0.25f * (3 + 1) + 0.5f * 4);
  CHECK(out[4] == 0.25f * (6 + 6) + 0.5f * 5);
  for (std::int64_t i = 0; i < 6; ++i) CHECK(ch12::reference_at(in, i, 4, 3) == ch12::reference(in, 4, 3)[i]);
  CHECK(ch12::stencil_point(0, 0, 0, 1) == 0.001f);
}

// --- 1. versions ----------------------------------------------------------------------

TEST_CASE("ch12 sweep_table: a row per run, against sync_staged, skipped ones say why") {
  const lab::ResultTable t = ch12::sweep_table("versions", "title", sweep());
  CHECK(t.rows().size() == 8);
  CHECK(lab_test::cell(t, "pipeline x2 @ 1/SM full, w4", "gbps") == doctest::Approx(2600));
  CHECK(lab_test::cell(t, "sync_staged @ 8/SM, w4", "percent_of_copy") == doctest::Approx(92));
  CHECK(lab_test::cell(t, "pipeline x2 @ 1/SM full, w4", "vs_sync") == doctest::Approx(2.6));
  CHECK(lab_test::cell(t, "pipeline x2 @ 8/SM, w4", "vs_sync") == doctest::Approx(2800.0 / 2760));
  CHECK(lab_test::cell(t, "sync_staged @ 8/SM, w4", "vs_sync") == doctest::Approx(1.0));
  CHECK(lab_test::cell(t, "direct @ 8/SM, w4", "registers") == 32);
  CHECK(t.row("tma x2 @ 8/SM, w4").get("skipped").text() == "TMA needs compute capability 9.0");
  CHECK(t.row("tma x2 @ 8/SM, w4").get("vs_sync").is_none());
}

TEST_CASE("ch12 vs_sync_staged: against sync_staged at the same point and work, NaN without it") {
  ch12::Sweep s = sweep();
  CHECK(ch12::vs_sync_staged(s, *find(s, "1/SM full", "direct")) == doctest::Approx(1.5));
  find(s, "1/SM full", "sync_staged")->ms.clear();
  CHECK(std::isnan(ch12::vs_sync_staged(s, *find(s, "1/SM full", "direct"))));
  CHECK(std::isnan(ch12::vs_sync_staged(s, run("8/SM", "direct", 0, 2700, 16))));  // no sync_staged at w16
}

TEST_CASE("ch12 versions_exact: all exact, wrong before or after timing, none ran") {
  ch12::Sweep s = sweep();
  CHECK(by_id(ch12::versions_checks(s), "versions_exact").id == "versions_exact.all");
  CHECK(by_id(ch12::versions_checks(s), "versions_exact").passed);
  CHECK(value(ch12::versions_checks(s), "versions_exact", "runs") == 6);
  find(s, "1/SM full", "pipeline")->wrong_after = "1 of 2048 values differ";
  const lab::Finding after = by_id(ch12::versions_checks(s), "versions_exact");
  CHECK(after.id == "versions_exact.wrong");
  CHECK_FALSE(after.passed);
  CHECK(lab_test::contains(after.text, "(after timing)"));
  find(s, "8/SM", "direct")->wrong = "3 of 2048 values differ";
  CHECK(lab_test::contains(by_id(ch12::versions_checks(s), "versions_exact").text, "direct @ 8/SM"));
  for (ch12::ConfigRun& r : s.runs) r.skipped = "no";
  CHECK(by_id(ch12::versions_checks(s), "versions_exact").id == "versions_exact.none_ran");
  CHECK_FALSE(by_id(ch12::versions_checks(s), "versions_exact").passed);
}

// --- 2. bandwidth ----------------------------------------------------------------------

TEST_CASE("ch12 copy_table and sweep_table") {
  const lab::ResultTable copy = ch12::copy_table(sweep());
  CHECK(lab_test::cell(copy, "cudaMemcpyAsync device to device", "gbps") == doctest::Approx(3000));
  CHECK(lab_test::cell(copy, "cudaMemcpyAsync device to device", "l2_multiple") == doctest::Approx(8));
  const lab::ResultTable t = ch12::sweep_table("stage_sweep", "title", sweep());
  CHECK(t.id() == "stage_sweep");
  CHECK(lab_test::cell(t, "pipeline x2 @ 8/SM, w4", "percent_of_copy") == doctest::Approx(93.333).epsilon(1e-3));
  CHECK(t.row("tma x2 @ 1/SM full, w4").get("skipped").text() == "TMA needs compute capability 9.0");
  CHECK(lab_test::cell(t, "pipeline x2 @ 1/SM full, w4", "vs_sync") == doctest::Approx(2.6));
}

TEST_CASE("ch12 high_occupancy_gap: within, pipelined faster, pipelined slower, not measured") {
  CHECK(by_id(ch12::stage_sweep_checks(sweep()), "high_occupancy_gap").id == "high_occupancy_gap.within");
  CHECK(value(ch12::stage_sweep_checks(sweep()), "high_occupancy_gap", "ratio") == doctest::Approx(2800.0 / 2760.0));
  ch12::Sweep gap = sweep();
  find(gap, "8/SM", "pipeline")->resident_per_sm = 6;  // each row's own residency, the best's and sync_staged's
  CHECK(value(ch12::stage_sweep_checks(gap), "high_occupancy_gap", "best_resident_per_sm") == 6);
  CHECK(value(ch12::stage_sweep_checks(gap), "high_occupancy_gap", "sync_resident_per_sm") == 8);
  *find(gap, "8/SM", "sync_staged") = run("8/SM", "sync_staged", 1, 2000);
  CHECK(by_id(ch12::stage_sweep_checks(gap), "high_occupancy_gap").id == "high_occupancy_gap.pipelined_faster");
  *find(gap, "8/SM", "sync_staged") = run("8/SM", "sync_staged", 1, 3100);  // 2800 / 3100 = 0.90x
  CHECK(by_id(ch12::stage_sweep_checks(gap), "high_occupancy_gap").id == "high_occupancy_gap.pipelined_slower");
  find(gap, "8/SM", "sync_staged")->ms.clear();
  CHECK(by_id(ch12::stage_sweep_checks(gap), "high_occupancy_gap").id == "high_occupancy_gap.not_measured");
}

TEST_CASE("ch12 stage sweep: a version none of whose rows ran is a skipped section; one that ran in part is not") {
  auto skipped_ids = [](const std::vector<lab::Finding>& f) {
    std::vector<std::string> ids;
    for (const lab::Finding& x : f)
      if (x.id.size() > 8 && x.id.substr(x.id.size() - 8) == ".skipped") ids.push_back(x.id);
    return ids;
  };
  ch12::Sweep s = sweep();  // its tma rows are all skipped
  CHECK(skipped_ids(ch12::stage_sweep_checks(s)) == std::vector<std::string>{"version_tma.skipped"});
  for (ch12::ConfigRun& r : s.runs)
    if (r.version == "sync_staged") r.skipped = "left out";
  CHECK(skipped_ids(ch12::stage_sweep_checks(s)) ==
        std::vector<std::string>{"version_sync_staged.skipped", "version_tma.skipped"});
  s = sweep();
  for (ch12::ConfigRun& r : s.runs)
    if (r.version == "pipeline" && r.point == "8/SM") r.skipped = "needs more shared memory";  // one row of two
  CHECK(skipped_ids(ch12::stage_sweep_checks(s)) == std::vector<std::string>{"version_tma.skipped"});
}

TEST_CASE("ch12 work sweep: at 90 % of the copy throughout, below it from a work, nothing ran") {
  ch12::Sweep s = sweep();
  s.runs.clear();
  for (int w : {0, 16, 64}) {
    const double full = w == 64 ? 1500 : 2750;  // at 1/SM full the fastest falls to 50 % at 64 FMAs
    s.runs.push_back(run("8/SM", "pipeline", 2, 2800, w));
    s.runs.push_back(run("1/SM full", "pipeline", 2, full, w));
    s.runs.push_back(run("1/SM full", "sync_staged", 1, full / 2, w));
  }
  const auto f = ch12::work_sweep_checks(s);
  CHECK(by_id(f, "below_copy_high_occupancy").id == "below_copy_high_occupancy.never");
  CHECK(value(f, "below_copy_high_occupancy", "most_work") == 64);
  CHECK(by_id(f, "below_copy_full_shared").id == "below_copy_full_shared.from");
  CHECK(value(f, "below_copy_full_shared", "work") == 64);
  CHECK(value(f, "below_copy_full_shared", "fastest_over_slowest") == doctest::Approx(2.0));
  // The printed sentence is a measured comparison: no cause.
  CHECK(by_id(f, "below_copy_full_shared").text.find("cannot help") == std::string::npos);
  s.runs.resize(0);
  CHECK(by_id(ch12::work_sweep_checks(s), "below_copy_full_shared").id == "below_copy_full_shared.not_measured");
}

// --- 3. stamps -------------------------------------------------------------------------

TEST_CASE("ch12 summarise_stamps: waits, computes, copies, spans; unused slots; too few stamps") {
  // Block 0: tile 0 issued 0, ready 100, computed 150; tile 1 issued 120, ready 200, computed 260.
  // Block 1: tile 0 issued 10, ready 60, computed 110; slot 1 unused.
  const std::vector<ch12::StageStamps> stamps{{0, 100, 150}, {120, 200, 260}, {10, 60, 110}, {0, 0, 0}};
  const ch12::StampSummary s = ch12::summarise_stamps(stamps, 2, 2);
  CHECK(s.tiles == 3);
  CHECK(s.wait_ns == doctest::Approx((100 + 50 + 50) / 3.0));    // 100, 200 - 150, 60 - 10
  CHECK(s.compute_ns == doctest::Approx((50 + 60 + 50) / 3.0));  // 50, 60, 50
  CHECK(s.copy_ns == doctest::Approx((100 + 80 + 50) / 3.0));    // 100, 80, 50
  CHECK(s.block_ns == doctest::Approx((260 + 100) / 2.0));       // 260 - 0, 110 - 10
  CHECK(s.wait_share == doctest::Approx(100.0 * 200 / 360));
  CHECK(ch12::summarise_stamps({}, 0, 4).tiles == 0);
  CHECK_THROWS_AS(ch12::summarise_stamps(stamps, 3, 2), std::invalid_argument);
}

namespace {

ch12::StampRun stamped(const std::string& point, const std::string& version, int stages, double wait, double compute,
                       double copy) {
  ch12::StampRun r;
  r.config = run(point, version, stages, 1);
  r.config.ms.clear();
  r.tiles_per_block = 10;
  r.summary.tiles = 1320;
  r.summary.wait_ns = wait;
  r.summary.compute_ns = compute;
  r.summary.copy_ns = copy;
  r.summary.wait_share = 100.0 * wait / (wait + compute);
  return r;
}

// At 1/SM full: sync waits 75 %, pipeline x2 10 %; at 8/SM: sync 40 %, pipeline 30 %.
ch12::StampsRun stamps_run() {
  ch12::StampsRun s;
  s.n = kN;
  s.copy_gbps = 3000;
  s.runs = {
      stamped("8/SM", "sync_staged", 1, 400, 600, 400),      stamped("8/SM", "pipeline", 1, 400, 600, 400),
      stamped("8/SM", "pipeline", 2, 300, 700, 900),         stamped("1/SM full", "sync_staged", 1, 3000, 1000, 3000),
      stamped("1/SM full", "pipeline", 1, 3000, 1000, 3000), stamped("1/SM full", "pipeline", 2, 111, 1000, 3000)};
  return s;
}

}  // namespace

TEST_CASE("ch12 stamps: table and exact runs") {
  const ch12::StampsRun s = stamps_run();
  const lab::ResultTable t = ch12::stamps_table(s);
  CHECK(lab_test::cell(t, "pipeline x2 @ 1/SM full, w4", "wait_ns") == 111);
  CHECK(lab_test::cell(t, "sync_staged @ 1/SM full, w4", "wait_share") == doctest::Approx(75));
  const auto f = ch12::stamps_checks(s);
  CHECK(f.size() == 1);
  CHECK(by_id(f, "stamped_exact").id == "stamped_exact.all");
  CHECK(value(f, "stamped_exact", "runs") == 6);
  ch12::StampsRun bad = stamps_run();
  bad.runs[2].config.wrong = "1 of 2048 values differ";
  CHECK(by_id(ch12::stamps_checks(bad), "stamped_exact").id == "stamped_exact.wrong");
  CHECK_FALSE(by_id(ch12::stamps_checks(bad), "stamped_exact").passed);
  bad.runs.clear();
  CHECK_FALSE(by_id(ch12::stamps_checks(bad), "stamped_exact").passed);
}

// --- 4. model -------------------------------------------------------------------------

TEST_CASE("ch12 stage_model_ms: one stage adds, two overlap as chapter 05's pipeline, more hide a long copy") {
  // c = 3000 ns, k = 1000 ns, T = 10 tiles, no bandwidth floor.
  CHECK(ch12::stage_model_ms(3000, 1000, 0, 10, 1) == doctest::Approx(10 * 4000e-6));
  // s = 2: c + k + 9 max(c, k) = 3000 + 1000 + 27000 ns, chapter 05's pipelined(10) with H = 10c, K = 10k.
  ch05::LinkAndKernel m;
  m.h2d_ms = 10 * 3000e-6;
  m.kernel_ms = 10 * 1000e-6;
  CHECK(ch12::stage_model_ms(3000, 1000, 0, 10, 2) == doctest::Approx(ch05::pipelined_ms(m, 10)));
  CHECK(ch12::stage_model_ms(3000, 1000, 0, 10, 2) == doctest::Approx(31000e-6));
  // s = 4: the copy spread over 3 in flight, 1000 ns a tile: 3000 + 1000 + 9 x 1000.
  CHECK(ch12::stage_model_ms(3000, 1000, 0, 10, 4) == doctest::Approx(13000e-6));
  // A bandwidth floor of 2000 ns a tile sets the pace: 3000 + 1000 + 9 x 2000.
  CHECK(ch12::stage_model_ms(3000, 1000, 2000, 10, 4) == doctest::Approx(22000e-6));
  CHECK(ch12::stage_model_ms(100, 100, 500, 10, 1) == doctest::Approx(5000e-6));
  CHECK_THROWS_AS(ch12::stage_model_ms(1, 1, 0, 0, 2), std::invalid_argument);
  CHECK_THROWS_AS(ch12::stage_model_ms(1, 1, 0, 3, 0), std::invalid_argument);
  // 2048 floats read and written by 1056 blocks at 3000 GB/s: 16384 x 1056 / 3000 ns.
  CHECK(ch12::bandwidth_floor_ns(2048, 1056, 3000) == doctest::Approx(16384.0 * 1056 / 3000));
}

TEST_CASE("ch12 model_rows: the 1-stage stamps predict each stage count of the same version and point") {
  ch12::Sweep s = sweep();
  s.runs = {run("1/SM full", "pipeline", 1, 1000), run("1/SM full", "pipeline", 2, 2600)};
  const std::vector<ch12::ModelRow> rows = ch12::model_rows(stamps_run(), s);
  REQUIRE(rows.size() == 2);
  // 1-stage run: tile 28672 floats, c = 3000, k = 1000 ns. The 2-stage run's tiles are half: c = 1500, k = 500.
  const int blocks = 132;
  const std::int64_t per_block = ((kN + 14335) / 14336 + blocks - 1) / blocks;
  const double floor = ch12::bandwidth_floor_ns(14336, blocks, 3000);
  CHECK(rows[1].predicted_ms == doctest::Approx(ch12::stage_model_ms(1500, 500, floor, per_block, 2)));
  CHECK(rows[1].measured_ms == doctest::Approx(ms_at(2600)));
  CHECK(rows[1].version == "pipeline");
  const lab::ResultTable t = ch12::model_table(rows);
  CHECK(lab_test::cell(t, rows[1].label, "error") ==
        doctest::Approx(lab::percent_above(rows[1].predicted_ms, rows[1].measured_ms)));
}
