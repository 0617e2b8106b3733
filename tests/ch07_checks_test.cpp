// Chapter 07's tables and checks on hand-made data (no GPU needed): every
// branch of every finding, pinned by its id, its verdict and its numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "checks.hpp"
#include "sample_statistics.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::has_id;
using lab_test::value;

using ch07::Placement;
using ch07::Preceding;

constexpr std::size_t kMiB = std::size_t{1} << 20;

// A working set whose cases have these medians in microseconds (three equal samples each).
struct Medians {
  double nothing_isolated, nothing_blocked, spin_isolated, spin_blocked;
  double write_isolated, write_blocked, read_isolated, read_blocked;
};

ch07::WorkingSetRun working_set(const char* role, std::size_t bytes, const Medians& m) {
  ch07::WorkingSetRun set;
  set.role = role;
  set.bytes = bytes;
  set.l2_bytes = 50 * kMiB;
  auto add = [&](Preceding p, Placement placement, double us) {
    ch07::CacheCase c;
    c.preceding = p;
    c.placement = placement;
    c.ms = {us / 1000, us / 1000, us / 1000};
    c.correct = true;
    c.detail = "all equal";
    set.cases.push_back(c);
  };
  add(Preceding::nothing, Placement::isolated, m.nothing_isolated);
  add(Preceding::nothing, Placement::blocked_stream, m.nothing_blocked);
  add(Preceding::spin, Placement::isolated, m.spin_isolated);
  add(Preceding::spin, Placement::blocked_stream, m.spin_blocked);
  add(Preceding::write_flush, Placement::isolated, m.write_isolated);
  add(Preceding::write_flush, Placement::blocked_stream, m.write_blocked);
  add(Preceding::read_flush, Placement::isolated, m.read_isolated);
  add(Preceding::read_flush, Placement::blocked_stream, m.read_blocked);
  return set;
}

// The H100 shapes: 25 MiB cools (write 2.07x, read 1.49x), 400 MiB does not and looks faster flushed.
const Medians kSmall{11.30, 7.82, 7.94, 7.94, 16.21, 16.18, 11.55, 11.68};
const Medians kLarge{181.54, 176.74, 177.18, 177.20, 178.72, 178.82, 171.34, 171.17};

ch07::CacheRun cache_run(const Medians& small, const Medians& large) {
  ch07::CacheRun run;
  run.small = working_set("small", 25 * kMiB, small);
  run.large = working_set("large", 400 * kMiB, large);
  return run;
}

}  // namespace

// --- 1. warm and cold L2 ----------------------------------------------------------------

TEST_CASE("the flush's effects: each the difference of two medians") {
  const lab::ResultTable t = ch07::effects_table(working_set("small", 25 * kMiB, kSmall));
  auto us = [&](const char* effect) { return t.row(effect).get("us").number(); };
  CHECK(us("placement, nothing before") == doctest::Approx(11.30 - 7.82));
  CHECK(us("spin kernel before, isolated") == doctest::Approx(11.30 - 7.94));
  CHECK(us("write flush before, blocked") == doctest::Approx(16.18 - 7.82));
  CHECK(us("read flush before, blocked") == doctest::Approx(11.68 - 7.82));
  CHECK(us("the article's comparison") == doctest::Approx(16.21 - 11.30));
  CHECK(t.row("read flush before, blocked").get("measured_as").text() == "blocked: read flush - nothing");
}

TEST_CASE("working_set_table and effects_table: ids by the set's role, one row per case and per effect, in us") {
  const ch07::WorkingSetRun set = working_set("small", 25 * kMiB, kSmall);
  CHECK(ch07::working_set_name(set) == "fits in L2");
  CHECK(ch07::working_set_name(working_set("large", 400 * kMiB, kLarge)) == "8.0 x the L2");
  const lab::ResultTable table = ch07::working_set_table(set);
  CHECK(table.id() == "working_set_small");
  REQUIRE(table.rows().size() == 8);
  const lab::ResultTable::Row& write = table.row("write flush, blocked stream");
  CHECK(write.get("median_us").number() == doctest::Approx(16.18));
  CHECK(write.get("vs_warm").number() == doctest::Approx(16.18 / 7.82));
  CHECK(write.get("result").text() == "correct");
  const lab::ResultTable effects = ch07::effects_table(set);
  CHECK(effects.id() == "flush_effects_small");
  REQUIRE(effects.rows().size() == 5);
  CHECK(effects.row("the article's comparison").get("us").number() == doctest::Approx(16.21 - 11.30));
  CHECK(ch07::working_set_table(working_set("large", 400 * kMiB, kLarge)).id() == "working_set_large");
}

TEST_CASE("cache_checks: every case correct, or the check fails") {
  ch07::CacheRun run = cache_run(kSmall, kLarge);
  CHECK(by_id(ch07::cache_checks(run), "cases_correct").passed);
  CHECK(value(ch07::cache_checks(run), "cases_correct", "case_count") == 16);
  run.large.cases[5].correct = false;
  run.large.cases[5].detail = "3 mismatches";
  const lab::Finding wrong = by_id(ch07::cache_checks(run), "cases_correct");
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.kind == lab::Finding::Kind::correctness);
  run.small.cases.clear();
  run.large.cases.clear();
  CHECK_FALSE(by_id(ch07::cache_checks(run), "cases_correct").passed);  // no case at all is no evidence
}

TEST_CASE("cache_checks: a cold L2 slows the set that fits in it, or the timing check fails") {
  const std::vector<lab::Finding> findings = ch07::cache_checks(cache_run(kSmall, kLarge));
  const lab::Finding cools = by_id(findings, "cooling_small");
  CHECK(cools.id == "cooling_small");
  CHECK(cools.kind == lab::Finding::Kind::timing);
  CHECK(cools.passed);
  CHECK(value(findings, "cooling_small", "warm_us") == doctest::Approx(7.82));
  CHECK(value(findings, "cooling_small", "write_flush_us") == doctest::Approx(16.18));
  CHECK(value(findings, "cooling_small", "read_flush_us") == doctest::Approx(11.68));
  ch07::CacheRun spread = cache_run(kSmall, kLarge);  // one warm sample slower than the flushed median: not seen
  spread.small.cases[1].ms = {0.00782, 0.00782, 0.0170};
  CHECK(value(ch07::cache_checks(spread), "cooling_small", "slowest_warm_us") == doctest::Approx(17.0));
  CHECK_FALSE(by_id(ch07::cache_checks(spread), "cooling_small").passed);
  Medians flat = kSmall;
  flat.write_blocked = 7.82;  // the flush changed nothing
  CHECK_FALSE(by_id(ch07::cache_checks(cache_run(flat, kLarge)), "cooling_small").passed);
}

TEST_CASE("cache_checks: a set beyond the L2 is not judged, whichever role it has") {
  CHECK_FALSE(has_id(ch07::cache_checks(cache_run(kSmall, kLarge)), "cooling_large"));
  ch07::CacheRun big_small = cache_run(kLarge, kLarge);  // --small-mib larger than the L2
  big_small.small.bytes = 100 * kMiB;
  const std::vector<lab::Finding> findings = ch07::cache_checks(big_small);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "cases_correct");
}

TEST_CASE("every finding of section 1 has its own id, and the two sets never share one") {
  const std::vector<lab::Finding> findings = ch07::cache_checks(cache_run(kSmall, kLarge));
  REQUIRE(findings.size() == 2);  // correctness, then cooling of the set that fits
  for (std::size_t i = 0; i < findings.size(); ++i) {
    CHECK_FALSE(findings[i].id.empty());
    for (std::size_t j = i + 1; j < findings.size(); ++j) CHECK(findings[i].id != findings[j].id);
  }
}

// --- 2. the SM clock -------------------------------------------------------------------------

namespace {

ch07::ClockRun clock_run() {
  ch07::ClockRun run;
  run.nominal_mhz = 1980;
  run.power_limit_watts = 700;
  run.probe_ms = 2.0;
  run.idle_kernel_mhz = {1995, 1994, 1995, 1996, 1995};
  run.idle_nvml_mhz = {1980, 1980, 1980, 1980, 1980};
  run.idle_power_watts = 80;
  run.timer_step_ns = 32;
  run.timer_mean_step_ns = 32;
  run.load_ms = 3000;
  run.load_tflops = 300;
  run.load_copy_gbps = 1500;
  run.load_kernel_mhz = {1994, 1993, 1995, 1994};
  run.load_nvml = {{10, 1980, 420, true, 0}, {60, 1980, 450, true, 0}};
  run.after_kernel_mhz = 1995;
  run.after_nvml_mhz = 1980;
  run.load_correct = true;
  run.load_detail = "tensor cores: every element exact; copy: all equal";
  return run;
}

}  // namespace

TEST_CASE("clock_table and clock_error_table: idle, load, after; the method's error terms") {
  const ch07::ClockRun run = clock_run();
  const lab::ResultTable table = ch07::clock_table(run);
  CHECK(table.id() == "clock");
  REQUIRE(table.rows().size() == 3);
  CHECK(table.rows()[1].get("power_max_watts").number() == doctest::Approx(450));
  CHECK(table.rows()[1].get("nvml_mhz").number() == doctest::Approx(1980));
  // Every NVML reading of the load goes to the JSON, not only its median and maximum.
  CHECK(table.rows()[1].get("nvml_at_ms").numbers() == std::vector<double>{10, 60});
  CHECK(table.rows()[1].get("nvml_sm_clock_mhz").numbers() == std::vector<double>{1980, 1980});
  CHECK(table.rows()[1].get("nvml_power_watts").numbers() == std::vector<double>{420, 450});
  CHECK(table.rows()[1].get("nvml_clock_reasons").numbers() == std::vector<double>{0, 0});
  const lab::ResultTable errors = ch07::clock_error_table(run);
  CHECK(errors.id() == "clock_error");
  CHECK(errors.rows()[0].get("mhz").number() == doctest::Approx(2));                // 1996 - 1994
  CHECK(errors.rows()[1].get("mhz").number() == doctest::Approx(1995 * 32 / 2e6));  // a 32 ns step over 2 ms
  CHECK(errors.rows()[3].get("mhz").number() == doctest::Approx(3));                // 2 MHz spread + NVML's 1 MHz
  CHECK(errors.rows()[4].get("mhz").number() == doctest::Approx(15));               // 1995 - 1980
  ch07::ClockRun steady = run;
  steady.idle_kernel_mhz = {1980, 1980.01};  // the timer's step is the larger term now
  CHECK(ch07::clock_error_table(steady).rows()[3].get("mhz").number() == doctest::Approx(1980.005 * 32 / 2e6 + 1));
}

TEST_CASE("clock_table: nvbench's 75 % rule counted per row; NVML named the whole GPU's under MIG") {
  ch07::ClockRun run = clock_run();
  lab::ResultTable table = ch07::clock_table(run);
  for (const lab::ResultTable::Row& row : table.rows()) CHECK(row.get("below_75_percent").integer() == 0);
  CHECK(table.render().find("whole GPU") == std::string::npos);
  run.load_kernel_mhz = {1400, 1484, 1485, 1990};  // 0.75 x 1980 = 1485: two under it
  run.after_kernel_mhz = 1000;
  run.nvml_whole_gpu = true;
  table = ch07::clock_table(run);
  CHECK(table.rows()[0].get("below_75_percent").integer() == 0);
  CHECK(table.rows()[1].get("below_75_percent").integer() == 2);
  CHECK(table.rows()[2].get("below_75_percent").integer() == 1);
  CHECK(lab_test::contains(table.render(), "NVML, whole GPU [MHz]"));
  CHECK(lab_test::contains(table.render(), "power, instant, whole GPU [W]"));  // clock_run(): instantaneous power
}

TEST_CASE("clock_table: NVML's power labelled as it is returned, a 1 s average from Ampere (except GA100) on") {
  ch07::ClockRun run = clock_run();
  run.power_averaged = true;  // an H100: nvmlDeviceGetPowerUsage averages over 1 s
  lab::ResultTable table = ch07::clock_table(run);
  CHECK(table.rows()[1].get("power_averaged_1s").boolean());
  CHECK(lab_test::contains(table.render(), "power, 1 s avg [W]"));  // the column's label, not a sentence
  CHECK(lab_test::contains(table.render(), "max power, 1 s avg [W]"));
  run.power_averaged = false;  // GA100 and older: instantaneous power
  table = ch07::clock_table(run);
  CHECK_FALSE(table.rows()[1].get("power_averaged_1s").boolean());
  CHECK(lab_test::contains(table.render(), "power, instant [W]"));
  CHECK(table.render().find("1 s avg") == std::string::npos);
}

TEST_CASE("clock_table without NVML: the in-kernel readings alone, no NVML or power cell") {
  ch07::ClockRun run = clock_run();
  run.idle_nvml_mhz.clear();
  run.idle_power_watts = 0;
  run.load_nvml.clear();
  run.after_nvml_mhz = 0;
  run.power_limit_watts = 0;
  const lab::ResultTable table = ch07::clock_table(run);
  for (const lab::ResultTable::Row& row : table.rows()) {
    CHECK(row.get("nvml_mhz").is_none());
    CHECK(row.get("power_watts").is_none());
  }
  CHECK(table.rows()[1].get("median").number() == doctest::Approx(1994));
  CHECK(ch07::clock_error_table(run).rows().size() == 4);  // no in-kernel - NVML row
}

TEST_CASE("clock_checks: the load computed right, or the check fails") {
  ch07::ClockRun run = clock_run();
  CHECK(by_id(ch07::clock_checks(run), "load_correct").passed);
  run.load_correct = false;
  const lab::Finding wrong = by_id(ch07::clock_checks(run), "load_correct");
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.kind == lab::Finding::Kind::correctness);
}

TEST_CASE("clock_checks: the load did not move the clock") {
  const std::vector<lab::Finding> findings = ch07::clock_checks(clock_run());
  CHECK(by_id(findings, "load_clock").id == "load_clock.unmoved");
  CHECK(value(findings, "load_clock", "load_mhz") == doctest::Approx(1994));
  CHECK(value(findings, "load_clock", "idle_mhz") == doctest::Approx(1995));
  CHECK(value(findings, "load_clock", "change_mhz") == doctest::Approx(19.95));  // 1 % of idle beats the 2 MHz spread
  CHECK(value(findings, "load_clock", "readings_with_reason") == 0);
  CHECK(value(findings, "load_clock", "nvml_readings") == 2);
  REQUIRE(findings.size() == 2);  // the load's correctness, and whether it moved the clock
}

TEST_CASE("clock_checks: the load moved the clock, with NVML's reasons") {
  ch07::ClockRun run = clock_run();
  run.load_kernel_mhz = {1800, 1750, 1760};
  run.load_nvml = {{10, 1980, 128, true, 0}, {20, 1755, 698, true, 0x4}, {30, 1755, 698, false, 0}};
  const std::vector<lab::Finding> findings = ch07::clock_checks(run);
  CHECK(by_id(findings, "load_clock").id == "load_clock.moved");
  CHECK(value(findings, "load_clock", "idle_mhz") - value(findings, "load_clock", "load_mhz") == doctest::Approx(235));
  CHECK(value(findings, "load_clock", "clock_reasons") == 0x4);  // software power cap
  // NVML gave a slowdown reason in one of the two readings that have reasons; the third was not read.
  CHECK(value(findings, "load_clock", "readings_with_reason") == 1);
  CHECK(value(findings, "load_clock", "nvml_readings") == 2);
}

// --- 3. many samples --------------------------------------------------------------------------

namespace {

// 200 samples: 0.5400 ms plus a small repeating spread, a few slow ones.
ch07::SamplesRun samples_run() {
  ch07::SamplesRun run;
  run.steps = 100000;
  run.nominal_mhz = 1980;
  for (int i = 0; i < 200; ++i) {
    run.ms.push_back(0.5400 + 0.0001 * ((i * 37) % 21) + (i % 50 == 7 ? 0.02 : 0.0));
    run.clock_mhz.push_back(1991);
  }
  run.correct = true;
  return run;
}

}  // namespace

TEST_CASE("samples, histogram and precision tables") {
  const ch07::SamplesRun run = samples_run();
  const lab::ResultTable samples = ch07::samples_table(run);
  CHECK(samples.id() == "samples");
  CHECK(samples.rows()[0].get("outliers_above").integer() == 4);
  const lab::ResultTable histogram = ch07::histogram_table(run);
  CHECK(histogram.id() == "histogram");
  CHECK(histogram.rows().size() == 12);
  const lab::ResultTable precision = ch07::precision_table(run);
  CHECK(precision.id() == "precision");
  REQUIRE(precision.rows().size() == 6);
  CHECK(precision.rows().front().get("width_percent").number() > precision.rows().back().get("width_percent").number());
  // 1/sqrt(n) from the row of 10 samples: that row predicts itself, the row of 200 a sqrt(20) narrower interval.
  const double from_10 = precision.row("10").get("width_percent").number();
  CHECK(precision.row("10").get("sqrt_n_percent").number() == doctest::Approx(from_10));
  CHECK(precision.row("200").get("sqrt_n_percent").number() == doctest::Approx(from_10 / std::sqrt(20.0)));
  CHECK(precision.row("5").get("sqrt_n_percent").number() == doctest::Approx(from_10 * std::sqrt(2.0)));
  ch07::SamplesRun few = run;  // 5 and 8 samples: no row of 10, so from the fewest
  few.ms.resize(8);
  const lab::ResultTable short_table = ch07::precision_table(few);
  REQUIRE(short_table.rows().size() == 2);
  CHECK(short_table.row("5").get("sqrt_n_percent").number() ==
        doctest::Approx(short_table.row("5").get("width_percent").number()));
}

TEST_CASE("samples table: the clock inside the samples, and nvbench's 75 % rule") {
  ch07::SamplesRun run = samples_run();
  lab::ResultTable table = ch07::samples_table(run);
  CHECK(lab_test::cell(table, "clocked kernel", "clock_min_mhz") == doctest::Approx(1991));
  CHECK(lab_test::cell(table, "clocked kernel", "clock_max_mhz") == doctest::Approx(1991));
  CHECK(table.row("clocked kernel").get("below_75_percent").integer() == 0);
  run.clock_mhz[3] = 900;
  run.clock_mhz[4] = 2025;
  table = ch07::samples_table(run);
  CHECK(lab_test::cell(table, "clocked kernel", "clock_min_mhz") == doctest::Approx(900));
  CHECK(lab_test::cell(table, "clocked kernel", "clock_max_mhz") == doctest::Approx(2025));
  CHECK(table.row("clocked kernel").get("below_75_percent").integer() == 1);
  run.clock_mhz.clear();  // no clock readings: no clock cells
  CHECK(ch07::samples_table(run).row("clocked kernel").get("clock_min_mhz").is_none());
}

TEST_CASE("samples table: the smallest gap between two samples bounds the events' step from above") {
  ch07::SamplesRun run = samples_run();  // 0.5400 ms plus multiples of 0.0001 ms
  CHECK(lab_test::cell(ch07::samples_table(run), "clocked kernel", "step_us") == doctest::Approx(0.1));
  run.ms = {0.007744, 0.007712, 0.007808, 0.007712};  // chapter 07's warm kernel: 32 ns steps
  CHECK(lab_test::cell(ch07::samples_table(run), "clocked kernel", "step_us") == doctest::Approx(0.032));
  run.ms = {0.54, 0.54, 0.54};  // no two differ: no step seen
  CHECK(lab_test::cell(ch07::samples_table(run), "clocked kernel", "step_us") == 0.0);
}

TEST_CASE("histogram and precision tables of a run without samples: no rows") {
  ch07::SamplesRun none = samples_run();
  none.ms.clear();
  none.clock_mhz.clear();
  CHECK(ch07::histogram_table(none).rows().empty());
  CHECK(ch07::precision_table(none).rows().empty());
}

TEST_CASE("samples_checks: correct, or the check fails") {
  ch07::SamplesRun run = samples_run();
  CHECK(by_id(ch07::samples_checks(run), "clocked_correct").passed);
  run.correct = false;
  CHECK_FALSE(by_id(ch07::samples_checks(run), "clocked_correct").passed);
}
