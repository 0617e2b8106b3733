// Chapter 03 on the GPU: the lesson's own functions (events.cuh), checked with
// results against the CPU and with large effects measured in the same run.
#include <doctest/doctest.h>

#include <cmath>

#include "check.cuh"
#include "checks.hpp"
#include "clock.cuh"
#include "device.cuh"
#include "events.cuh"
#include "statistics.hpp"
#include "stream.cuh"

TEST_CASE("the event time of a 5 ms kernel is within 5 % of a synchronised host timer") {
  lab::require_device();
  lab::Stream stream;
  const ch03::StopwatchRun run = ch03::time_long_kernel(5.0, 3, stream);
  REQUIRE(run.event_ms.size() == 3);
  REQUIRE(run.host_ms.size() == 3);
  const double events = lab::median(run.event_ms);
  const double host = lab::median(run.host_ms);
  CAPTURE(events);
  CAPTURE(host);
  CHECK(events >= 4.9);
  CHECK(std::fabs(events - host) < 0.05 * host);
}

TEST_CASE("an empty event pair reads a small time, and a record costs the host something") {
  lab::require_device();
  lab::Stream stream;
  const ch03::EventCostRun run = ch03::measure_event_costs(10, 50, stream);
  REQUIRE(run.empty_pair_us.size() == 10);
  CHECK(run.record_default_us.size() == 50);
  CHECK(run.record_disable_timing_us.size() == 50);
  const double pair = lab::median(run.empty_pair_us);
  CAPTURE(pair);
  CHECK(pair >= 0);
  CHECK(pair < 50);  // a pair with nothing between, queued together: microseconds, not the host's pace
  CHECK(lab::median(run.record_default_us) > 0);
}

TEST_CASE("an event pair around copy + kernel reads more than around the kernel alone") {
  const lab::DeviceInfo device = lab::require_device();
  lab::Stream stream;
  const ch03::BracketingRun b = ch03::time_copy_and_kernel(1 << 22, 9, device, 5, stream);  // 16 MiB copy
  CHECK_MESSAGE(b.result.passed(), b.result.detail());
  const double with_copy = lab::median(b.copy_and_kernel_us);
  const double kernel = lab::median(b.after_copy_us);
  const double copy = lab::median(b.copy_only_us);
  CAPTURE(with_copy);
  CAPTURE(kernel);
  CAPTURE(copy);
  CHECK(with_copy > kernel);
  CHECK(with_copy > 0.9 * (kernel + copy));
}

TEST_CASE("launch gap: every loop correct, blocked reads less than isolated, CUPTI's kernels lie inside their events") {
  const lab::DeviceInfo device = lab::require_device();
  lab::Stream stream;
  const int samples = 30;
  const ch03::LaunchGapSize s = ch03::time_launch_gap(1 << 16, 13, device, samples, 1.0, stream);  // a few us
  for (const ch03::GapMethod* m : {&s.back_to_back, &s.isolated, &s.blocked, &s.blocked_flushed}) {
    CHECK_MESSAGE(m->result.passed(), m->result.detail());
    CHECK(m->events_us.size() == static_cast<std::size_t>(samples));
  }
  const double isolated = lab::median(s.isolated.events_us);
  const double blocked = lab::median(s.blocked.events_us);
  CAPTURE(isolated);
  CAPTURE(blocked);
  CHECK(blocked < isolated);
  CHECK(blocked > 0);
  for (const ch03::GapMethod* m : {&s.back_to_back, &s.isolated, &s.blocked, &s.blocked_flushed}) {
    if (m->cupti_us.empty()) {
      MESSAGE("no CUPTI figures: " << m->cupti_missing);
      continue;
    }
    REQUIRE(m->cupti_us.size() == m->events_us.size());
    // The kernel runs between its two events: its duration cannot exceed the
    // pair's reading by more than the timers' grading (readings differed by as
    // little as 32 ns on the H100 runs; the documented resolution is about
    // 0.5 us); 1 us is allowed.
    for (std::size_t i = 0; i < m->cupti_us.size(); ++i) {
      CAPTURE(i);
      CHECK(m->cupti_us[i] > 0);
      CHECK(m->cupti_us[i] <= m->events_us[i] + 1.0);
    }
  }
}

TEST_CASE("launch gap at both sizes: each named by its option, section 2's median pair subtracted") {
  const lab::DeviceInfo device = lab::require_device();
  lab::Stream stream;
  const ch03::EventCostRun costs{{1.0, 3.0, 2.0}, {}, {}};
  const ch03::LaunchGapRun run = ch03::time_launch_gap(1 << 12, 1 << 14, 5, device, 3, costs, stream);
  CHECK(run.small.option == "n");
  CHECK(run.large.option == "n_large");
  CHECK(run.small.n == 1 << 12);
  CHECK(run.large.n == 1 << 14);
  CHECK(run.small.empty_pair_us == doctest::Approx(2.0));
  CHECK(run.large.empty_pair_us == doctest::Approx(2.0));
  CHECK_MESSAGE(run.large.blocked.result.passed(), run.large.blocked.result.detail());
}

TEST_CASE("a blocking-sync event lets the waiting thread sleep") {
  lab::require_device();
  lab::Stream stream;
  const ch03::WaitCost sleeping = ch03::wait_for_kernel(cudaEventBlockingSync, 20.0, stream);
  CAPTURE(sleeping.wall_ms);
  CAPTURE(sleeping.cpu_ms);
  CHECK(sleeping.wall_ms >= 19.0);
  CHECK(sleeping.cpu_ms < 0.5 * sleeping.wall_ms);
}

TEST_CASE("the device flag is set in a child process, which reports it, and this process's flags stay as they were") {
  lab::require_device();
  lab::Stream stream;
  unsigned before = 0;
  LAB_CHECK(cudaGetDeviceFlags(&before));
  const ch03::WaitRun run = ch03::compare_waits(10.0, stream, CH03_WAIT_CHILD);
  unsigned after = 0;
  LAB_CHECK(cudaGetDeviceFlags(&after));
  CHECK(after == before);
  CHECK(run.default_event.device_flag == ch03::scheduling_flag_name(before));
  for (const ch03::WaitCase* c : {&run.default_event, &run.blocking_event, &run.stream_sync, &run.device_sync}) {
    CHECK(c->cost.wall_ms >= 9.0);
  }
  CHECK(run.stream_sync.call == ch03::WaitCall::stream_synchronize);
  CHECK(run.device_sync.call == ch03::WaitCall::device_synchronize);
  // Measured, not judged: whether the flag made each call sleep is the page's observation.
  for (const ch03::WaitCase* c : {&run.flag_before_context, &run.flag_before_stream_sync, &run.flag_before_device_sync,
                                  &run.flag_after_context, &run.flag_after_stream_sync}) {
    REQUIRE_MESSAGE(c->measured, c->why_not);
    CHECK(c->cost.wall_ms >= 9.0);
  }
  CHECK(run.flag_before_stream_sync.call == ch03::WaitCall::stream_synchronize);
  CHECK(run.flag_before_device_sync.call == ch03::WaitCall::device_synchronize);
  for (const ch03::WaitCase* c :
       {&run.flag_before_context, &run.flag_before_stream_sync, &run.flag_before_device_sync}) {
    CHECK(c->set_flags_result == "cudaSuccess");
    CHECK(c->device_flag == "cudaDeviceScheduleBlockingSync");
  }
  for (const ch03::WaitCase* c :
       {&run.flag_before_context, &run.flag_before_stream_sync, &run.flag_before_device_sync}) {
    MESSAGE("flag set before the context, " << ch03::wait_call_name(c->call) << ": CPU " << c->cost.cpu_ms << " of "
                                            << c->cost.wall_ms << " ms");
  }
  MESSAGE("set after the context: " << run.flag_after_context.set_flags_result << ", flag read back "
                                    << run.flag_after_context.device_flag << ", CPU "
                                    << run.flag_after_context.cost.cpu_ms << " of "
                                    << run.flag_after_context.cost.wall_ms << " ms");
}

TEST_CASE("the host does CPU work while polling a running kernel") {
  lab::require_device();
  lab::Stream stream;
  const ch03::FreeHostRun f = ch03::poll_while_kernel_runs(10.0, stream);
  CHECK(f.kernel_ms >= 9.9);
  CHECK(f.polls > 0);
  CHECK(f.work_iterations > 0);
}

TEST_CASE("many streams: every result correct, and the whole spans every stream's pair") {
  const lab::DeviceInfo device = lab::require_device();
  const ch03::ManyStreamsRun m = ch03::time_many_streams(3, 1 << 22, 21, device);
  REQUIRE(m.results.size() == 3);
  for (const lab::Comparison& r : m.results) CHECK_MESSAGE(r.passed(), r.detail());
  REQUIRE(m.per_stream_ms.size() == 3);
  for (double t : m.per_stream_ms) CHECK(m.earliest_begin_to_latest_end_ms >= t * 0.999);
  CHECK(m.earliest_begin_to_latest_end_ms >= 0.9 * m.one_kernel_ms);
}

TEST_CASE("events on another stream read far shorter than on the work's stream; the host timer agrees with the right") {
  const lab::DeviceInfo device = lab::require_device();
  const ch03::WrongStreamRun run =
      ch03::time_on_wrong_stream(1 << 25, 31, device, 5);  // 32Mi floats: ~150 us on an H100
  CHECK_MESSAGE(run.result.passed(), run.result.detail());
  REQUIRE(run.own_stream_us.size() == 5);
  REQUIRE(run.other_stream_us.size() == 5);
  REQUIRE(run.host_us.size() == 5);
  REQUIRE(run.joined_us.size() == 5);
  const double own = lab::median(run.own_stream_us);
  const double other = lab::median(run.other_stream_us);
  const double joined = lab::median(run.joined_us);
  const double host = lab::median(run.host_us);
  CAPTURE(own);
  CAPTURE(other);
  CAPTURE(joined);
  CAPTURE(host);
  CAPTURE(run.unfinished);
  CHECK(own > 5 * other);      // a large effect: the other stream's pair holds none of the work
  CHECK(own <= host * 1.01);   // the host timer encloses the right pair
  CHECK(own >= 0.5 * host);    // and agrees with it
  CHECK(other < 0.5 * host);   // but not with the wrong one
  CHECK(joined >= 0.9 * own);  // the fix: a pair on the other stream, fork and join, holds the work
  CHECK(joined < 2 * host);    // and little more: its start is recorded after the host timer starts
  CHECK(run.unfinished > 0);   // the other pair's stop event completed while the work still ran
  const auto findings = ch03::wrong_stream_checks(run);
  for (const lab::Finding& f : findings) CHECK_MESSAGE(f.passed, f.id << ": " << f.text);
}
