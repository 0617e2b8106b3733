// Chapter 07's checks replayed on the kept runs: the structs of data.hpp
// rebuilt from each run's JSON (every sample, the clock readings, NVML's
// readings during the load, the device's L2), fed to the chapter's functions,
// and each verdict compared with the one the run printed. H200:
// docs/results/h200-2026-12-02e (code 37ba1db). H100: run 5 of
// 2026-11-25 (older code: same table ids and columns; its cooling check asked
// for 1.2x warm instead of "above the slowest warm sample"). No GPU.
//
// Not rebuilt: load_correct and clocked_correct (their results are in no
// table, only in the checks' own text).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"

namespace {

using lab_test::by_id;
using lab_test::KeptRun;
using lab_test::samples;

constexpr const char* kH200 = lab_test::kH200Run;
constexpr const char* kH100 = lab_test::kH100Run;
constexpr const char* kChapter = "ch07_cache_and_clock";

ch07::WorkingSetRun working_set_of(const KeptRun& run, const std::string& role) {
  ch07::WorkingSetRun set;
  set.role = role;
  set.l2_bytes = run.device().at("l2_bytes").get<std::size_t>();
  const ch07::Preceding kinds[] = {ch07::Preceding::nothing, ch07::Preceding::spin, ch07::Preceding::write_flush,
                                   ch07::Preceding::read_flush};
  for (const nlohmann::json& row : run.rows("working_set_" + role)) {
    set.bytes = row.at("working_set_bytes").get<std::size_t>();
    const std::string name = row.at("name").get<std::string>();
    ch07::CacheCase c;
    for (const ch07::Preceding p : kinds)
      if (name.rfind(std::string(ch07::preceding_name(p)) + ",", 0) == 0) c.preceding = p;
    c.placement =
        name.find("isolated") != std::string::npos ? ch07::Placement::isolated : ch07::Placement::blocked_stream;
    c.ms = samples(row);
    c.correct = row.value("result", "") == "correct";
    set.cases.push_back(c);
  }
  return set;
}

ch07::ClockRun clock_of(const KeptRun& run) {
  ch07::ClockRun clock;
  const std::vector<nlohmann::json> rows = run.rows("clock");  // idle, under load, right after
  clock.nominal_mhz = run.device().at("nominal_sm_clock_mhz").get<double>();
  clock.probe_ms = 2.0;  // "idle (probes of 2.0 ms)"
  clock.idle_kernel_mhz = samples(rows.at(0));
  clock.load_kernel_mhz = samples(rows.at(1));
  clock.after_kernel_mhz = samples(rows.at(2)).at(0);
  clock.timer_step_ns = run.row("clock_error", "%globaltimer's smallest step, ns").at("value").get<double>();
  const auto at = rows.at(1).at("nvml_at_ms").get<std::vector<double>>();
  const auto mhz = rows.at(1).at("nvml_sm_clock_mhz").get<std::vector<double>>();
  const auto watts = rows.at(1).at("nvml_power_watts").get<std::vector<double>>();
  const auto reasons = rows.at(1).at("nvml_clock_reasons").get<std::vector<unsigned long long>>();
  for (std::size_t i = 0; i < at.size(); ++i) clock.load_nvml.push_back({at[i], mhz[i], watts[i], true, reasons[i]});
  clock.load_correct = run.passed("load_correct");  // in no table (see the header)
  return clock;
}

void replay(const KeptRun& run) {
  ch07::CacheRun cache{working_set_of(run, "small"), working_set_of(run, "large")};
  CHECK(cache.small.bytes <= cache.small.l2_bytes);  // half the L2: only the small set is judged
  CHECK(cache.large.bytes == 8 * cache.large.l2_bytes);
  const std::vector<lab::Finding> findings = ch07::cache_checks(cache);
  CHECK(by_id(findings, "cases_correct").passed == run.passed("cases_correct"));
  CHECK(by_id(findings, "cooling_small").passed == run.passed("cooling_small"));
  CHECK(by_id(findings, "cooling_small").value("write_flush_us").number() ==
        doctest::Approx(run.finding("cooling_small").at("values").at("write_flush_us").get<double>()));
  CHECK_FALSE(lab_test::has_id(findings, "cooling_large"));  // eight times the L2: not judged

  const std::vector<lab::Finding> clock = ch07::clock_checks(clock_of(run));
  // load_clock is an observation: its branch is the verdict.
  CHECK(by_id(clock, "load_clock").id == run.finding("load_clock").at("finding_id").get<std::string>());
  CHECK(by_id(clock, "load_clock").value("clock_reasons").number() ==
        run.finding("load_clock").at("values").at("clock_reasons").get<double>());
}

}  // namespace

TEST_CASE("ch07 replay, H200 2026-12-02e: every rebuilt check gives the verdict the run printed") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  replay(run);
  // The write flush's median against the slowest warm sample: 15.20 against 8.03 us.
  const ch07::CacheRun cache{working_set_of(run, "small"), working_set_of(run, "large")};
  CHECK(by_id(ch07::cache_checks(cache), "cooling_small").value("slowest_warm_us").number() ==
        doctest::Approx(8.032).epsilon(0.001));
  // The load moved the clock: a median of 1798 MHz against 1980 at idle; NVML gave "software power cap" in 40
  // of its 64 readings during the load, the first at 990 ms.
  const std::vector<lab::Finding> clock = ch07::clock_checks(clock_of(run));
  CHECK(by_id(clock, "load_clock").id == "load_clock.moved");
  CHECK(by_id(clock, "load_clock").value("load_mhz").number() == doctest::Approx(1797.578).epsilon(0.0001));
  CHECK(by_id(clock, "load_clock").value("readings_with_reason").number() == 40);
  CHECK(by_id(clock, "load_clock").value("nvml_readings").number() == 64);
}

TEST_CASE("ch07 replay, H100 run 5 of 2026-11-25: the new code's verdicts on the older run's numbers") {
  const KeptRun run = KeptRun::load(kH100, kChapter);
  // Run 5 printed cooling_small.in_l2 (asked: 1.2x warm); the new threshold (the write flush's median above the
  // slowest warm sample, 16.08 against 7.97 us) passes too: the same verdict on both GPUs. load_clock.moved on both
  // (H200 1798 MHz under load, H100 1845 MHz; idle 1980 MHz on both), with "software power cap" (bit 0x4) on both.
  CHECK(run.finding("cooling_small").at("finding_id").get<std::string>() == "cooling_small.in_l2");
  replay(run);
}
