// Chapter 03's findings on hand-made data: every branch of every function in
// chapters/03_events/findings.hpp, and the options' memory check. No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "event_options.hpp"
#include "findings.hpp"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The finding whose name starts with @p name; fails the test when there is none.
const lab::Finding& finding(const std::vector<lab::Finding>& findings, const std::string& name) {
  for (const lab::Finding& f : findings) {
    if (f.name.rfind(name, 0) == 0) return f;
  }
  FAIL("no finding named '" << name << "'");
  static lab::Finding none;
  return none;
}

bool has_finding(const std::vector<lab::Finding>& findings, const std::string& name) {
  for (const lab::Finding& f : findings) {
    if (f.name.rfind(name, 0) == 0) return true;
  }
  return false;
}

double cell(const lab::ResultTable& table, const std::string& row, const std::string& key) {
  return table.row(row).get(key).number();
}

lab::Comparison correct(std::size_t count = 1024) {
  lab::Comparison c;
  c.count = count;
  return c;
}

lab::Comparison wrong() {
  lab::Comparison c;
  c.count = 1024;
  c.mismatches = 3;
  c.first.push_back({7, 1.0, std::numeric_limits<double>::quiet_NaN()});
  return c;
}

std::vector<double> around(double value, int count = 5) {
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) samples.push_back(value + 0.01 * (i - count / 2));
  return samples;
}

}  // namespace

// --- 1 ------------------------------------------------------------------------

TEST_CASE("stopwatch: events and host agree, and the host timer adds the launch and the wake-up") {
  ch03::StopwatchRun run;
  run.kernel_ms = 20;
  run.event_ms = {20.00, 20.01, 20.02};
  run.host_ms = {20.03, 20.05, 20.04};
  const auto findings = ch03::stopwatch_findings(run);
  const lab::Finding& agree = finding(findings, "events and a synchronised host timer agree");
  CHECK(agree.kind == lab::Finding::Kind::timing);
  CHECK(agree.passed);
  CHECK(contains(agree.text, "over 3 samples"));
  CHECK(contains(agree.text, "per sample +0.10 % to +0.20 %"));
  const lab::Finding& adds = finding(findings, "what the host timer adds");
  CHECK(adds.kind == lab::Finding::Kind::observation);
  CHECK(contains(adds.text, "a median of 30.0 us more"));

  const lab::ResultTable table = ch03::stopwatch_table(run);
  CHECK(cell(table, "events (cudaEventElapsedTime)", "median") == doctest::Approx(20.01));
  CHECK(cell(table, "host timer, synchronised", "vs_events_percent") == doctest::Approx(100 * 0.03 / 20.01));
}

TEST_CASE("stopwatch: a 10 % gap fails the check") {
  ch03::StopwatchRun run;
  run.kernel_ms = 20;
  run.event_ms = {20, 20};
  run.host_ms = {22, 22};
  const lab::Finding agree = finding(ch03::stopwatch_findings(run), "events and a synchronised host timer agree");
  CHECK_FALSE(agree.passed);
  CHECK(contains(agree.text, "+10.00 %"));
}

TEST_CASE("stopwatch: a host timer that read less says so") {
  ch03::StopwatchRun run;
  run.kernel_ms = 20;
  run.event_ms = {20.01};
  run.host_ms = {20.00};
  const lab::Finding adds = finding(ch03::stopwatch_findings(run), "what the host timer adds");
  CHECK(contains(adds.text, "did not read more"));
}

// --- 2 ------------------------------------------------------------------------

TEST_CASE("event costs: a floor above the resolution, and a cheaper cudaEventDisableTiming") {
  ch03::EventCostRun run{{1.2, 1.3, 1.2}, {1.5, 1.4, 1.6}, {0.4, 0.3, 0.5}};
  const auto findings = ch03::event_cost_findings(run);
  const lab::Finding& floor = finding(findings, "the floor of an event pair");
  CHECK(contains(floor.text, "median of 1.20 us"));
  CHECK(contains(floor.text, "2.4x the documented resolution"));
  CHECK(contains(floor.text, "3 pairs"));
  const lab::Finding& plain = finding(findings, "cudaEventDisableTiming");
  CHECK(contains(plain.text, "0.40 us against 1.50 us"));
  CHECK(contains(plain.text, "3.8x less"));
  const lab::ResultTable table = ch03::event_cost_table(run);
  CHECK(cell(table, "empty event pair (GPU time)", "median") == doctest::Approx(1.2));
  CHECK(table.row("cudaEventRecord, cudaEventDisableTiming (host time)").get("count").integer() == 3);
  CHECK(ch03::empty_pair_median_us(run) == doctest::Approx(1.2));
}

TEST_CASE("event costs: a floor within the resolution, and no saving from cudaEventDisableTiming") {
  ch03::EventCostRun run{{0.4, 0.5}, {0.3}, {0.3}};
  const auto findings = ch03::event_cost_findings(run);
  CHECK(contains(finding(findings, "the floor of an event pair").text, "within the documented resolution"));
  CHECK(contains(finding(findings, "cudaEventDisableTiming").text, "not cheaper"));
}

// --- 3 ------------------------------------------------------------------------

namespace {

ch03::WaitCase measured(const std::string& event, const std::string& flag, double wall, double cpu,
                        const std::string& set_flags = "") {
  ch03::WaitCase c;
  c.event = event;
  c.device_flag = flag;
  c.process = set_flags.empty() ? "this" : "child";
  c.set_flags_result = set_flags;
  c.measured = true;
  c.cost = {wall, cpu};
  return c;
}

ch03::WaitCase missing(const std::string& why) {
  ch03::WaitCase c;
  c.event = "default";
  c.process = "child";
  c.why_not = why;
  return c;
}

// The run the documentation leads one to expect.
ch03::WaitRun expected_waits() {
  ch03::WaitRun run;
  run.kernel_ms = 20;
  run.logical_cores = 16;
  run.default_event = measured("default", "cudaDeviceScheduleAuto", 20.0, 19.95);
  run.blocking_event = measured("cudaEventBlockingSync", "cudaDeviceScheduleAuto", 20.2, 0.05);
  run.flag_before_context = measured("default", "cudaDeviceScheduleBlockingSync", 20.2, 0.04, "cudaSuccess");
  run.flag_after_context = measured("default", "cudaDeviceScheduleBlockingSync", 20.2, 0.04, "cudaSuccess");
  return run;
}

}  // namespace

TEST_CASE("waiting: a default event spins under cudaDeviceScheduleAuto, blocking sync sleeps, the device flag too") {
  const auto findings = ch03::wait_findings(expected_waits());
  const lab::Finding& plain = finding(findings, "a default event");
  CHECK(contains(plain.text, "under cudaDeviceScheduleAuto the waiting thread spun"));
  CHECK(contains(plain.text, "(here 1) are no more than the logical cores (here 16)"));
  CHECK(contains(plain.text, "(100 %)"));
  const lab::Finding& blocking = finding(findings, "a cudaEventBlockingSync event lets the waiting thread sleep");
  CHECK(blocking.kind == lab::Finding::Kind::timing);
  CHECK(blocking.passed);
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set before").text,
                 "slept: 0.04 ms of CPU time in 20.20 ms of waiting (0 %)"));
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set before").text,
                 "the spinning came from the device's scheduling flag, not from the event"));
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set after").text, "The new flag took effect"));
  CHECK(contains(finding(findings, "the price of sleeping").text, "200 us later"));
}

TEST_CASE("waiting: a spinning default event under another flag does not quote the auto rule") {
  ch03::WaitRun run = expected_waits();
  run.default_event.device_flag = "cudaDeviceScheduleSpin";
  const lab::Finding plain = finding(ch03::wait_findings(run), "a default event");
  CHECK(contains(plain.text, "under cudaDeviceScheduleSpin the waiting thread spun"));
  CHECK_FALSE(contains(plain.text, "logical cores"));
}

TEST_CASE("waiting: the device flag's sleep is not credited when the default event did not spin either") {
  ch03::WaitRun run = expected_waits();
  run.default_event.cost = {20.0, 1.0};
  const auto findings = ch03::wait_findings(run);
  const lab::Finding& before = finding(findings, "cudaDeviceScheduleBlockingSync, set before");
  CHECK(contains(before.text, "slept"));
  CHECK_FALSE(contains(before.text, "came from"));
}

TEST_CASE("waiting: what did not happen as expected is said so") {
  ch03::WaitRun run = expected_waits();
  run.default_event.cost = {20.0, 1.0};         // did not spin
  run.blocking_event.cost = {20.0, 19.0};       // spun despite the flag
  run.flag_before_context.cost = {20.0, 18.0};  // the device flag did not help
  run.flag_after_context.cost = {20.0, 18.0};   // accepted but not in force
  run.blocking_event.cost.wall_ms = 19.9;       // and woke no later
  const auto findings = ch03::wait_findings(run);
  CHECK(contains(finding(findings, "a default event").text, "did not spin"));
  CHECK_FALSE(finding(findings, "a cudaEventBlockingSync event").passed);
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set before").text, "still spun"));
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set after").text, "kept its way of waiting"));
  CHECK(contains(finding(findings, "the price of sleeping").text, "did not return later"));
}

TEST_CASE("waiting: a refused cudaSetDeviceFlags, and cases that could not be measured") {
  ch03::WaitRun run = expected_waits();
  run.flag_after_context = measured("default", "cudaDeviceScheduleAuto", 20.0, 20.0, "cudaErrorSetOnActiveProcess");
  run.flag_before_context = missing("no executable at /x/ch03_wait_child (build the target ch03_wait_child)");
  auto findings = ch03::wait_findings(run);
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set after").text,
                 "returned cudaErrorSetOnActiveProcess"));
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set before").text, "not measured: no executable"));

  run.flag_after_context = missing("ch03_wait_child exited with code 1");
  run.default_event = missing("no GPU");
  run.blocking_event = missing("no GPU");
  findings = ch03::wait_findings(run);
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set after").text, "not measured: ch03_wait_child"));
  CHECK(contains(finding(findings, "a default event").text, "not measured: no GPU"));
  CHECK_FALSE(finding(findings, "a cudaEventBlockingSync event").passed);
  CHECK_FALSE(has_finding(findings, "the price of sleeping"));
}

TEST_CASE("waiting: the table shows the short flag, the cudaSetDeviceFlags result and '-' where nothing was measured") {
  ch03::WaitRun run = expected_waits();
  run.flag_after_context = missing("timed out");
  const lab::ResultTable table = ch03::wait_table(run);
  CHECK(table.row("default event").get("schedule").text() == "Auto");
  CHECK(table.row("default event").get("set_flags").is_none());
  CHECK(table.row("default event, flag set before the context").get("set_flags").text() == "cudaSuccess");
  CHECK(cell(table, "cudaEventBlockingSync event", "cpu_percent") == doctest::Approx(100 * 0.05 / 20.2));
  CHECK(table.row("default event, flag set after the context").get("wall_ms").is_none());
  CHECK(table.row("default event, flag set after the context").get("why_not").text() == "timed out");
  CHECK(contains(table.render(), "16 logical cores"));
}

TEST_CASE("waiting: the child's line survives the trip, among other output, and garbage is refused") {
  const ch03::WaitCase sent = measured("default", "cudaDeviceScheduleBlockingSync", 20.25, 0.0375, "cudaSuccess");
  ch03::WaitCase got = missing("not yet");
  REQUIRE(ch03::read_wait_case_line("a warning first\n" + ch03::wait_case_line(sent) + "\n", got));
  CHECK(got.measured);
  CHECK(got.why_not.empty());
  CHECK(got.device_flag == "cudaDeviceScheduleBlockingSync");
  CHECK(got.set_flags_result == "cudaSuccess");
  CHECK(got.cost.wall_ms == doctest::Approx(20.25));
  CHECK(got.cost.cpu_ms == doctest::Approx(0.0375));

  ch03::WaitCase untouched = missing("not yet");
  CHECK_FALSE(ch03::read_wait_case_line("", untouched));
  CHECK_FALSE(
      ch03::read_wait_case_line("ch03_wait_child set_flags=cudaSuccess flag=x wall_ms=abc cpu_ms=1", untouched));
  CHECK_FALSE(ch03::read_wait_case_line("ch03_wait_child set_flags=cudaSuccess wall_ms=1 cpu_ms=1", untouched));
  CHECK_FALSE(untouched.measured);
  CHECK(untouched.why_not == "not yet");
}

// --- 4 ------------------------------------------------------------------------

TEST_CASE("the host stays free: polls while the kernel ran, or none") {
  ch03::FreeHostRun run{20.01, 20.03, 1352, 5537792};
  const lab::Finding free = ch03::free_host_findings(run).at(0);
  CHECK(free.kind == lab::Finding::Kind::timing);
  CHECK(free.passed);
  CHECK(contains(free.text, "1352 polls"));
  CHECK(contains(free.text, "5537792 iterations"));
  CHECK(ch03::free_host_table(run).row("poll, then a slice of CPU work").get("polls").integer() == 1352);

  run.polls = 0;
  const lab::Finding late = ch03::free_host_findings(run).at(0);
  CHECK_FALSE(late.passed);
  CHECK(contains(late.text, "had ended before the host looked"));
}

// --- 5 ------------------------------------------------------------------------

TEST_CASE("bracketing: the pair before the copy contains it") {
  ch03::BracketingRun run;
  run.copy_mib = 4;
  run.copy_and_kernel_us = {89, 90, 88};
  run.kernel_only_us = {9, 9, 9};
  run.copy_only_us = {80, 81, 82};
  run.result = correct();
  const auto findings = ch03::bracketing_findings(run);
  CHECK(finding(findings, "c = a + b correct after the bracketing loop").passed);
  CHECK(finding(findings, "a pair started before the copy reads more than the kernel").passed);
  const lab::Finding& contained = finding(findings, "what the pair contained");
  CHECK(contains(contained.text, "add up to 90.0 us"));
  CHECK(contains(contained.text, "91 % of that pair was the copy"));
  CHECK(cell(ch03::bracketing_table(run), "start; copy; stop", "median") == doctest::Approx(81));
}

TEST_CASE("bracketing: a wrong result and a pair that did not read more both fail") {
  ch03::BracketingRun run;
  run.copy_and_kernel_us = {9};
  run.kernel_only_us = {9};
  run.copy_only_us = {80};
  run.result = wrong();
  const auto findings = ch03::bracketing_findings(run);
  const lab::Finding& result = finding(findings, "c = a + b correct");
  CHECK(result.kind == lab::Finding::Kind::correctness);
  CHECK_FALSE(result.passed);
  CHECK_FALSE(finding(findings, "a pair started before the copy").passed);
}

// --- 6 ------------------------------------------------------------------------

namespace {

ch03::GapMethod gap_method(double events_us, double cupti_us) {
  ch03::GapMethod m;
  m.events_us = around(events_us);
  if (cupti_us > 0)
    m.cupti_us = around(cupti_us);
  else
    m.cupti_missing = "this build has no CUPTI";
  m.result = correct();
  return m;
}

// Figures like the H100's at 1Mi floats: CUPTI 4.10 us, blocked 5.3 us, pair 1.25 us.
ch03::LaunchGapSize small_size(bool cupti = true) {
  ch03::LaunchGapSize s;
  s.n = 1 << 20;
  s.empty_pair_us = 1.25;
  s.l2_flush_bytes = 100u << 20;
  const double c = cupti ? 4.10 : 0;
  s.back_to_back = gap_method(7.4, c);
  s.isolated = gap_method(8.8, c);
  s.blocked = gap_method(5.3, c);
  s.blocked_flushed = gap_method(9.7, cupti ? 8.2 : 0);
  return s;
}

ch03::LaunchGapSize large_size() {
  ch03::LaunchGapSize s = small_size();
  s.n = 32 << 20;
  s.back_to_back = gap_method(150.0, 149.0);
  s.isolated = gap_method(154.0, 149.0);
  s.blocked = gap_method(151.5, 149.0);
  s.blocked_flushed = gap_method(151.0, 149.5);
  return s;
}

}  // namespace

TEST_CASE("launch gap: correct loops, blocked below isolated, minus the pair closest to CUPTI, benchmark met") {
  const ch03::LaunchGapRun run{{small_size(), large_size()}};
  const auto findings = ch03::launch_gap_findings(run);
  const lab::Finding& result = finding(findings, "c = a + b correct after every timing loop");
  CHECK(result.passed);
  CHECK(contains(result.text, "8 loops"));
  const lab::Finding& gap = finding(findings, "at 1Mi floats the blocked stream reads less than a lone launch");
  CHECK(gap.kind == lab::Finding::Kind::timing);
  CHECK(gap.passed);
  CHECK(contains(gap.text, "3.50 us (+66 %)"));
  CHECK(finding(findings, "the launch gap at 32Mi floats").kind == lab::Finding::Kind::observation);
  const lab::Finding& closest = finding(findings, "events against CUPTI at 1Mi floats");
  CHECK(contains(closest.text, "4.10 us"));
  CHECK(contains(closest.text, "Closest: blocked stream - empty pair, 4.05 us (-1.2 %)"));
  CHECK(contains(finding(findings, "events against CUPTI at 32Mi floats").text, "Closest: back to back"));
  CHECK(contains(finding(findings, "the flushed L2 at 1Mi floats").text, "2.00x its warm 4.10 us"));
  const lab::Finding& benchmark = finding(findings, "benchmark: the best event method within 5 % of CUPTI at 1Mi");
  CHECK(benchmark.kind == lab::Finding::Kind::observation);
  CHECK(contains(benchmark.text, "met: blocked stream - empty pair"));
}

TEST_CASE("launch gap: benchmark not met, blocked not below isolated, a wrong loop") {
  ch03::LaunchGapSize s = small_size();
  s.blocked = gap_method(9.0, 4.1);  // no better than isolated; minus the pair still +89 %
  s.back_to_back = gap_method(9.5, 4.1);
  s.isolated = gap_method(8.8, 4.1);
  s.isolated.result = wrong();
  const ch03::LaunchGapRun run{{s}};
  const auto findings = ch03::launch_gap_findings(run);
  const lab::Finding& result = finding(findings, "c = a + b correct after every timing loop");
  CHECK_FALSE(result.passed);
  CHECK(contains(result.text, "1Mi floats, isolated: 3 of 1024 values out of tolerance"));
  CHECK_FALSE(finding(findings, "at 1Mi floats the blocked stream reads less").passed);
  const lab::Finding& benchmark = finding(findings, "benchmark:");
  CHECK(contains(benchmark.text, "NOT met: blocked stream - empty pair read 7.75 us"));
}

TEST_CASE("launch gap without CUPTI: '-' in the table, said once per size, benchmark not measured, no crash") {
  const ch03::LaunchGapRun run{{small_size(false)}};
  const auto findings = ch03::launch_gap_findings(run);
  CHECK(contains(finding(findings, "events against CUPTI at 1Mi floats").text,
                 "CUPTI did not record (this build has no CUPTI)"));
  CHECK(contains(finding(findings, "the flushed L2 at 1Mi floats").text, "no CUPTI figure"));
  CHECK(contains(finding(findings, "benchmark:").text, "not measured"));
  for (const lab::Finding& f : findings) CHECK((f.passed || f.kind == lab::Finding::Kind::observation));

  const lab::ResultTable table = ch03::launch_gap_table(run.sizes[0]);
  CHECK(table.row("isolated").get("cupti_median_us").is_none());
  CHECK(table.row("isolated").get("vs_cupti_percent").is_none());
  CHECK(contains(table.render(), "this build has no CUPTI"));
}

TEST_CASE("launch gap table: each row's events beside CUPTI's figure of the same launches") {
  ch03::LaunchGapSize s = small_size();
  s.back_to_back.cupti_us.clear();
  s.back_to_back.cupti_missing = "CUPTI recorded 19 timed kernels for 20 launches (0 records dropped)";
  const lab::ResultTable table = ch03::launch_gap_table(s);
  CHECK(cell(table, "blocked stream - empty pair", "median") == doctest::Approx(4.05));
  CHECK(cell(table, "blocked stream - empty pair", "cupti_median_us") == doctest::Approx(4.1));
  CHECK(cell(table, "isolated", "vs_cupti_percent") == doctest::Approx(100 * (8.8 - 4.1) / 4.1));
  CHECK(cell(table, "blocked stream, L2 flushed - empty pair", "median") == doctest::Approx(8.45));
  CHECK(table.row("back to back").get("cupti_median_us").is_none());
  CHECK(table.row("isolated").get("result").text() == "correct");
  CHECK(table.row("isolated").get("n").integer() == (1 << 20));
  CHECK(contains(table.render(), "19 timed kernels for 20 launches"));
  // one method without CUPTI leaves the others compared
  const lab::Finding closest = finding(ch03::launch_gap_findings({{s}}), "events against CUPTI");
  CHECK_FALSE(contains(closest.text, "back to back"));
  CHECK(contains(closest.text, "isolated +114.6 %"));
}

// --- 7 ------------------------------------------------------------------------

TEST_CASE("many streams: pairs that waited, kernels one after another") {
  ch03::ManyStreamsRun run;
  run.one_kernel_ms = 0.077;
  run.per_stream_ms = {0.096, 0.157, 0.221, 0.265};
  run.first_begin_to_last_end_ms = 0.299;
  run.host_ms = 0.308;
  run.results = {correct(), correct(), correct(), correct()};
  const auto findings = ch03::many_streams_findings(run);
  CHECK(finding(findings, "c = a + b correct on every stream").passed);
  CHECK(contains(finding(findings, "each stream's own pair").text, "3.4x one kernel's time: a stream's begin"));
  CHECK(contains(finding(findings, "the whole").text, "97 % of 4 kernels one after another (0.308 ms)"));
  const lab::ResultTable table = ch03::many_streams_table(run);
  CHECK(cell(table, "stream 3: its own pair", "x_one_kernel") == doctest::Approx(0.265 / 0.077));
  CHECK(cell(table, "one kernel alone (median, back to back)", "ms") == doctest::Approx(0.077));
}

TEST_CASE("many streams: small kernels that overlapped, and a wrong stream") {
  ch03::ManyStreamsRun run;
  run.one_kernel_ms = 0.010;
  run.per_stream_ms = {0.011, 0.012};
  run.first_begin_to_last_end_ms = 0.012;
  run.host_ms = 0.030;
  run.results = {correct(), wrong()};
  const auto findings = ch03::many_streams_findings(run);
  const lab::Finding& result = finding(findings, "c = a + b correct on every stream");
  CHECK_FALSE(result.passed);
  CHECK(contains(result.text, "stream 1: 3 of 1024"));
  CHECK(contains(finding(findings, "each stream's own pair").text, "did not wait for each other"));
  CHECK(contains(finding(findings, "the whole").text, "the kernels overlapped"));
}

// --- options ------------------------------------------------------------------

TEST_CASE("options: the memory check names what does not fit") {
  ch03::EventOptions o;
  const std::size_t gib = std::size_t{1} << 30;
  CHECK(ch03::check_memory(o, 50u << 20, 80 * gib, 100 * gib).empty());
  o.streams = 32;
  o.stream_n = std::int64_t{4} << 30;
  const std::string device = ch03::check_memory(o, 50u << 20, 80 * gib, 100000 * gib);
  CHECK(contains(device, "GiB of device memory"));
  CHECK(contains(device, "--streams 32 x --stream-n 4Gi"));
  o = ch03::EventOptions{};
  CHECK(contains(ch03::check_memory(o, 50u << 20, 80 * gib, gib / 4), "GiB of host memory"));
}

TEST_CASE("background names a source for every claim") {
  for (const auto& list :
       {ch03::stopwatch_background(), ch03::event_cost_background(), ch03::wait_background(),
        ch03::free_host_background(), ch03::launch_gap_background(), ch03::many_streams_background()}) {
    CHECK_FALSE(list.empty());
    for (const ch03::Background& b : list) {
      CHECK_FALSE(b.text.empty());
      CHECK_FALSE(b.source.empty());
    }
  }
}
