// Chapter 07's tables and findings on hand-made data (no GPU needed): every
// branch of every finding, pinned by its id, its verdict and its numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "findings.hpp"
#include "sample_statistics.hpp"
#include "support/findings_support.hpp"

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

// Sets the blocked-stream samples of the write and the read flush of @p set.
void blocked_flush_samples(ch07::WorkingSetRun& set, std::vector<double> write_ms, std::vector<double> read_ms) {
  for (ch07::CacheCase& c : set.cases) {
    if (c.placement != Placement::blocked_stream) continue;
    if (c.preceding == Preceding::write_flush) c.ms = write_ms;
    if (c.preceding == Preceding::read_flush) c.ms = read_ms;
  }
}

}  // namespace

// --- 1. warm and cold L2 ----------------------------------------------------------------

TEST_CASE("flush_effects: each effect is the difference of two medians") {
  const ch07::FlushEffects e = ch07::flush_effects(working_set("small", 25 * kMiB, kSmall));
  CHECK(e.warm_us == doctest::Approx(7.82));
  CHECK(e.launch_gap_us == doctest::Approx(11.30 - 7.82));
  CHECK(e.hidden_by_spin_us == doctest::Approx(11.30 - 7.94));
  CHECK(e.cooling_write_us == doctest::Approx(16.18 - 7.82));
  CHECK(e.cooling_read_us == doctest::Approx(11.68 - 7.82));
  CHECK(e.article_us == doctest::Approx(16.21 - 11.30));
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

TEST_CASE("cache_findings: every case correct, or the check fails") {
  ch07::CacheRun run = cache_run(kSmall, kLarge);
  CHECK(by_id(ch07::cache_findings(run), "cases_correct").passed);
  CHECK(value(ch07::cache_findings(run), "cases_correct", "case_count") == 16);
  run.large.cases[5].correct = false;
  run.large.cases[5].detail = "3 mismatches";
  const lab::Finding wrong = by_id(ch07::cache_findings(run), "cases_correct");
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.kind == lab::Finding::Kind::correctness);
  run.small.cases.clear();
  run.large.cases.clear();
  CHECK_FALSE(by_id(ch07::cache_findings(run), "cases_correct").passed);  // no case at all is no evidence
}

TEST_CASE("cache_findings: a cold L2 slows the set that fits in it, or the timing check fails") {
  const std::vector<lab::Finding> findings = ch07::cache_findings(cache_run(kSmall, kLarge));
  const lab::Finding cools = by_id(findings, "cooling_small");
  CHECK(cools.id == "cooling_small.in_l2");
  CHECK(cools.kind == lab::Finding::Kind::timing);
  CHECK(cools.passed);
  CHECK(value(findings, "cooling_small", "warm_us") == doctest::Approx(7.82));
  CHECK(value(findings, "cooling_small", "write_flush_us") == doctest::Approx(16.18));
  CHECK(value(findings, "cooling_small", "read_flush_us") == doctest::Approx(11.68));
  Medians flat = kSmall;
  flat.write_blocked = 8.2;  // 1.05x: no cooling seen
  CHECK_FALSE(by_id(ch07::cache_findings(cache_run(flat, kLarge)), "cooling_small.in_l2").passed);
}

TEST_CASE("cache_findings: a set beyond the L2 is not cooled (within 5 %), or part of it survived") {
  const std::vector<lab::Finding> findings = ch07::cache_findings(cache_run(kSmall, kLarge));
  CHECK(by_id(findings, "cooling_large").id == "cooling_large.within_5_percent");
  CHECK(by_id(findings, "cooling_large").kind == lab::Finding::Kind::observation);
  CHECK(value(findings, "cooling_large", "write_flush_us") == doctest::Approx(178.82));
  CHECK(value(findings, "cooling_large", "warm_us") == doctest::Approx(176.74));
  Medians survived = kLarge;
  survived.write_blocked = 220;
  CHECK(by_id(ch07::cache_findings(cache_run(kSmall, survived)), "cooling_large").id == "cooling_large.apart");
  // A small set chosen larger than the L2 (--small-mib) gets the large set's finding, not the timing check.
  ch07::CacheRun big_small = cache_run(kLarge, kLarge);
  big_small.small.bytes = 100 * kMiB;
  CHECK(by_id(ch07::cache_findings(big_small), "cooling_small").id == "cooling_small.within_5_percent");
}

TEST_CASE("cache_findings: write flush against read flush, apart by more than 5 % of warm either way") {
  const std::vector<lab::Finding> findings = ch07::cache_findings(cache_run(kSmall, kLarge));
  CHECK(by_id(findings, "write_against_read_small").id == "write_against_read_small.write_costlier");
  CHECK(value(findings, "write_against_read_small", "apart_us") == doctest::Approx(4.50));
  Medians read_more = kSmall;
  read_more.read_blocked = 20.0;
  const std::vector<lab::Finding> other = ch07::cache_findings(cache_run(read_more, kLarge));
  CHECK(by_id(other, "write_against_read_small").id == "write_against_read_small.read_costlier");
  CHECK(value(other, "write_against_read_small", "apart_us") == doctest::Approx(16.18 - 20.0));
}

TEST_CASE("cache_findings: write flush against read flush within 5 %: a tie, or every sample apart") {
  // Within 5 % and the samples overlap: a tie.
  Medians tie = kSmall;
  tie.read_blocked = 16.1;
  ch07::CacheRun overlapping = cache_run(tie, kLarge);
  blocked_flush_samples(overlapping.small, {0.0159, 0.01618, 0.0165}, {0.0158, 0.0161, 0.0163});
  CHECK(by_id(ch07::cache_findings(overlapping), "write_against_read_small").id == "write_against_read_small.tie");
  // The H100 run of 2026-11-22, 400 MiB: write flush 176.86 to 181.60 us, read flush 169.44 to 174.69 us, 7.44 us
  // apart, 4.2 % of the warm 177.17 us: within 5 %, yet no sample of one reached the other.
  Medians large = kLarge;
  large.nothing_blocked = 177.17;
  large.write_blocked = 178.75;
  large.read_blocked = 171.31;
  ch07::CacheRun run = cache_run(kSmall, large);
  blocked_flush_samples(run.large, {0.17686, 0.17875, 0.18160}, {0.16944, 0.17131, 0.17469});
  std::vector<lab::Finding> findings = ch07::cache_findings(run);
  CHECK(by_id(findings, "write_against_read_large").id == "write_against_read_large.read_faster_every_sample");
  CHECK(value(findings, "write_against_read_large", "apart_us") == doctest::Approx(178.75 - 171.31));
  // The other way round: every sample after the write flush below every one after the read flush.
  blocked_flush_samples(run.large, {0.17400, 0.17500, 0.17600}, {0.17700, 0.17800, 0.17900});
  findings = ch07::cache_findings(run);
  CHECK(by_id(findings, "write_against_read_large").id == "write_against_read_large.write_faster_every_sample");
}

TEST_CASE("every finding of section 1 has its own id, and the two sets never share one") {
  const std::vector<lab::Finding> findings = ch07::cache_findings(cache_run(kSmall, kLarge));
  REQUIRE(findings.size() == 5);  // correctness, then cooling and write against read per set
  for (std::size_t i = 0; i < findings.size(); ++i) {
    CHECK_FALSE(findings[i].id.empty());
    for (std::size_t j = i + 1; j < findings.size(); ++j) CHECK(findings[i].id != findings[j].id);
  }
}

// --- background --------------------------------------------------------------------------

TEST_CASE("the background of every section: each line with its source") {
  for (const std::vector<lab::Background>& lines :
       {ch07::cache_background(), ch07::clock_background(), ch07::samples_background()}) {
    CHECK_FALSE(lines.empty());
    for (const lab::Background& line : lines) {
      CHECK_FALSE(line.text.empty());
      CHECK_FALSE(line.source.empty());
    }
  }
  CHECK(ch07::cache_background().size() == 2);
  CHECK(ch07::clock_background().size() == 3);
  CHECK(ch07::samples_background().size() == 3);
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
  CHECK(errors.rows()[3].get("mhz").number() == doctest::Approx(15));               // 1995 - 1980
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
  CHECK(ch07::clock_error_table(run).rows().size() == 3);  // no in-kernel - NVML row
}

TEST_CASE("clock_findings: the load computed right, or the check fails") {
  ch07::ClockRun run = clock_run();
  CHECK(by_id(ch07::clock_findings(run), "load_correct").passed);
  run.load_correct = false;
  const lab::Finding wrong = by_id(ch07::clock_findings(run), "load_correct");
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.kind == lab::Finding::Kind::correctness);
}

TEST_CASE("clock_findings: the load did not move the clock") {
  const std::vector<lab::Finding> findings = ch07::clock_findings(clock_run());
  CHECK(by_id(findings, "load_clock").id == "load_clock.unmoved");
  CHECK(value(findings, "load_clock", "load_mhz") == doctest::Approx(1994));
  CHECK(value(findings, "load_clock", "idle_mhz") == doctest::Approx(1995));
  CHECK(value(findings, "load_clock", "change_mhz") == doctest::Approx(19.95));  // 1 % of idle beats the 2 MHz spread
}

TEST_CASE("clock_findings: the load moved the clock, with NVML's reasons") {
  ch07::ClockRun run = clock_run();
  run.load_kernel_mhz = {1800, 1750, 1760};
  run.load_nvml = {{10, 1755, 698, true, 0x4}};
  const std::vector<lab::Finding> findings = ch07::clock_findings(run);
  CHECK(by_id(findings, "load_clock").id == "load_clock.moved");
  CHECK(value(findings, "load_clock", "idle_mhz") - value(findings, "load_clock", "load_mhz") == doctest::Approx(235));
  CHECK(value(findings, "load_clock", "clock_reasons") == 0x4);  // software power cap
}

TEST_CASE("clock_findings: in-kernel clock against NVML, beyond or within the method's error, or no NVML") {
  const std::vector<lab::Finding> findings = ch07::clock_findings(clock_run());
  CHECK(by_id(findings, "kernel_against_nvml").id == "kernel_against_nvml.differ");
  CHECK(value(findings, "kernel_against_nvml", "kernel_mhz") - value(findings, "kernel_against_nvml", "nvml_mhz") ==
        doctest::Approx(15));
  CHECK(value(findings, "kernel_against_nvml", "error_mhz") == doctest::Approx(3));  // 2 MHz spread + NVML's 1 MHz
  ch07::ClockRun close = clock_run();
  close.idle_kernel_mhz = {1980, 1981, 1980};
  CHECK(by_id(ch07::clock_findings(close), "kernel_against_nvml").id == "kernel_against_nvml.agree");
  close.idle_nvml_mhz.clear();  // no NVML: nothing to compare
  CHECK_FALSE(has_id(ch07::clock_findings(close), "kernel_against_nvml"));
}

TEST_CASE("clock_findings: nvbench's 75 % rule, none flagged or some") {
  CHECK(by_id(ch07::clock_findings(clock_run()), "nvbench_rule").id == "nvbench_rule.none_below");
  ch07::ClockRun run = clock_run();
  run.load_kernel_mhz = {1400, 1990};
  const std::vector<lab::Finding> findings = ch07::clock_findings(run);
  CHECK(by_id(findings, "nvbench_rule").id == "nvbench_rule.some_below");
  CHECK(value(findings, "nvbench_rule", "below_count") == 1);
  CHECK(value(findings, "nvbench_rule", "min_mhz") == doctest::Approx(1400));
  CHECK(value(findings, "nvbench_rule", "max_mhz") == doctest::Approx(1996));  // idle, load and after together
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

TEST_CASE("samples_findings: correct, or the check fails") {
  ch07::SamplesRun run = samples_run();
  CHECK(by_id(ch07::samples_findings(run), "clocked_correct").passed);
  run.correct = false;
  CHECK_FALSE(by_id(ch07::samples_findings(run), "clocked_correct").passed);
}

TEST_CASE("samples_findings: the interval narrows as 1/sqrt(n), slower, faster, or not at all") {
  // Independent-looking spread: roughly 1/sqrt(n).
  const std::vector<lab::Finding> roughly = ch07::samples_findings(samples_run());
  CHECK(by_id(roughly, "precision").id == "precision.as_sqrt_n");
  CHECK(value(roughly, "precision", "expected_ratio") == doctest::Approx(std::sqrt(200.0 / 10)));  // from 10
  // A drift: the later samples are slower, so more samples do not narrow the interval.
  ch07::SamplesRun drift = samples_run();
  for (std::size_t i = 0; i < drift.ms.size(); ++i) drift.ms[i] = 0.5 + 0.001 * static_cast<double>(i);
  CHECK(by_id(ch07::samples_findings(drift), "precision").id == "precision.slower");
  // Noisy first samples, then equal ones: faster than 1/sqrt(n).
  ch07::SamplesRun settle = samples_run();
  for (std::size_t i = 0; i < settle.ms.size(); ++i) settle.ms[i] = 0.54 + (i % 2 == 0 ? 1e-6 : 0.0);
  for (std::size_t i = 0; i < 5; ++i) settle.ms[i] = 0.5 + 0.02 * static_cast<double>(i);
  CHECK(by_id(ch07::samples_findings(settle), "precision").id == "precision.faster");
  // Two groups (a clock step half-way): the ends look like 1/sqrt(n), but the interval widened on the way.
  ch07::SamplesRun step = samples_run();
  const double first[] = {0.530, 0.550, 0.535, 0.548, 0.541};
  for (std::size_t i = 0; i < 5; ++i) step.ms[i] = first[i];
  for (std::size_t i = 100; i < step.ms.size(); ++i) step.ms[i] += 0.004;
  const std::vector<lab::Finding> grouped = ch07::samples_findings(step);
  CAPTURE(by_id(grouped, "precision").text);
  CHECK(by_id(grouped, "precision").id == "precision.widened");
  CHECK(value(grouped, "precision", "largest_widening") > 1.25);
  CHECK(value(roughly, "precision", "largest_widening") <= 1.25);  // the independent-looking run never widened
  // The interval from 5 samples is their whole range: a wider one from 10 is no drift, so no "widened".
  ch07::SamplesRun coarse = samples_run();
  for (std::size_t i = 0; i < coarse.ms.size(); ++i)
    coarse.ms[i] = 0.5400 + 0.00004 * static_cast<double>((i * 37) % 21);
  const double tight[] = {0.5400, 0.5405, 0.5398, 0.5403, 0.5401}, loose[] = {0.5380, 0.5420, 0.5385, 0.5415, 0.5392};
  for (std::size_t i = 0; i < 5; ++i) coarse.ms[i] = tight[i], coarse.ms[5 + i] = loose[i];
  const std::vector<std::size_t> counts = ch07::precision_counts(coarse.ms.size());
  REQUIRE(ch07::largest_widening(coarse.ms, counts, 5).factor > 1.25);  // from 5 to 10 it widened 2.5x
  REQUIRE(ch07::largest_widening(coarse.ms, counts, 5).from == 5);
  const std::vector<lab::Finding> five_to_ten = ch07::samples_findings(coarse);
  CAPTURE(by_id(five_to_ten, "precision").text);
  CHECK(by_id(five_to_ten, "precision").id == "precision.faster");  // from 10, whose last 5 are the loose ones
  CHECK(value(five_to_ten, "precision", "largest_widening") <= 1.25);
  // Equal samples: zero width, no trend.
  ch07::SamplesRun equal = samples_run();
  for (double& x : equal.ms) x = 0.54;
  const std::vector<lab::Finding> flat = ch07::samples_findings(equal);
  CHECK(by_id(flat, "precision").id == "precision.zero_width");
  CHECK(value(flat, "precision", "narrow_percent") == 0);
}

TEST_CASE("samples_findings: the clock per sample, none flagged or some; too few samples for a precision trend") {
  const std::vector<lab::Finding> steady = ch07::samples_findings(samples_run());
  CHECK(by_id(steady, "clock_per_sample").id == "clock_per_sample.none_below");
  CHECK(value(steady, "clock_per_sample", "max_mhz") == doctest::Approx(1991));
  ch07::SamplesRun slow = samples_run();
  slow.clock_mhz[3] = 900;
  const std::vector<lab::Finding> findings = ch07::samples_findings(slow);
  CHECK(by_id(findings, "clock_per_sample").id == "clock_per_sample.some_below");
  CHECK(value(findings, "clock_per_sample", "below_count") == 1);
  CHECK(value(findings, "clock_per_sample", "min_mhz") == doctest::Approx(900));
  ch07::SamplesRun few = samples_run();
  few.ms.resize(5);  // one sample count (5): no trend to judge
  few.clock_mhz.clear();
  const std::vector<lab::Finding> alone = ch07::samples_findings(few);
  CHECK(alone.size() == 1);  // the correctness check only
  CHECK(has_id(alone, "clocked_correct"));
}
