// Chapter 03's findings on hand-made data: every branch of every function in
// chapters/03_events/findings.hpp, and the options' memory check. No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "event_options.hpp"
#include "findings.hpp"
#include "support/findings_support.hpp"

namespace {

using namespace lab_test;  // contains, finding, cell, correct, wrong

bool has_finding(const std::vector<lab::Finding>& findings, const std::string& name) {
  for (const lab::Finding& f : findings) {
    if (f.name.rfind(name, 0) == 0) return true;
  }
  return false;
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

// The same, for a wait that is not on an event.
ch03::WaitCase measured_call(ch03::WaitCall call, const std::string& flag, double wall, double cpu,
                             const std::string& set_flags = "") {
  ch03::WaitCase c = measured("", flag, wall, cpu, set_flags);
  c.call = call;
  return c;
}

ch03::WaitCase missing_call(ch03::WaitCall call, const std::string& why) {
  ch03::WaitCase c = missing(why);
  c.call = call;
  c.event = "";
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
  run.stream_sync = measured_call(ch03::WaitCall::stream_synchronize, "cudaDeviceScheduleAuto", 20.0, 19.9);
  run.device_sync = measured_call(ch03::WaitCall::device_synchronize, "cudaDeviceScheduleAuto", 20.0, 19.9);
  run.flag_before_stream_sync =
      measured_call(ch03::WaitCall::stream_synchronize, "cudaDeviceScheduleBlockingSync", 20.2, 0.05, "cudaSuccess");
  run.flag_before_device_sync =
      measured_call(ch03::WaitCall::device_synchronize, "cudaDeviceScheduleBlockingSync", 20.2, 0.06, "cudaSuccess");
  run.flag_after_stream_sync =
      measured_call(ch03::WaitCall::stream_synchronize, "cudaDeviceScheduleBlockingSync", 20.2, 0.05, "cudaSuccess");
  return run;
}

// What the H100 printed on 2026-11-22 (driver 580, CUDA 13.0), with the two new
// calls as their pages lead one to expect: the device flag put the stream and
// device calls to sleep, not cudaEventSynchronize on a default event.
ch03::WaitRun event_flag_decides() {
  ch03::WaitRun run = expected_waits();
  run.default_event.cost = {20.00, 20.01};
  run.blocking_event.cost = {20.29, 0.06};
  run.flag_before_context.cost = {20.00, 20.01};
  run.flag_after_context.cost = {20.00, 20.01};
  return run;
}

}  // namespace

TEST_CASE("waiting: a default event spins under cudaDeviceScheduleAuto, blocking sync sleeps, the device flag too") {
  const auto findings = ch03::wait_findings(expected_waits());
  const lab::Finding& plain = finding(findings, "a default event");
  CHECK(contains(plain.text, "under cudaDeviceScheduleAuto the waiting thread spun"));
  CHECK(contains(plain.text, "no more than the logical cores (this process made one context; 16 logical cores)"));
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
  run.default_event.cost = {20.0, 1.0};            // did not spin
  run.blocking_event.cost = {20.0, 19.0};          // spun despite the flag
  run.flag_before_context.cost = {20.0, 18.0};     // the device flag did not help
  run.flag_after_context.cost = {20.0, 18.0};      // accepted but not in force
  run.blocking_event.cost.wall_ms = 19.9;          // and woke no later
  run.flag_after_stream_sync.cost = {20.0, 18.0};  // cudaStreamSynchronize spun too
  const auto findings = ch03::wait_findings(run);
  CHECK(contains(finding(findings, "a default event").text, "did not spin"));
  CHECK_FALSE(finding(findings, "a cudaEventBlockingSync event").passed);
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set before").text, "still spun"));
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set after").text,
                 "as it did with the flag set before the context (18.00 ms CPU in 20.00 ms): this run cannot tell "
                 "whether the new flag reached the existing context"));
  CHECK_FALSE(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set after").text, "kept its way"));
  CHECK(contains(finding(findings, "the price of sleeping").text, "did not return later"));
}

TEST_CASE("waiting: the event spun with the flag set after the context, but the stream call slept (the H100)") {
  const std::string after =
      finding(ch03::wait_findings(event_flag_decides()), "cudaDeviceScheduleBlockingSync, set after").text;
  CHECK(contains(after, "the flag did reach the existing context: cudaStreamSynchronize in the same process slept"));
  CHECK(contains(after, "it is the default event's wait that spins either way"));
  CHECK_FALSE(contains(after, "cannot tell"));
}

TEST_CASE("waiting: the flag set after the context is judged against the flag set before it") {
  ch03::WaitRun run = expected_waits();
  run.flag_after_context.cost = {20.0, 18.0};  // spun, where the flag set before the context slept
  std::string after = finding(ch03::wait_findings(run), "cudaDeviceScheduleBlockingSync, set after").text;
  CHECK(contains(after, "where it did not with the flag set before the context: the existing context kept its way"));

  run.flag_before_context = missing("timed out");
  after = finding(ch03::wait_findings(run), "cudaDeviceScheduleBlockingSync, set after").text;
  CHECK(contains(after, "yet the waiting thread spun: 18.00 ms of CPU time in 20.00 ms of waiting (90 %)."));
  CHECK_FALSE(contains(after, "kept its way"));
  CHECK_FALSE(contains(after, "cannot tell"));

  run = expected_waits();
  run.default_event.cost = {20.0, 1.0};  // no spinning to begin with: the after-flag's sleep is not credited
  after = finding(ch03::wait_findings(run), "cudaDeviceScheduleBlockingSync, set after").text;
  CHECK(contains(after, "The default event did not spin without the flag either"));
  CHECK_FALSE(contains(after, "took effect"));
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
  CHECK(table.row("default event").get("wait_call").text() == "cudaEventSynchronize");
  CHECK(table.row("the stream").get("wait_call").text() == "cudaStreamSynchronize");
  CHECK(table.row("the stream").get("event").is_none());
  CHECK(table.row("the device, flag set before the context").get("wait_call").text() == "cudaDeviceSynchronize");
  CHECK(table.row("the device, flag set before the context").get("schedule").text() == "BlockingSync");
  CHECK(table.rows().size() == 9);
}

TEST_CASE("waiting: the child's line survives the trip, among other output, and garbage is refused") {
  const ch03::WaitCase sent = measured("default", "cudaDeviceScheduleBlockingSync", 20.25, 0.0375, "cudaSuccess");
  ch03::WaitCase got = missing("not yet");
  REQUIRE(ch03::read_wait_case_line("a warning first\n" + ch03::wait_case_line(sent) + "\n",
                                    ch03::WaitCall::event_synchronize, got));
  CHECK(got.measured);
  CHECK(got.why_not.empty());
  CHECK(got.call == ch03::WaitCall::event_synchronize);
  CHECK(got.device_flag == "cudaDeviceScheduleBlockingSync");
  CHECK(got.set_flags_result == "cudaSuccess");
  CHECK(got.cost.wall_ms == doctest::Approx(20.25));
  CHECK(got.cost.cpu_ms == doctest::Approx(0.0375));

  const auto event = ch03::WaitCall::event_synchronize;
  ch03::WaitCase untouched = missing("not yet");
  CHECK_FALSE(ch03::read_wait_case_line("", event, untouched));
  CHECK_FALSE(ch03::read_wait_case_line(
      "ch03_wait_child wait=cudaEventSynchronize set_flags=cudaSuccess flag=x wall_ms=abc cpu_ms=1", event, untouched));
  CHECK_FALSE(ch03::read_wait_case_line(
      "ch03_wait_child wait=cudaEventSynchronize set_flags=cudaSuccess wall_ms=1 cpu_ms=1", event, untouched));
  CHECK_FALSE(ch03::read_wait_case_line("ch03_wait_child set_flags=cudaSuccess flag=x wall_ms=1 cpu_ms=1", event,
                                        untouched));  // no wait=
  CHECK_FALSE(ch03::read_wait_case_line(
      "ch03_wait_child wait=cudaWhatever set_flags=cudaSuccess flag=x wall_ms=1 cpu_ms=1", event, untouched));
  CHECK_FALSE(untouched.measured);
  CHECK(untouched.why_not == "not yet");
}

TEST_CASE("waiting: one child's lines, one per wait call, each read back for its own call") {
  const ch03::WaitRun run = expected_waits();
  const std::string text = ch03::wait_case_line(run.flag_before_context) + "\n" +
                           ch03::wait_case_line(run.flag_before_stream_sync) + "\n" +
                           ch03::wait_case_line(run.flag_before_device_sync) + "\n";
  ch03::WaitCase stream = missing_call(ch03::WaitCall::stream_synchronize, "not yet");
  REQUIRE(ch03::read_wait_case_line(text, ch03::WaitCall::stream_synchronize, stream));
  CHECK(stream.cost.cpu_ms == doctest::Approx(0.05));
  ch03::WaitCase device = missing_call(ch03::WaitCall::device_synchronize, "not yet");
  REQUIRE(ch03::read_wait_case_line(text, ch03::WaitCall::device_synchronize, device));
  CHECK(device.cost.cpu_ms == doctest::Approx(0.06));
  ch03::WaitCase event = missing("not yet");
  REQUIRE(ch03::read_wait_case_line(text, ch03::WaitCall::event_synchronize, event));
  CHECK(event.cost.cpu_ms == doctest::Approx(0.04));

  ch03::WaitCase absent = missing_call(ch03::WaitCall::device_synchronize, "not yet");
  CHECK_FALSE(ch03::read_wait_case_line(ch03::wait_case_line(run.flag_after_context),
                                        ch03::WaitCall::device_synchronize, absent));
  CHECK_FALSE(absent.measured);
}

TEST_CASE("waiting: the wait calls' names go both ways, and nothing else reads as one") {
  for (ch03::WaitCall call :
       {ch03::WaitCall::event_synchronize, ch03::WaitCall::stream_synchronize, ch03::WaitCall::device_synchronize}) {
    ch03::WaitCall back = ch03::WaitCall::event_synchronize;
    REQUIRE(ch03::wait_call_from_name(ch03::wait_call_name(call), back));
    CHECK(back == call);
  }
  CHECK(ch03::wait_call_name(ch03::WaitCall::stream_synchronize) == "cudaStreamSynchronize");
  ch03::WaitCall untouched = ch03::WaitCall::device_synchronize;
  CHECK_FALSE(ch03::wait_call_from_name("cudaThreadSynchronize", untouched));
  CHECK(untouched == ch03::WaitCall::device_synchronize);
}

TEST_CASE("waiting: the device flag put cudaStreamSynchronize and cudaDeviceSynchronize to sleep, not the event") {
  const auto findings = ch03::wait_findings(event_flag_decides());
  const std::string stream = finding(findings, "cudaDeviceScheduleBlockingSync and cudaStreamSynchronize").text;
  CHECK(contains(stream,
                 "the flag made the waiting thread sleep: 0.05 ms of CPU time in 20.20 ms of waiting (0 %) "
                 "with the flag (read back: cudaDeviceScheduleBlockingSync), against 19.90 ms of CPU time in "
                 "20.00 ms of waiting"));
  CHECK(contains(stream, "under cudaDeviceScheduleAuto in this process"));
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync and cudaDeviceSynchronize").text,
                 "the flag made the waiting thread sleep"));
  const std::string where = finding(findings, "where each flag applies").text;
  CHECK(contains(where,
                 "cudaDeviceScheduleBlockingSync, set before the context, made cudaStreamSynchronize (0.05 ms CPU in "
                 "20.20 ms) and cudaDeviceSynchronize (0.06 ms CPU in 20.20 ms) sleep, but not cudaEventSynchronize on "
                 "a default event (20.01 ms CPU in 20.00 ms)"));
  CHECK(contains(where,
                 "A cudaEventBlockingSync event slept in cudaEventSynchronize without the device flag (0.06 ms "
                 "CPU in 20.29 ms): on this driver the event's own flag decides how cudaEventSynchronize waits"));
  CHECK(contains(where, "the device flag decides how cudaStreamSynchronize and cudaDeviceSynchronize wait"));
  // The existing finding for the event says the same from its own numbers.
  CHECK(contains(finding(findings, "cudaDeviceScheduleBlockingSync, set before").text, "still spun"));
}

TEST_CASE("waiting: which calls the device flag reached, in the other outcomes") {
  // All three slept: the flag reached the default event too, which its page does not say.
  std::string where = finding(ch03::wait_findings(expected_waits()), "where each flag applies").text;
  CHECK(contains(where,
                 "made cudaStreamSynchronize (0.05 ms CPU in 20.20 ms), cudaDeviceSynchronize (0.06 ms CPU in "
                 "20.20 ms) and cudaEventSynchronize on a default event (0.04 ms CPU in 20.20 ms) sleep"));
  CHECK(contains(where, "the device flag reaches cudaEventSynchronize on a default event too"));
  CHECK_FALSE(contains(where, "but not"));

  // Only the stream slept, and the cudaEventBlockingSync event did not sleep either: no claim about who decides.
  ch03::WaitRun run = event_flag_decides();
  run.flag_before_device_sync.cost = {20.0, 19.0};
  run.blocking_event.cost = {20.0, 19.0};
  where = finding(ch03::wait_findings(run), "where each flag applies").text;
  CHECK(contains(where,
                 "made cudaStreamSynchronize (0.05 ms CPU in 20.20 ms) sleep, but not cudaDeviceSynchronize "
                 "(19.00 ms CPU in 20.00 ms) and cudaEventSynchronize on a default event"));
  CHECK(contains(where,
                 "The cudaEventBlockingSync event did not sleep either (19.00 ms CPU in 20.00 ms): this run "
                 "does not show what makes cudaEventSynchronize sleep"));
  CHECK_FALSE(contains(where, "decides"));
  run.blocking_event = missing("no GPU");
  CHECK(contains(finding(ch03::wait_findings(run), "where each flag applies").text,
                 "The cudaEventBlockingSync event was not measured: this run does not show"));

  // Only the device call slept; the blocking event did: the claim names that call alone.
  run = event_flag_decides();
  run.flag_before_stream_sync.cost = {20.0, 19.0};
  where = finding(ch03::wait_findings(run), "where each flag applies").text;
  CHECK(contains(where, "the device flag decides how cudaDeviceSynchronize waits"));

  // None slept.
  run = event_flag_decides();
  run.flag_before_stream_sync.cost = {20.0, 19.0};
  run.flag_before_device_sync.cost = {20.0, 19.0};
  where = finding(ch03::wait_findings(run), "where each flag applies").text;
  CHECK(contains(where, "made none of cudaStreamSynchronize (19.00 ms CPU in 20.00 ms), cudaDeviceSynchronize"));
  CHECK_FALSE(contains(where, "decides"));
  CHECK_FALSE(contains(where, "reaches"));

  // The event slept, the stream did not: the numbers alone, no conclusion.
  run = expected_waits();
  run.flag_before_stream_sync.cost = {20.0, 19.0};
  where = finding(ch03::wait_findings(run), "where each flag applies").text;
  CHECK(contains(where, "sleep, but not cudaStreamSynchronize (19.00 ms CPU in 20.00 ms)"));
  CHECK_FALSE(contains(where, "decides"));
  CHECK_FALSE(contains(where, "reaches"));

  // A call the child did not report is named as not measured; nothing reported at all says why.
  run = event_flag_decides();
  run.flag_before_device_sync = missing_call(ch03::WaitCall::device_synchronize, "ch03_wait_child exited with code 1");
  where = finding(ch03::wait_findings(run), "where each flag applies").text;
  CHECK(contains(where, "(cudaDeviceSynchronize: not measured)"));
  CHECK(contains(where, "the device flag decides how cudaStreamSynchronize waits"));
  run.flag_before_stream_sync = missing_call(ch03::WaitCall::stream_synchronize, "timed out");
  run.flag_before_context = missing("timed out");
  where = finding(ch03::wait_findings(run), "where each flag applies").text;
  CHECK(contains(where, "where each flag applies: not measured: timed out"));
}

TEST_CASE("waiting: the device flag and one call, in each outcome") {
  const std::string name = "cudaDeviceScheduleBlockingSync and cudaStreamSynchronize";
  ch03::WaitRun run = event_flag_decides();
  run.stream_sync.cost = {20.0, 1.0};  // slept without the flag too
  std::string text = finding(ch03::wait_findings(run), name).text;
  CHECK(contains(text, "slept with the flag"));
  CHECK(contains(text, "but it did not spin without it either: 1.00 ms of CPU time in 20.00 ms"));
  CHECK(contains(text, "This run does not show what the flag changed"));

  run = event_flag_decides();
  run.flag_before_stream_sync.cost = {20.0, 19.0};  // spun with the flag
  text = finding(ch03::wait_findings(run), name).text;
  CHECK(contains(text, "still spun: 19.00 ms of CPU time in 20.00 ms of waiting (95 %) with the flag"));
  CHECK(contains(text, "In this run the flag did not make cudaStreamSynchronize sleep"));

  run = event_flag_decides();
  run.flag_before_stream_sync.cost = {20.0, 6.0};  // 30 %: in between
  text = finding(ch03::wait_findings(run), name).text;
  CHECK(contains(text, "neither slept nor spun throughout: 6.00 ms of CPU time in 20.00 ms of waiting (30 %)"));
  CHECK(contains(text, "(asleep below 20 %, spinning from 50 %)"));

  run = event_flag_decides();
  run.stream_sync = missing_call(ch03::WaitCall::stream_synchronize, "no GPU");
  text = finding(ch03::wait_findings(run), name).text;
  CHECK(contains(text, "slept with the flag"));
  CHECK(contains(text, "the same call without the flag was not measured (no GPU)"));
  CHECK_FALSE(contains(text, "did not spin without it"));

  run.flag_before_stream_sync = missing_call(ch03::WaitCall::stream_synchronize, "ch03_wait_child exited with code 1");
  text = finding(ch03::wait_findings(run), name).text;
  CHECK(contains(text, name + ": not measured: ch03_wait_child exited with code 1"));
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
  CHECK(contains(closest.text, "median of that method's own launches"));
  CHECK(contains(closest.text, "Closest: blocked stream - empty pair, 4.05 us against CUPTI's 4.10 us (-1.2 %)"));
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
  CHECK(contains(finding(findings, "each stream's own pair").text, "3.4x one kernel's time: the pair held more than its own kernel"));
  CHECK(contains(finding(findings, "the whole").text, "97 % of 4 kernels one after another (0.308 ms)"));
  CHECK(contains(finding(findings, "the whole").text, "little time was saved (0.009 ms)"));
  CHECK(contains(finding(findings, "each stream's own pair").text, "this section records no timeline"));
  run.first_begin_to_last_end_ms = 0.250;  // 81 % of the sum: some saved, not "little", not "overlapped"
  CHECK(contains(finding(ch03::many_streams_findings(run), "the whole").text,
                 "19 % of the sum was saved: part of the kernels' time overlapped"));
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

TEST_CASE("waiting: the flag set after the context, seen through cudaStreamSynchronize") {
  const std::string name = "cudaDeviceScheduleBlockingSync, set after the context, and cudaStreamSynchronize";
  ch03::WaitRun run = event_flag_decides();
  const lab::Finding& slept = finding(ch03::wait_findings(run), name);
  CHECK(contains(slept.text, "the flag made the waiting thread sleep"));
  run.flag_after_stream_sync.cost = {20.0, 19.9};  // the late flag did not reach the context
  const lab::Finding& spun = finding(ch03::wait_findings(run), name);
  CHECK(contains(spun.text, "In this run the flag did not make cudaStreamSynchronize sleep"));
  CHECK(ch03::wait_table(run).row("the stream, flag set after the context").get("wait_call").text() ==
        "cudaStreamSynchronize");
}
