// Chapter 07's findings on hand-made data (no GPU needed): every branch of every
// finding, the run where the expected thing happened and the one where it did not.
#include <doctest/doctest.h>

#include "support/findings_support.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "cache_options.hpp"
#include "findings.hpp"

namespace {

using lab_test::contains;
constexpr auto& find = lab_test::finding;  // the finding whose name starts with the given text

using ch07::Placement;
using ch07::Preceding;

constexpr std::size_t kMiB = std::size_t{1} << 20;


bool has(const std::vector<lab::Finding>& findings, const std::string& prefix) {
  for (const lab::Finding& f : findings)
    if (f.name.rfind(prefix, 0) == 0) return true;
  return false;
}


// A working set whose cases have these medians in microseconds (three equal samples each).
struct Medians {
  double nothing_isolated, nothing_blocked, spin_isolated, spin_blocked;
  double write_isolated, write_blocked, read_isolated, read_blocked;
};

ch07::WorkingSetRun working_set(std::size_t bytes, const Medians& m) {
  ch07::WorkingSetRun set;
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
  run.spin_ms = 0.05;
  run.flush_bytes = 100 * kMiB;
  run.sets = {working_set(25 * kMiB, small), working_set(400 * kMiB, large)};
  return run;
}

}  // namespace

// --- 1. warm and cold L2 ----------------------------------------------------------------

TEST_CASE("flush_effects: each effect is the difference of two medians") {
  const ch07::FlushEffects e = ch07::flush_effects(working_set(25 * kMiB, kSmall));
  CHECK(e.warm_us == doctest::Approx(7.82));
  CHECK(e.launch_gap_us == doctest::Approx(11.30 - 7.82));
  CHECK(e.hidden_by_spin_us == doctest::Approx(11.30 - 7.94));
  CHECK(e.cooling_write_us == doctest::Approx(16.18 - 7.82));
  CHECK(e.cooling_read_us == doctest::Approx(11.68 - 7.82));
  CHECK(e.article_us == doctest::Approx(16.21 - 11.30));
}

TEST_CASE("working_set_table and effects_table: one row per case and per effect, the numbers in us") {
  const ch07::WorkingSetRun set = working_set(25 * kMiB, kSmall);
  CHECK(ch07::working_set_name(set) == "fits in L2");
  CHECK(ch07::working_set_name(working_set(400 * kMiB, kLarge)) == "8.0 x the L2");
  const lab::ResultTable table = ch07::working_set_table(set);
  REQUIRE(table.rows().size() == 8);
  const lab::ResultTable::Row& write = table.row("write flush, blocked stream");
  CHECK(write.get("median_us").number() == doctest::Approx(16.18));
  CHECK(write.get("vs_warm").number() == doctest::Approx(16.18 / 7.82));
  CHECK(write.get("result").text() == "correct");
  const lab::ResultTable effects = ch07::effects_table(set);
  REQUIRE(effects.rows().size() == 5);
  CHECK(effects.row("the article's comparison").get("us").number() == doctest::Approx(16.21 - 11.30));
}

TEST_CASE("cache_findings: every case correct, or the first wrong one named") {
  ch07::CacheRun run = cache_run(kSmall, kLarge);
  CHECK(find(ch07::cache_findings(run), "y = 2x correct").passed);
  run.sets[1].cases[5].correct = false;
  run.sets[1].cases[5].detail = "3 mismatches";
  const lab::Finding wrong = find(ch07::cache_findings(run), "y = 2x correct");
  CHECK_FALSE(wrong.passed);
  CHECK(wrong.kind == lab::Finding::Kind::correctness);
  CHECK(contains(wrong.text, "write flush, blocked stream: 3 mismatches"));
}

TEST_CASE("cache_findings: a cold L2 slows the set that fits in it, or the timing check fails") {
  const lab::Finding cools = find(ch07::cache_findings(cache_run(kSmall, kLarge)), "a cold L2 slows");
  CHECK(cools.kind == lab::Finding::Kind::timing);
  CHECK(cools.passed);
  CHECK(contains(cools.text, "(2.07x)"));
  Medians flat = kSmall;
  flat.write_blocked = 8.2;  // 1.05x: no cooling seen
  const lab::Finding not_cooled = find(ch07::cache_findings(cache_run(flat, kLarge)), "a cold L2 slows");
  CHECK_FALSE(not_cooled.passed);
}

TEST_CASE("cache_findings: the large set is not cooled (within 5 %), or part of it survived") {
  const lab::Finding same = find(ch07::cache_findings(cache_run(kSmall, kLarge)), "cooling, 8.0 x the L2");
  CHECK(contains(same.text, "within 5 %"));
  CHECK(contains(same.text, "(not measured here)"));  // reasoning from the sizes, said as such
  Medians survived = kLarge;
  survived.write_blocked = 220;
  const lab::Finding slower = find(ch07::cache_findings(cache_run(kSmall, survived)), "cooling, 8.0 x the L2");
  CHECK(contains(slower.text, "part of this working set did survive"));
}

TEST_CASE("cache_findings: the article's comparison, faster or slower after a flush") {
  const std::vector<lab::Finding> findings = ch07::cache_findings(cache_run(kSmall, kLarge));
  const lab::Finding small = find(findings, "flush before a lone launch, fits in L2");
  CHECK(contains(small.text, "looked slower"));
  CHECK(contains(small.text, "Cooling the cache outweighed"));
  const lab::Finding large = find(findings, "flush before a lone launch, 8.0 x the L2");
  CHECK(contains(large.text, "looked FASTER"));
  CHECK(contains(large.text, "-2.82 us"));
}

TEST_CASE("cache_findings: write flush against read flush, each way and a tie; the cause is not claimed") {
  const lab::Finding write_more =
      find(ch07::cache_findings(cache_run(kSmall, kLarge)), "write flush against read flush, fits in L2");
  CHECK(contains(write_more.text, "the write flush cost 4.50 us more"));
  CHECK(contains(write_more.text, "that cause is not measured here"));
  Medians read_more = kSmall;
  read_more.read_blocked = 20.0;
  CHECK(contains(find(ch07::cache_findings(cache_run(read_more, kLarge)), "write flush against read flush, fits")
                     .text,
                 "the read flush cost"));
  // Within 5 % and the samples overlap: a tie.
  Medians tie = kSmall;
  tie.read_blocked = 16.1;
  ch07::CacheRun overlapping = cache_run(tie, kLarge);
  for (ch07::CacheCase& c : overlapping.sets[0].cases) {
    if (c.placement != Placement::blocked_stream) continue;
    if (c.preceding == Preceding::write_flush) c.ms = {0.0159, 0.01618, 0.0165};
    if (c.preceding == Preceding::read_flush) c.ms = {0.0158, 0.0161, 0.0163};
  }
  const lab::Finding tied = find(ch07::cache_findings(overlapping), "write flush against read flush, fits");
  CHECK(contains(tied.text, "their samples overlap; this run does not tell them apart"));
  CHECK_FALSE(contains(tied.text, "outside the samples' spread"));
}

TEST_CASE("cache_findings: write flush against read flush within 5 %, but every sample apart") {
  // The H100 run of 2026-11-22, 400 MiB: write flush 176.86 to 181.60 us, read flush 169.44
  // to 174.69 us (blocked stream), 7.44 us apart, 4.2 % of the warm 177.17 us: within 5 %,
  // yet no sample of one reached the other. The finding used to call that a tie.
  Medians large = kLarge;
  large.nothing_blocked = 177.17;
  large.write_blocked = 178.75;
  large.read_blocked = 171.31;
  ch07::CacheRun run = cache_run(kSmall, large);
  for (ch07::CacheCase& c : run.sets[1].cases) {
    if (c.placement != Placement::blocked_stream) continue;
    if (c.preceding == Preceding::write_flush) c.ms = {0.17686, 0.17875, 0.18160};
    if (c.preceding == Preceding::read_flush) c.ms = {0.16944, 0.17131, 0.17469};
  }
  const lab::Finding apart = find(ch07::cache_findings(run), "write flush against read flush, 8.0 x the L2");
  CHECK(contains(apart.text, "within 5 % of the warm time of each other (7.44 us, 4.2 %)"));
  CHECK(contains(apart.text, "every sample after the read flush was faster than every sample after the write flush"));
  CHECK(contains(apart.text, "176.86 to 181.60 us"));
  CHECK(contains(apart.text, "169.44 to 174.69 us"));
  CHECK_FALSE(contains(apart.text, "does not tell them apart"));
  // The other way round: the write flush's samples all below the read flush's.
  for (ch07::CacheCase& c : run.sets[1].cases) {
    if (c.placement != Placement::blocked_stream) continue;
    if (c.preceding == Preceding::write_flush) c.ms = {0.17400, 0.17500, 0.17600};
    if (c.preceding == Preceding::read_flush) c.ms = {0.17700, 0.17800, 0.17900};
  }
  CHECK(contains(find(ch07::cache_findings(run), "write flush against read flush, 8.0 x the L2").text,
                 "every sample after the write flush was faster than every sample after the read flush"));
}

TEST_CASE("cache_background: nvbench flushes once the L2; Nsight Compute's defaults, with sources") {
  const std::vector<lab::Background> lines = ch07::cache_background();
  REQUIRE(lines.size() == 2);
  CHECK(contains(lines[0].text, "once the L2's size"));
  CHECK(contains(lines[0].source, "l2flush.cuh"));
  CHECK(contains(lines[1].text, "--clock-control base"));
  CHECK(contains(lines[1].text, "--cache-control all"));
}

// --- 2. the SM clock -------------------------------------------------------------------------

namespace {

ch07::ClockRun clock_run() {
  ch07::ClockRun run;
  run.nominal_mhz = 1980;
  run.nvml_available = true;
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
  REQUIRE(table.rows().size() == 3);
  CHECK(table.rows()[1].get("power_max_watts").number() == doctest::Approx(450));
  CHECK(table.rows()[1].get("nvml_mhz").number() == doctest::Approx(1980));
  // Every NVML reading of the load goes to the JSON, not only its median and maximum.
  CHECK(table.rows()[1].get("nvml_at_ms").numbers() == std::vector<double>{10, 60});
  CHECK(table.rows()[1].get("nvml_sm_clock_mhz").numbers() == std::vector<double>{1980, 1980});
  CHECK(table.rows()[1].get("nvml_power_watts").numbers() == std::vector<double>{420, 450});
  CHECK(table.rows()[1].get("nvml_clock_reasons").numbers() == std::vector<double>{0, 0});
  const lab::ResultTable errors = ch07::clock_error_table(run);
  CHECK(errors.rows()[0].get("mhz").number() == doctest::Approx(2));                     // 1996 - 1994
  CHECK(errors.rows()[1].get("mhz").number() == doctest::Approx(1995 * 32 / 2e6));       // a 32 ns step over 2 ms
  CHECK(errors.rows()[3].get("mhz").number() == doctest::Approx(15));                    // 1995 - 1980
}

TEST_CASE("clock_findings: the load computed right, or the check fails") {
  ch07::ClockRun run = clock_run();
  CHECK(find(ch07::clock_findings(run), "the load computed").passed);
  run.load_correct = false;
  CHECK_FALSE(find(ch07::clock_findings(run), "the load computed").passed);
}

TEST_CASE("clock_findings: the load did not move the clock, with its power against the limit") {
  const lab::Finding f = find(ch07::clock_findings(clock_run()), "the load did not move the clock");
  CHECK(contains(f.text, "1994 MHz"));
  CHECK(contains(f.text, "of a 700 W limit (64 % at most)"));
  CHECK(contains(f.text, "could not move the clock on this GPU"));
}

TEST_CASE("clock_findings: the load moved the clock, with NVML's reasons") {
  ch07::ClockRun run = clock_run();
  run.load_kernel_mhz = {1800, 1750, 1760};
  run.load_nvml = {{10, 1755, 698, true, 0x4}};
  const std::vector<lab::Finding> findings = ch07::clock_findings(run);
  CHECK_FALSE(has(findings, "the load did not move"));
  const lab::Finding f = find(findings, "the load moved the clock");
  CHECK(contains(f.text, "235 MHz lower"));
  CHECK(contains(f.text, "software power cap"));
}

TEST_CASE("clock_findings: in-kernel clock against NVML, beyond or within the method's error") {
  const lab::Finding apart = find(ch07::clock_findings(clock_run()), "in-kernel clock against NVML");
  CHECK(contains(apart.text, "they differ by more than that"));
  CHECK(contains(apart.text, "+15.0 MHz"));
  ch07::ClockRun close = clock_run();
  close.idle_kernel_mhz = {1980, 1981, 1980};
  CHECK(contains(find(ch07::clock_findings(close), "in-kernel clock against NVML").text, "they agree within it"));
  close.idle_nvml_mhz.clear();  // no NVML: nothing to compare
  CHECK_FALSE(has(ch07::clock_findings(close), "in-kernel clock against NVML"));
}

TEST_CASE("clock_findings: nvbench's 75 % rule, none flagged or some") {
  CHECK(contains(find(ch07::clock_findings(clock_run()), "nvbench's rule").text, "would discard none"));
  ch07::ClockRun run = clock_run();
  run.load_kernel_mhz = {1400, 1990};
  CHECK(contains(find(ch07::clock_findings(run), "nvbench's rule").text, "1 of 8 in-kernel readings"));
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

TEST_CASE("precision_counts: 5, 10, 20, 50, ... and all of them") {
  CHECK(ch07::precision_counts(200) == std::vector<std::size_t>{5, 10, 20, 50, 100, 200});
  CHECK(ch07::precision_counts(20) == std::vector<std::size_t>{5, 10, 20});
  CHECK(ch07::precision_counts(7) == std::vector<std::size_t>{5, 7});
  CHECK(ch07::precision_counts(4).empty());
}

TEST_CASE("samples, histogram and precision tables") {
  const ch07::SamplesRun run = samples_run();
  const lab::ResultTable samples = ch07::samples_table(run);
  CHECK(samples.rows()[0].get("outliers_above").integer() == 4);
  const lab::ResultTable histogram = ch07::histogram_table(run);
  CHECK(histogram.rows().size() == 12);
  const lab::ResultTable precision = ch07::precision_table(run);
  REQUIRE(precision.rows().size() == 6);
  CHECK(precision.rows().front().get("width_percent").number() > precision.rows().back().get("width_percent").number());
}

TEST_CASE("samples_findings: correct, or the check fails") {
  ch07::SamplesRun run = samples_run();
  CHECK(find(ch07::samples_findings(run), "the clocked kernel computed").passed);
  run.correct = false;
  CHECK_FALSE(find(ch07::samples_findings(run), "the clocked kernel computed").passed);
}

TEST_CASE("samples_findings: slow outliers pull the mean up, or they do not") {
  CHECK(contains(find(ch07::samples_findings(samples_run()), "mean against median").text, "pull the mean up"));
  ch07::SamplesRun even = samples_run();
  for (double& x : even.ms) x = 0.54;
  even.ms[0] = 0.53;
  CHECK(contains(find(ch07::samples_findings(even), "mean against median").text, "no pull"));
}

TEST_CASE("samples_findings: the interval narrows as 1/sqrt(n), slower, faster, or not at all") {
  // Independent-looking spread: roughly 1/sqrt(n).
  const lab::Finding roughly = find(ch07::samples_findings(samples_run()), "precision against samples");
  CHECK(contains(roughly.text, "for 1/sqrt(n)"));
  // A drift: the later samples are slower, so more samples do not narrow the interval.
  ch07::SamplesRun drift = samples_run();
  for (std::size_t i = 0; i < drift.ms.size(); ++i) drift.ms[i] = 0.5 + 0.001 * static_cast<double>(i);
  CHECK(contains(find(ch07::samples_findings(drift), "precision against samples").text, "slower than 1/sqrt(n)"));
  // Noisy first samples, then equal ones: faster than 1/sqrt(n).
  ch07::SamplesRun settle = samples_run();
  for (std::size_t i = 0; i < settle.ms.size(); ++i) settle.ms[i] = 0.54 + (i % 2 == 0 ? 1e-6 : 0.0);
  for (std::size_t i = 0; i < 5; ++i) settle.ms[i] = 0.5 + 0.02 * static_cast<double>(i);
  CHECK(contains(find(ch07::samples_findings(settle), "precision against samples").text, "faster than 1/sqrt(n)"));
  // Equal samples: zero width, no trend.
  ch07::SamplesRun equal = samples_run();
  for (double& x : equal.ms) x = 0.54;
  CHECK(contains(find(ch07::samples_findings(equal), "precision against samples").text, "zero width"));
}

TEST_CASE("samples_findings: the clock per sample, none flagged or some") {
  CHECK(contains(find(ch07::samples_findings(samples_run()), "the clock per sample").text, "none flagged"));
  ch07::SamplesRun slow = samples_run();
  slow.clock_mhz[3] = 900;
  CHECK(contains(find(ch07::samples_findings(slow), "the clock per sample").text, "nvbench would discard them"));
}

TEST_CASE("samples_background: the event timer's resolution, with its source") {
  const std::vector<lab::Background> lines = ch07::samples_background();
  CHECK(contains(lines[0].text, "0.5 microseconds"));
  CHECK(lines[0].source == "CUDA Runtime API, cudaEventElapsedTime");
}

// --- options ------------------------------------------------------------------------------------

TEST_CASE("working sets from the options, and the memory check") {
  ch07::CacheOptions o;
  CHECK(ch07::small_working_set_bytes(o, 50 * kMiB) == 25 * kMiB);
  CHECK(ch07::large_working_set_bytes(o, 50 * kMiB) == 400 * kMiB);
  o.small_mib = 12;
  CHECK(ch07::small_working_set_bytes(o, 50 * kMiB) == 12 * kMiB);
  CHECK(ch07::check_memory(o, 50 * kMiB, std::size_t{80} << 30, std::size_t{64} << 30).empty());
  const std::string too_big = ch07::check_memory(o, 50 * kMiB, 500 * kMiB, std::size_t{64} << 30);
  CHECK(contains(too_big, "--large-factor 8"));
}
