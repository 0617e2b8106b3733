// Chapter 03's checks on hand-made data: every branch of every check in
// chapters/03_events/checks.hpp (pinned by id, verdict and numbers, not by
// wording), the tables' derived columns, the child's report line and the
// options. No GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../chapters/03_events/options.hpp"
#include "checks.hpp"
#include "command_line.hpp"
#include "program.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

using namespace lab_test;  // by_id, has_id, value, cell, correct, wrong

std::vector<double> around(double value, int count = 5) {
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) samples.push_back(value + 0.01 * (i - count / 2));
  return samples;
}

}  // namespace

// --- 1 ------------------------------------------------------------------------

TEST_CASE("stopwatch: events and host agree within 5 %, and the host timer adds a few us per sample") {
  ch03::StopwatchRun run;
  run.kernel_ms = 20;
  run.event_ms = {20.00, 20.01, 20.02};
  run.host_ms = {20.03, 20.05, 20.04};
  const auto findings = ch03::stopwatch_checks(run);
  const lab::Finding& agree = by_id(findings, "events_vs_host");
  CHECK(agree.id == "events_vs_host");
  CHECK(agree.kind == lab::Finding::Kind::timing);
  CHECK(agree.passed);
  CHECK(value(findings, "events_vs_host", "apart_percent") == doctest::Approx(100 * 0.03 / 20.01));
  CHECK(value(findings, "events_vs_host", "excess_us") == doctest::Approx(30.0));

  const lab::ResultTable table = ch03::stopwatch_table(run);
  CHECK(table.id() == "stopwatch");
  CHECK(cell(table, "events (cudaEventElapsedTime)", "median") == doctest::Approx(20.01));
  CHECK(cell(table, "host timer, synchronised", "vs_events_percent") == doctest::Approx(100 * 0.03 / 20.01));
}

TEST_CASE("stopwatch: a 10 % gap fails the check; a host timer that read less adds nothing") {
  ch03::StopwatchRun run;
  run.event_ms = {20, 20};
  run.host_ms = {22, 22};
  CHECK_FALSE(by_id(ch03::stopwatch_checks(run), "events_vs_host").passed);
  run.event_ms = {20.01};
  run.host_ms = {20.00};
  const auto findings = ch03::stopwatch_checks(run);
  CHECK(by_id(findings, "events_vs_host").passed);
  CHECK(value(findings, "events_vs_host", "excess_us") == doctest::Approx(-10.0));
}

// --- 2 ------------------------------------------------------------------------

TEST_CASE("event costs: the three costs, and the smallest difference between two empty-pair readings") {
  ch03::EventCostRun run{{1.248, 1.280, 1.408}, {1.5, 1.4, 1.6}, {0.4, 0.3, 0.5}};  // 39, 40, 44 times 32 ns
  lab::ResultTable table = ch03::event_cost_table(run);
  CHECK(table.id() == "event_costs");
  CHECK(cell(table, "empty event pair (GPU time)", "median") == doctest::Approx(1.28));
  CHECK(cell(table, "empty event pair (GPU time)", "smallest_difference_us") == doctest::Approx(0.032));
  CHECK(table.row("cudaEventRecord, default event (host time)").get("smallest_difference_us").is_none());
  CHECK(table.row("cudaEventRecord, cudaEventDisableTiming (host time)").get("count").integer() == 3);
  run.empty_pair_us = {1.28, 1.28, 1.28};  // every reading the same: no difference seen
  table = ch03::event_cost_table(run);
  CHECK(cell(table, "empty event pair (GPU time)", "smallest_difference_us") == 0);
}

// --- 3 ------------------------------------------------------------------------

namespace {

ch03::WaitCase measured(ch03::WaitCall call, const std::string& flag, double wall, double cpu,
                        const std::string& set_flags = "") {
  ch03::WaitCase c;
  c.call = call;
  c.device_flag = flag;
  c.set_flags_result = set_flags;
  c.measured = true;
  c.cost = {wall, cpu};
  return c;
}

ch03::WaitCase missing(ch03::WaitCall call, const std::string& why) {
  ch03::WaitCase c;
  c.call = call;
  c.why_not = why;
  return c;
}

constexpr auto kEvent = ch03::WaitCall::event_synchronize;
constexpr auto kStream = ch03::WaitCall::stream_synchronize;
constexpr auto kDevice = ch03::WaitCall::device_synchronize;
const std::string kAuto = "cudaDeviceScheduleAuto";
const std::string kBlocking = "cudaDeviceScheduleBlockingSync";

// The run the documentation leads one to expect: every call spins under
// Auto, and the device flag makes every call sleep.
ch03::WaitRun expected_waits() {
  ch03::WaitRun run;
  run.kernel_ms = 20;
  run.logical_cores = 16;
  run.default_event = measured(kEvent, kAuto, 20.0, 19.95);
  run.blocking_event = measured(kEvent, kAuto, 20.2, 0.05);
  run.stream_sync = measured(kStream, kAuto, 20.0, 19.9);
  run.device_sync = measured(kDevice, kAuto, 20.0, 19.9);
  run.flag_before_context = measured(kEvent, kBlocking, 20.2, 0.04, "cudaSuccess");
  run.flag_before_stream_sync = measured(kStream, kBlocking, 20.2, 0.05, "cudaSuccess");
  run.flag_before_device_sync = measured(kDevice, kBlocking, 20.2, 0.06, "cudaSuccess");
  run.flag_after_context = measured(kEvent, kBlocking, 20.2, 0.04, "cudaSuccess");
  run.flag_after_stream_sync = measured(kStream, kBlocking, 20.2, 0.05, "cudaSuccess");
  return run;
}

// What the H100 printed on 2026-11-22 (driver 580, CUDA 13.0): the device flag
// put the stream and device calls to sleep, not cudaEventSynchronize on a default event.
ch03::WaitRun event_flag_decides() {
  ch03::WaitRun run = expected_waits();
  run.default_event.cost = {20.00, 20.01};
  run.blocking_event.cost = {20.29, 0.06};
  run.flag_before_context.cost = {20.00, 20.01};
  run.flag_after_context.cost = {20.00, 20.01};
  return run;
}

}  // namespace

TEST_CASE("waiting: a cudaEventBlockingSync event that slept passes; one that spun, or was not measured, fails") {
  ch03::WaitRun run = expected_waits();
  auto findings = ch03::wait_checks(run);
  REQUIRE(findings.size() == 1);
  const lab::Finding& blocking = by_id(findings, "blocking_event");
  CHECK(blocking.kind == lab::Finding::Kind::timing);
  CHECK(blocking.passed);
  CHECK(value(findings, "blocking_event", "wait_cpu_percent") == doctest::Approx(100 * 0.05 / 20.2));

  run.blocking_event.cost = {20.0, 5.0};  // between sleeping and spinning: it did not spin
  CHECK(by_id(ch03::wait_checks(run), "blocking_event").passed);
  run.blocking_event.cost = {20.0, 19.0};  // spun despite its flag
  CHECK_FALSE(by_id(ch03::wait_checks(run), "blocking_event").passed);

  run.blocking_event = missing(kEvent, "no GPU");
  findings = ch03::wait_checks(run);
  CHECK_FALSE(by_id(findings, "blocking_event").passed);
  CHECK(by_id(findings, "blocking_event").values.empty());  // no CPU share to report
}

TEST_CASE("waiting: the table shows the wait call, the short flag, cudaSetDeviceFlags's answer, '-' when unmeasured") {
  ch03::WaitRun run = expected_waits();
  run.flag_after_context = missing(kEvent, "timed out");
  const lab::ResultTable table = ch03::wait_table(run);
  CHECK(table.id() == "waits");
  CHECK(table.rows().size() == 9);
  CHECK(table.row("default event").get("schedule").text() == "Auto");
  CHECK(table.row("default event").get("set_flags").is_none());
  CHECK(table.row("default event").get("wait_call").text() == "cudaEventSynchronize");
  CHECK(table.row("the stream").get("wait_call").text() == "cudaStreamSynchronize");
  CHECK(table.row("default event, flag set before the context").get("set_flags").text() == "cudaSuccess");
  CHECK(table.row("the device, flag set before the context").get("schedule").text() == "BlockingSync");
  CHECK(table.row("the stream, flag set after the context").get("wait_call").text() == "cudaStreamSynchronize");
  CHECK(cell(table, "cudaEventBlockingSync event", "cpu_percent") == doctest::Approx(100 * 0.05 / 20.2));
  CHECK(table.row("default event, flag set after the context").get("wall_ms").is_none());
  CHECK(table.row("default event, flag set after the context").get("thread").is_none());
  CHECK(table.row("default event, flag set after the context").get("why_not").text() == "timed out");
}

TEST_CASE("waiting: the thread column says spun (CPU / wall from 50 %), slept (below 20 %) or between") {
  ch03::WaitRun run = event_flag_decides();  // the H100: the device flag put the stream and device waits to sleep
  run.device_sync.cost = {20.0, 10.0};       // 50 %: spun
  run.stream_sync.cost = {20.0, 4.0};        // 20 %: between
  const lab::ResultTable table = ch03::wait_table(run);
  CHECK(table.row("default event").get("thread").text() == "spun");
  CHECK(table.row("cudaEventBlockingSync event").get("thread").text() == "slept");
  CHECK(table.row("the device").get("thread").text() == "spun");
  CHECK(table.row("the stream").get("thread").text() == "between");
  CHECK(table.row("default event, flag set before the context").get("thread").text() == "spun");
  CHECK(table.row("the stream, flag set before the context").get("thread").text() == "slept");
  CHECK(table.row("the stream, flag set after the context").get("thread").text() == "slept");
}

TEST_CASE("waiting: the child's line survives the trip, among other output, and garbage is refused") {
  const ch03::WaitCase sent = measured(kEvent, kBlocking, 20.25, 0.0375, "cudaSuccess");
  ch03::WaitCase got = missing(kEvent, "not yet");
  REQUIRE(ch03::read_wait_case_line("a warning first\n" + ch03::wait_case_line(sent) + "\n", kEvent, got));
  CHECK(got.measured);
  CHECK(got.why_not.empty());
  CHECK(got.call == kEvent);
  CHECK(got.device_flag == kBlocking);
  CHECK(got.set_flags_result == "cudaSuccess");
  CHECK(got.cost.wall_ms == doctest::Approx(20.25));
  CHECK(got.cost.cpu_ms == doctest::Approx(0.0375));

  ch03::WaitCase untouched = missing(kEvent, "not yet");
  for (const char* bad : {"", "ch03_wait_child cudaEventSynchronize cudaSuccess x abc 1",
                          "ch03_wait_child cudaEventSynchronize cudaSuccess 1 1",  // a field missing
                          "ch03_wait_child cudaSuccess x 1 1",                     // no wait call
                          "ch03_wait_child cudaWhatever cudaSuccess x 1 1",
                          "ch03_wait_child cudaEventSynchronize cudaSuccess x -1 1",  // a negative time
                          "another_child cudaEventSynchronize cudaSuccess x 1 1"}) {
    CAPTURE(bad);
    CHECK_FALSE(ch03::read_wait_case_line(bad, kEvent, untouched));
  }
  CHECK_FALSE(untouched.measured);
  CHECK(untouched.why_not == "not yet");
}

TEST_CASE("waiting: one child's lines, one per wait call, each read back for its own call") {
  const ch03::WaitRun run = expected_waits();
  const std::string text = ch03::wait_case_line(run.flag_before_context) + "\n" +
                           ch03::wait_case_line(run.flag_before_stream_sync) + "\n" +
                           ch03::wait_case_line(run.flag_before_device_sync) + "\n";
  for (const auto& [call, cpu] : {std::pair{kStream, 0.05}, std::pair{kDevice, 0.06}, std::pair{kEvent, 0.04}}) {
    ch03::WaitCase c = missing(call, "not yet");
    REQUIRE(ch03::read_wait_case_line(text, call, c));
    CHECK(c.cost.cpu_ms == doctest::Approx(cpu));
  }
  ch03::WaitCase after_garbage = missing(kStream, "not yet");  // an unreadable line first does not stop the search
  REQUIRE(ch03::read_wait_case_line("ch03_wait_child cudaStreamSynchronize oops\n" + text, kStream, after_garbage));
  CHECK(after_garbage.cost.cpu_ms == doctest::Approx(0.05));
  ch03::WaitCase absent = missing(kDevice, "not yet");
  CHECK_FALSE(ch03::read_wait_case_line(ch03::wait_case_line(run.flag_after_context), kDevice, absent));
  CHECK_FALSE(absent.measured);
}

TEST_CASE("waiting: the wait calls' names go both ways, and nothing else reads as one") {
  for (ch03::WaitCall call : {kEvent, kStream, kDevice}) {
    ch03::WaitCall back = kEvent;
    REQUIRE(ch03::wait_call_from_name(ch03::wait_call_name(call), back));
    CHECK(back == call);
  }
  CHECK(ch03::wait_call_name(kStream) == "cudaStreamSynchronize");
  ch03::WaitCall untouched = kDevice;
  CHECK_FALSE(ch03::wait_call_from_name("cudaThreadSynchronize", untouched));
  CHECK(untouched == kDevice);
}

// --- 4 ------------------------------------------------------------------------

TEST_CASE("the host stays free: polls while the kernel ran, or none") {
  ch03::FreeHostRun run{20.01, 20.03, 1352, 5537792};
  const lab::Finding free = by_id(ch03::free_host_checks(run), "host_worked");
  CHECK(free.kind == lab::Finding::Kind::timing);
  CHECK(free.passed);
  CHECK(free.value("polls").number() == 1352);
  const lab::ResultTable table = ch03::free_host_table(run);
  CHECK(table.id() == "free_host");
  CHECK(table.row("poll, then a slice of CPU work").get("polls").integer() == 1352);

  run.polls = 0;
  CHECK_FALSE(by_id(ch03::free_host_checks(run), "host_worked").passed);
}

// --- 5 ------------------------------------------------------------------------

TEST_CASE("bracketing: the pair before the copy reads more than the one after; a wrong result and no excess fail") {
  ch03::BracketingRun run;
  run.copy_mib = 4;
  run.copy_and_kernel_us = {89, 90, 88};
  run.after_copy_us = {9, 9, 9};
  run.copy_only_us = {80, 81, 82};
  run.result = correct();
  auto findings = ch03::bracketing_checks(run);
  CHECK(by_id(findings, "bracketing_result").kind == lab::Finding::Kind::correctness);
  CHECK(by_id(findings, "bracketing_result").passed);
  CHECK(by_id(findings, "pair_contains_copy").passed);
  CHECK(value(findings, "pair_contains_copy", "copy_and_kernel_us") == doctest::Approx(89));
  CHECK(value(findings, "pair_contains_copy", "after_copy_us") == doctest::Approx(9));
  const lab::ResultTable table = ch03::bracketing_table(run);
  CHECK(table.id() == "bracketing");
  CHECK(cell(table, "start; copy; stop", "median") == doctest::Approx(81));

  run.copy_and_kernel_us = {9};
  run.result = wrong();
  findings = ch03::bracketing_checks(run);
  CHECK_FALSE(by_id(findings, "bracketing_result").passed);
  CHECK_FALSE(by_id(findings, "pair_contains_copy").passed);
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
  s.option = "n";
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
  s.option = "n_large";
  s.n = 32 << 20;
  s.back_to_back = gap_method(150.0, 149.0);
  s.isolated = gap_method(154.0, 149.0);
  s.blocked = gap_method(151.5, 149.0);
  s.blocked_flushed = gap_method(151.0, 149.5);
  return s;
}

}  // namespace

TEST_CASE("launch gap: correct loops, blocked below isolated, minus the pair within 5 % of CUPTI") {
  const ch03::LaunchGapRun run{small_size(), large_size()};
  const auto findings = ch03::launch_gap_checks(run);
  CHECK(by_id(findings, "launch_gap_results").passed);
  CHECK(value(findings, "launch_gap_results", "result_count") == 8);
  const lab::Finding& gap = by_id(findings, "gap_n");
  CHECK(gap.kind == lab::Finding::Kind::timing);
  CHECK(gap.passed);
  CHECK(value(findings, "gap_n", "isolated_us") == doctest::Approx(8.8));
  CHECK(value(findings, "gap_n", "blocked_us") == doctest::Approx(5.3));
  CHECK_FALSE(has_id(findings, "gap_n_large"));  // judged at --n only; --n-large's rows are in its table
  CHECK(by_id(findings, "closest_to_cupti_n").id == "closest_to_cupti_n.within_benchmark");
  CHECK(value(findings, "closest_to_cupti_n", "events_us") == doctest::Approx(5.3 - 1.25));  // blocked - empty pair
  CHECK(value(findings, "closest_to_cupti_n", "cupti_us") == doctest::Approx(4.1));
  CHECK(by_id(findings, "closest_to_cupti_n_large").id == "closest_to_cupti_n_large.within_benchmark");
  CHECK(value(findings, "closest_to_cupti_n_large", "events_us") == doctest::Approx(150.0));  // back to back
}

TEST_CASE("launch gap: benchmark not met, blocked not below isolated, a wrong loop") {
  ch03::LaunchGapSize s = small_size();
  s.blocked = gap_method(9.0, 4.1);  // no better than isolated; minus the pair still +89 %
  s.back_to_back = gap_method(9.5, 4.1);
  s.isolated = gap_method(8.8, 4.1);
  s.isolated.result = wrong();
  const auto findings = ch03::launch_gap_checks({s, large_size()});
  CHECK_FALSE(by_id(findings, "launch_gap_results").passed);
  CHECK_FALSE(by_id(findings, "gap_n").passed);
  CHECK(by_id(findings, "closest_to_cupti_n").id == "closest_to_cupti_n.outside_benchmark");
  CHECK(value(findings, "closest_to_cupti_n", "events_us") == doctest::Approx(9.0 - 1.25));
}

TEST_CASE("launch gap without CUPTI: '-' in the table, the reason in its note, the comparison skipped, nothing fails") {
  const ch03::LaunchGapRun run{small_size(false), large_size()};
  const auto findings = ch03::launch_gap_checks(run);
  CHECK(by_id(findings, "closest_to_cupti_n").id == "closest_to_cupti_n.skipped");
  for (const lab::Finding& f : findings) CHECK((f.passed || f.kind == lab::Finding::Kind::observation));

  const lab::ResultTable table = ch03::launch_gap_table(run.small);
  CHECK(table.row("isolated").get("cupti_median_us").is_none());
  CHECK(table.row("isolated").get("vs_cupti_percent").is_none());
  CHECK(table.row("blocked stream, L2 flushed").get("cupti_x_warm").is_none());
}

TEST_CASE("launch gap table: each row's events beside CUPTI's figure of the same launches") {
  ch03::LaunchGapSize s = small_size();
  s.back_to_back.cupti_us.clear();
  s.back_to_back.cupti_missing = "CUPTI recorded 19 timed kernels for 20 launches (0 records dropped)";
  const lab::ResultTable table = ch03::launch_gap_table(s);
  CHECK(table.id() == "launch_gap_n");
  CHECK(ch03::launch_gap_table(large_size()).id() == "launch_gap_n_large");
  CHECK(cell(table, "blocked stream - empty pair", "median") == doctest::Approx(4.05));
  CHECK(cell(table, "blocked stream - empty pair", "cupti_median_us") == doctest::Approx(4.1));
  CHECK(cell(table, "isolated", "vs_cupti_percent") == doctest::Approx(100 * (8.8 - 4.1) / 4.1));
  CHECK(cell(table, "blocked stream, L2 flushed - empty pair", "median") == doctest::Approx(8.45));
  CHECK(cell(table, "blocked stream, L2 flushed", "cupti_x_warm") == doctest::Approx(8.2 / 4.1));
  CHECK(table.row("back to back").get("cupti_median_us").is_none());
  CHECK(table.row("isolated").get("result").text() == "correct");
  CHECK(table.row("isolated").get("n").integer() == (1 << 20));
  // one method without CUPTI leaves the others compared
  const auto findings = ch03::launch_gap_checks({s, large_size()});
  CHECK(by_id(findings, "closest_to_cupti_n").id == "closest_to_cupti_n.within_benchmark");
}

// --- 7 ------------------------------------------------------------------------

TEST_CASE("many streams: every stream correct, each pair and the whole against one kernel and that times the streams") {
  ch03::ManyStreamsRun run;
  run.one_kernel_ms = 0.077;
  run.per_stream_ms = {0.096, 0.157, 0.221, 0.265};
  run.earliest_begin_to_latest_end_ms = 0.299;
  run.host_ms = 0.308;
  run.results = {correct(), correct(), correct(), correct()};
  auto findings = ch03::many_streams_checks(run);
  REQUIRE(findings.size() == 1);
  CHECK(by_id(findings, "many_streams_results").passed);
  CHECK(value(findings, "many_streams_results", "result_count") == 4);
  const lab::ResultTable table = ch03::many_streams_table(run);
  CHECK(table.id() == "many_streams");
  CHECK(cell(table, "stream 3: its own pair", "x_one_kernel") == doctest::Approx(0.265 / 0.077));
  CHECK(cell(table, "whole: earliest begin to latest end", "x_one_kernel") == doctest::Approx(0.299 / 0.077));
  CHECK(cell(table, "one kernel alone (median, back to back)", "ms") == doctest::Approx(0.077));
  CHECK(cell(table, "4 x one kernel alone (computed)", "ms") == doctest::Approx(4 * 0.077));
  CHECK(cell(table, "4 x one kernel alone (computed)", "x_one_kernel") == doctest::Approx(4.0));

  run.results = {correct(), wrong()};
  CHECK_FALSE(by_id(ch03::many_streams_checks(run), "many_streams_results").passed);
  run.results.clear();
  CHECK_FALSE(by_id(ch03::many_streams_checks(run), "many_streams_results").passed);
}

TEST_CASE("many streams: the whole runs from the earliest begin event, which need not be the first stream's") {
  // Each event read from stream 0's begin event; stream 2's began 4 us before it.
  CHECK(lab::span_ms({0, 0.010, -0.004}, {0.080, 0.090, 0.070}) == doctest::Approx(0.094));
  CHECK(lab::span_ms({0, 0.010}, {0.050, 0.060}) == doctest::Approx(0.060));
  CHECK(lab::span_ms({}, {}) == 0);
}

// --- 8 ------------------------------------------------------------------------

namespace {

// Like an H100's 32Mi-float add: the pair on its stream 155 us, the host 175 us, the other stream's pair 4 us.
ch03::WrongStreamRun wrong_stream(double own, double other, double host) {
  ch03::WrongStreamRun run;
  run.n = 32 << 20;
  run.own_stream_us = around(own);
  run.other_stream_us = around(other);
  run.joined_us = around(own + 1);
  run.host_us = around(host);
  run.unfinished = 5;
  run.result = correct();
  return run;
}

}  // namespace

TEST_CASE("wrong stream: the host timer confirms the pair on the work's stream and the fork-and-join pair") {
  const ch03::WrongStreamRun run = wrong_stream(155, 4, 175);
  const auto findings = ch03::wrong_stream_checks(run);
  REQUIRE(findings.size() == 3);
  CHECK(by_id(findings, "wrong_stream_result").kind == lab::Finding::Kind::correctness);
  CHECK(by_id(findings, "wrong_stream_result").passed);
  CHECK(by_id(findings, "own_pair_vs_host").kind == lab::Finding::Kind::timing);
  CHECK(by_id(findings, "own_pair_vs_host").passed);
  CHECK(value(findings, "own_pair_vs_host", "own_stream_us") == doctest::Approx(155));
  CHECK(value(findings, "own_pair_vs_host", "host_us") == doctest::Approx(175));
  CHECK(by_id(findings, "ordered_pair_vs_host").kind == lab::Finding::Kind::timing);
  CHECK(by_id(findings, "ordered_pair_vs_host").passed);
  CHECK(value(findings, "ordered_pair_vs_host", "joined_us") == doctest::Approx(156));

  const lab::ResultTable table = ch03::wrong_stream_table(run);
  CHECK(table.id() == "wrong_stream");
  CHECK(cell(table, "events on another stream", "median") == doctest::Approx(4));
  CHECK(cell(table, "events on another stream", "unfinished") == 5);
  CHECK(table.row("events on the work's stream").get("unfinished").is_none());
  CHECK(cell(table, "events on the work's stream", "vs_host") == doctest::Approx(100.0 * (155 - 175) / 175));
  CHECK(cell(table, "another stream, fork and join (cudaStreamWaitEvent)", "median") == doctest::Approx(156));
  CHECK(cell(table, "host timer, to cudaStreamSynchronize(work)", "median") == doctest::Approx(175));
}

TEST_CASE("wrong stream: within 50 us or 25 % of the host timer, whichever is larger; a wrong result fails") {
  // A 10 us kernel: within the host's own 50 us of overhead.
  CHECK(by_id(ch03::wrong_stream_checks(wrong_stream(10, 4, 30)), "own_pair_vs_host").passed);
  // The "right" pair read like the wrong one: the host timer disagrees, and the check fails.
  CHECK_FALSE(by_id(ch03::wrong_stream_checks(wrong_stream(4, 4, 175)), "own_pair_vs_host").passed);
  // Longer than the host timer around it: broken too. A long kernel's bound is 25 % of the host's reading.
  CHECK_FALSE(by_id(ch03::wrong_stream_checks(wrong_stream(300, 4, 175)), "own_pair_vs_host").passed);
  CHECK(by_id(ch03::wrong_stream_checks(wrong_stream(16000, 4, 20000)), "own_pair_vs_host").passed);
  CHECK_FALSE(by_id(ch03::wrong_stream_checks(wrong_stream(14000, 4, 20000)), "own_pair_vs_host").passed);
  ch03::WrongStreamRun run = wrong_stream(155, 4, 175);
  run.result = wrong();
  CHECK_FALSE(by_id(ch03::wrong_stream_checks(run), "wrong_stream_result").passed);
}

TEST_CASE("wrong stream: a fork-and-join pair that misses the work fails its check, whatever the other pairs read") {
  ch03::WrongStreamRun run = wrong_stream(155, 4, 175);
  run.joined_us = around(9);  // a join that did not wait (or a start after the work): reads like the mistake
  auto findings = ch03::wrong_stream_checks(run);
  CHECK_FALSE(by_id(findings, "ordered_pair_vs_host").passed);
  CHECK(value(findings, "ordered_pair_vs_host", "joined_us") == doctest::Approx(9));
  CHECK(by_id(findings, "own_pair_vs_host").passed);
  run.joined_us = around(300);  // longer than the host timer around it: broken too
  CHECK_FALSE(by_id(ch03::wrong_stream_checks(run), "ordered_pair_vs_host").passed);
  run.joined_us.clear();  // no samples: nothing to judge, so not a pass
  CHECK_FALSE(by_id(ch03::wrong_stream_checks(run), "ordered_pair_vs_host").passed);
}

TEST_CASE("wrong stream: with a kernel too short to tell an unordered stop apart, the fork-and-join pair is observed") {
  // A 20 us kernel: the unordered pair (4 us) is within 50 us of the host timer (30 us), and so would be
  // a join that did not wait: the run cannot judge the join, and says so.
  ch03::WrongStreamRun run = wrong_stream(20, 4, 30);
  run.joined_us = around(9);
  const lab::Finding f = by_id(ch03::wrong_stream_checks(run), "ordered_pair_vs_host");
  CHECK(f.id == "ordered_pair_vs_host.too_short");
  CHECK(f.kind == lab::Finding::Kind::observation);
  // The default size: the unordered pair (4 us) is far from the host timer (175 us): judged.
  CHECK(by_id(ch03::wrong_stream_checks(wrong_stream(155, 4, 175)), "ordered_pair_vs_host").kind ==
        lab::Finding::Kind::timing);
}

// --- options --------------------------------------------------------------------

TEST_CASE("options: the table's ranges and parsing, and the memory need") {
  ch03::Options parsed;
  lab::Options table("ch03_events", "test");
  ch03::add_options(table, parsed);
  const char* sizes[] = {"ch03_events", "--n", "64Ki", "--streams", "8", "--kernel-ms", "7.5"};
  CHECK(table.parse(7, sizes) == lab::Options::Parsed::run);
  CHECK(parsed.n == 64 * 1024);
  CHECK(parsed.streams == 8);
  CHECK(parsed.kernel_ms == doctest::Approx(7.5));
  for (const char* bad : {"--streams=0", "--kernel-ms=1", "--n-large=0"}) {
    ch03::Options o;
    lab::Options again("ch03_events", "test");
    ch03::add_options(again, o);
    const char* argv[] = {"ch03_events", bad};
    CAPTURE(bad);
    CHECK_THROWS_AS(again.parse(2, argv), lab::UsageError);
  }

  const ch03::Options o;  // 1Mi, 32Mi, 4 streams of 16Mi; an L2 of 50 MiB (an H100's, for example)
  const lab::MemoryNeed need = ch03::memory_need(o, 50u << 20);
  const double vectors = 4.0 * (1 << 20) + 3.0 * (32 << 20) + 3.0 * 4 * (16 << 20);
  CHECK(need.device_bytes == doctest::Approx(4 * vectors + 2.0 * (50 << 20)));
  CHECK(need.host_bytes == doctest::Approx(4 * (vectors + (32 << 20))));
  CHECK(need.what == "--n 1Mi, --n-large 32Mi, --streams 4 x --stream-n 16Mi");
  const std::size_t gib = std::size_t{1} << 30;
  CHECK(lab::check_memory_fits(need, 80 * gib, 100 * gib).empty());
  ch03::Options big;
  big.streams = 32;
  big.stream_n = std::int64_t{4} << 30;
  CHECK_FALSE(lab::check_memory_fits(ch03::memory_need(big, 50u << 20), 80 * gib, 100000 * gib).empty());
}
