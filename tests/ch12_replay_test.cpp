// Chapter 12's checks replayed on the kept runs: the sweeps, the stamps and the
// stage model rebuilt from the JSON of the H200 run of 2026-12-02
// (docs/results/h200-2026-12-02e/, code at 37ba1db) and of the H100's run 5 of 2026-11-25 (older code, same tables and
// columns), fed to the chapter's functions, and each verdict and branch pinned.
// No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "checks_bandwidth.hpp"
#include "checks_stages.hpp"
#include "checks_versions.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::value;

// A row name "pipeline x2 @ 1/SM full, w4" split into its version, stages, point and work
// (run 5's `versions` rows carry only the name; later rows carry the fields too).
ch12::ConfigRun config_from(const nlohmann::json& row, int default_work) {
  ch12::ConfigRun r;
  const std::string name = row.at("name").get<std::string>();
  const std::size_t at = name.find(" @ "), comma = name.rfind(", w");
  const std::string head = name.substr(0, at);
  const std::size_t x = head.find(" x");
  r.version = row.value("version", head.substr(0, x));
  r.stages =
      row.value("stages", x == std::string::npos ? (r.version == "direct" ? 0 : 1) : std::stoi(head.substr(x + 2)));
  r.point = row.value("point", name.substr(at + 3, comma - at - 3));
  r.work = row.value("work", comma == std::string::npos ? default_work : std::stoi(name.substr(comma + 3)));
  r.blocks_per_sm = std::stoi(r.point.substr(0, r.point.find('/')));
  r.tile_floats = static_cast<int>(std::lround(row.value("tile_kib", 0.0) * 1024 / sizeof(float)));
  r.resident_per_sm = row.value("resident_per_sm", 0);
  r.registers = row.value("registers", 0);
  r.skipped = row.value("skipped", "");
  if (row.contains("samples")) r.ms = lab_test::samples(row);
  r.checked = row.value("checked", std::int64_t{1});
  if (!row.value("exact", false)) r.wrong = "not exact in the kept run";
  return r;
}

// Table @p table_id of @p run as the Sweep the chapter built, with the copy's samples.
ch12::Sweep sweep_from(const lab_test::KeptRun& run, const std::string& table_id) {
  ch12::Sweep s;
  const nlohmann::json copy = run.rows("copy").front();
  s.n = static_cast<std::int64_t>(std::llround(copy.at("mib").get<double>() * 1024 * 1024 / sizeof(float)));
  s.l2_bytes = s.n * sizeof(float) / copy.at("l2_multiple").get<double>();
  s.sm_count = run.device().at("sm_count").get<int>();
  s.copy_ms = lab_test::samples(copy);
  const int work = run.options().at("work").get<int>();
  for (const auto& row : run.rows(table_id)) s.runs.push_back(config_from(row, work));
  // Each sweep ran beside its own copy (the tables' notes: H200 4253, 4245 and 4245 GB/s); only
  // table `copy` keeps samples, so a sweep's copy is rebuilt from a row's GB/s and % of the copy.
  const nlohmann::json first = run.rows(table_id).front();
  const double gbps = first.at("gbps").get<double>() * 100 / first.at("percent_of_copy").get<double>();
  s.copy_ms = {ch12::bytes_moved(s.n) / (gbps * 1e9) * 1e3};
  return s;
}

// Section 3's stamped runs from `stage_stamps`, their tiles from the stage sweep's row of the same name.
ch12::StampsRun stamps_from(const lab_test::KeptRun& run) {
  ch12::StampsRun s;
  const ch12::Sweep sweep = sweep_from(run, "stage_sweep");
  s.n = sweep.n;
  s.copy_gbps = run.rows("copy").front().at("gbps").get<double>();
  for (const auto& row : run.rows("stage_stamps")) {
    ch12::StampRun r;
    r.config = config_from(row, run.options().at("work").get<int>());
    r.config.tile_floats = config_from(run.row("stage_sweep", row.at("name").get<std::string>()), 0).tile_floats;
    r.summary.tiles = row.at("tiles").get<std::int64_t>();
    r.summary.wait_ns = row.at("wait_ns").get<double>();
    r.summary.compute_ns = row.at("compute_ns").get<double>();
    r.summary.copy_ns = row.at("copy_ns").get<double>();
    r.summary.wait_share = row.at("wait_share").get<double>();
    r.summary.block_ns = row.at("block_us").get<double>() * 1e3;
    s.runs.push_back(r);
  }
  return s;
}

// Every prediction of section 4, recomputed, equals the run's (the model's inputs are the kept stamps).
void check_model(const lab_test::KeptRun& run) {
  const std::vector<ch12::ModelRow> rows = ch12::model_rows(stamps_from(run), sweep_from(run, "stage_sweep"));
  const std::vector<nlohmann::json> kept = run.rows("stage_model");
  REQUIRE(rows.size() == kept.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i].label == kept[i].at("name").get<std::string>());
    CHECK(rows[i].predicted_ms == doctest::Approx(kept[i].at("predicted_ms").get<double>()).epsilon(1e-9));
    CHECK(rows[i].measured_ms == doctest::Approx(kept[i].at("measured_ms").get<double>()).epsilon(1e-9));
  }
}

}  // namespace

TEST_CASE("ch12 replay: the H200 of 2026-12-02e gets the verdicts it printed") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(lab_test::kH200Run, "ch12_async_copies");

  SUBCASE("section 1: every version exact") {
    const auto f = ch12::versions_checks(sweep_from(run, "versions"));
    CHECK(by_id(f, "versions_exact").passed == run.passed("versions_exact"));
    CHECK(by_id(f, "versions_exact").id == run.finding("versions_exact").at("finding_id").get<std::string>());
  }
  SUBCASE("section 2: at 8/SM the best pipelined (tma x4, 6 resident) is within 10 % of sync_staged (0.98x)") {
    const auto f = ch12::stage_sweep_checks(sweep_from(run, "stage_sweep"));
    CHECK(by_id(f, "high_occupancy_gap").id == "high_occupancy_gap.within");
    CHECK(run.finding("high_occupancy_gap").at("finding_id") == "high_occupancy_gap.within");
    CHECK(value(f, "high_occupancy_gap", "ratio") == doctest::Approx(0.9824).epsilon(1e-3));
    CHECK(value(f, "high_occupancy_gap", "best_resident_per_sm") == 6);
    CHECK(value(f, "high_occupancy_gap", "sync_resident_per_sm") == 8);
  }
  SUBCASE("section 2: the fastest falls below 90 % of the copy from 1 FMA at 8/SM, from 4 at 1/SM full") {
    const auto f = ch12::work_sweep_checks(sweep_from(run, "work_sweep"));
    for (const char* id : {"below_copy_high_occupancy", "below_copy_full_shared"}) {
      CAPTURE(id);
      CHECK(by_id(f, id).id == run.finding(id).at("finding_id").get<std::string>());
      CHECK(value(f, id, "work") == run.finding(id).at("values").at("work").get<double>());
    }
    CHECK(value(f, "below_copy_high_occupancy", "work") == 1);
    CHECK(value(f, "below_copy_high_occupancy", "fastest_over_slowest") == doctest::Approx(1.385).epsilon(1e-3));
    CHECK(value(f, "below_copy_full_shared", "work") == 4);
    CHECK(value(f, "below_copy_full_shared", "fastest_over_slowest") == doctest::Approx(3.674).epsilon(1e-3));
  }
  SUBCASE("section 2: at 1/SM full the 4-FMA boundary holds against either copy") {
    // pipeline x3 @ 1/SM full, w1 reached 90.22 % of the work sweep's copy (4245 GB/s), tma x2 at 4 FMAs
    // 83.42 %; against table `copy`'s 4245 GB/s, taken around the stage sweep, the boundary is the same.
    ch12::Sweep s = sweep_from(run, "work_sweep");
    s.copy_ms = lab_test::samples(run.rows("copy").front());
    CHECK(value(ch12::work_sweep_checks(s), "below_copy_full_shared", "work") == 4);
  }
  SUBCASE("section 3: the stamped runs exact") {
    const auto f = ch12::stamps_checks(stamps_from(run));
    CHECK(by_id(f, "stamped_exact").passed == run.passed("stamped_exact"));
  }
  SUBCASE("section 4: the model's predictions, recomputed from the stamps") { check_model(run); }
}

// Run 5 printed older ids: high_occupancy_gap.vanishes (now three branches),
// compute_bound_* (now below_copy_*), and checks the chapter no longer has
// (versions_fastest, best_vs_copy, full_shared_speedup, wait_share_*, model_benchmark).
TEST_CASE("ch12 replay: the H100's run 5 of 2026-11-25 under today's functions") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(lab_test::kH100Run, "ch12_async_copies");

  SUBCASE("section 1: every version exact, as run 5 printed") {
    const auto f = ch12::versions_checks(sweep_from(run, "versions"));
    CHECK(by_id(f, "versions_exact").passed);
    CHECK(run.passed("versions_exact"));
  }
  SUBCASE("section 2: 0.91x at 8/SM is within 10 % (run 5 called it vanishes)") {
    const auto f = ch12::stage_sweep_checks(sweep_from(run, "stage_sweep"));
    CHECK(by_id(f, "high_occupancy_gap").id == "high_occupancy_gap.within");
    CHECK(run.finding("high_occupancy_gap").at("finding_id") == "high_occupancy_gap.vanishes");
    CHECK(value(f, "high_occupancy_gap", "ratio") ==
          doctest::Approx(run.finding("high_occupancy_gap").at("values").at("ratio").get<double>()));
  }
  SUBCASE("section 2: below 90 % of the copy from 64 FMAs at 8/SM, from 4 at 1/SM full (run 5's compute_bound_*)") {
    const auto f = ch12::work_sweep_checks(sweep_from(run, "work_sweep"));
    CHECK(by_id(f, "below_copy_high_occupancy").id == "below_copy_high_occupancy.from");
    CHECK(value(f, "below_copy_high_occupancy", "work") ==
          run.finding("compute_bound_high_occupancy").at("values").at("work").get<double>());
    CHECK(value(f, "below_copy_high_occupancy", "work") == 64);
    CHECK(by_id(f, "below_copy_full_shared").id == "below_copy_full_shared.from");
    CHECK(value(f, "below_copy_full_shared", "work") ==
          run.finding("compute_bound_full_shared").at("values").at("work").get<double>());
    CHECK(value(f, "below_copy_full_shared", "work") == 4);
  }
  SUBCASE("section 3: the stamped runs exact") {
    const auto f = ch12::stamps_checks(stamps_from(run));
    CHECK(by_id(f, "stamped_exact").passed == run.passed("stamped_exact"));
  }
  SUBCASE("section 4: the model's predictions, recomputed from the stamps") { check_model(run); }
}
