// Chapter 05 on the GPU: the lesson's own schedules (overlap.cuh), checked
// with large effects measured in the same run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "cupti_timeline.cuh"
#include "device.cuh"
#include "overlap.cuh"
#include "overlap_model.hpp"
#include "statistics.hpp"
#include "support/skip.hpp"

namespace {

// @p schedule over @p chunks new streams (sequential: one), one warm-up and @p reps timed runs.
ch05::ScheduleRun run_schedule(ch05::OverlapProblem& problem, ch05::Schedule schedule, int chunks, int steps,
                               int reps) {
  const std::vector<lab::Stream> stream(schedule == ch05::Schedule::sequential ? 1 : static_cast<std::size_t>(chunks));
  return ch05::time_schedule(problem, schedule, ch05::handles(stream), steps, 1, reps);
}

}  // namespace

TEST_CASE("every schedule gives the right result, over 1, 3, 4 and 32 equal chunks") {
  lab::require_device();
  ch05::OverlapProblem problem(std::size_t{96} << 10, 5);  // 98304 floats = 3 x 2^15: every count divides it
  for (ch05::Schedule schedule :
       {ch05::Schedule::sequential, ch05::Schedule::v1_per_chunk, ch05::Schedule::v2_per_stage}) {
    for (int chunks : {1, 3, 4, 32}) {
      for (int steps : {1, 20}) {
        CAPTURE(ch05::schedule_name(schedule));
        CAPTURE(chunks);
        CAPTURE(steps);
        const ch05::ScheduleRun run = run_schedule(problem, schedule, chunks, steps, 1);
        CHECK_MESSAGE(run.result.passed(), run.result.detail());
        CHECK(run.samples_ms.size() == 1u);
      }
    }
  }
}

TEST_CASE("time_schedule refuses chunks that do not divide the data, and no streams") {
  lab::require_device();
  ch05::OverlapProblem problem(1000, 6);
  for (ch05::Schedule schedule : {ch05::Schedule::v1_per_chunk, ch05::Schedule::v2_per_stage}) {
    CHECK_THROWS_AS(run_schedule(problem, schedule, 7, 1, 1), std::invalid_argument);
    CHECK_THROWS_AS(ch05::time_schedule(problem, schedule, {}, 1, 0, 1), std::invalid_argument);
  }
  CHECK(run_schedule(problem, ch05::Schedule::v1_per_chunk, 8, 1, 1).result.passed());  // 125 each
}

TEST_CASE("CUPTI sees V1 and V2 run their calls in their own orders when every chunk shares one stream") {
  lab::require_device();
  ch05::OverlapProblem problem(1 << 16, 6);
  const lab::Stream one;
  const std::vector<cudaStream_t> stream(2, one);  // on one stream the GPU runs the work in the order queued
  for (ch05::Schedule schedule : {ch05::Schedule::v1_per_chunk, ch05::Schedule::v2_per_stage}) {
    CAPTURE(ch05::schedule_name(schedule));
    LAB_CHECK(cudaDeviceSynchronize());
    lab::TimelineRecorder recorder;
    std::string why;
    if (!recorder.start(&why)) lab_test::skip("CUPTI did not record: " + why);
    const ch05::ScheduleRun run = ch05::time_schedule(problem, schedule, stream, 1, 0, 1);
    std::vector<lab::Interval> work = recorder.stop();
    CHECK_MESSAGE(run.result.passed(), run.result.detail());
    std::sort(work.begin(), work.end(),
              [](const lab::Interval& a, const lab::Interval& b) { return a.start_ns < b.start_ns; });
    std::string order;
    for (const lab::Interval& w : work) order += lab::chart_symbol(w);
    CHECK(order == (schedule == ch05::Schedule::v1_per_chunk ? "HKDHKD" : "HHKKDD"));
  }
}

TEST_CASE("with copies and kernel of similar length, V1 and V2 beat the sequential schedule") {
  const lab::DeviceInfo device = lab::require_device();
  ch05::OverlapProblem problem(std::size_t{64} << 20, 7);  // 256 MiB: copies of several ms
  ch05::Options o;
  o.heavy_iterations = 0;  // as long as the copy in
  o.reps = 3;
  const ch05::LinkRun link = ch05::measure_link(problem, device.copy_engines, o);
  const int steps = link.heavy_steps;
  const double sequential =
      lab::summarize(run_schedule(problem, ch05::Schedule::sequential, 1, steps, 3).samples_ms).median;
  for (ch05::Schedule schedule : {ch05::Schedule::v1_per_chunk, ch05::Schedule::v2_per_stage}) {
    const ch05::ScheduleRun run = run_schedule(problem, schedule, 8, steps, 3);
    CHECK_MESSAGE(run.result.passed(), run.result.detail());
    const double overlapped = lab::summarize(run.samples_ms).median;
    CAPTURE(ch05::schedule_name(schedule));
    CAPTURE(sequential);
    CAPTURE(overlapped);
    CHECK(overlapped < 0.8 * sequential);  // the model says about 0.5 for three equal stages in 8 chunks
  }
}

TEST_CASE("the measured copy times are consistent: both directions at once take no longer than one after the other") {
  const lab::DeviceInfo device = lab::require_device();
  ch05::OverlapProblem problem(std::size_t{16} << 20, 8);
  // The median of 9 runs: a median of 3 once read both directions at 3.43 ms against 2.53 ms one
  // after the other on the H100 (the host link has slow moments).
  ch05::Options o;
  o.heavy_iterations = 1;
  o.reps = 9;
  const ch05::LinkRun link = ch05::measure_link(problem, device.copy_engines, o);
  const ch05::LinkAndKernel m = ch05::typical_inputs(link, "light");
  CAPTURE(m.h2d_ms);
  CAPTURE(m.d2h_ms);
  CAPTURE(m.both_ms);
  CHECK(m.both_ms >= 0.95 * std::max(m.h2d_ms, m.d2h_ms));
  CHECK(m.both_ms <= 1.05 * (m.h2d_ms + m.d2h_ms));
}

TEST_CASE("kernels queued kernel by kernel on 8 streams run side by side") {
  lab::require_device();
  const ch05::StreamOrder order = ch05::time_stream_orders(8, 2.0, 3);
  const double breadth = lab::summarize(order.breadth_first_ms).median;
  CAPTURE(breadth);
  CHECK(breadth < 3 * 2.0);  // 2 kernel lengths if the 8 streams' kernels run at once; 16 if one after another
}

TEST_CASE("with the default connections, depth first over 32 streams waits where breadth first does not") {
  lab::require_device();
  const char* set = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  if (set != nullptr) {
    lab_test::skip(std::string("CUDA_DEVICE_MAX_CONNECTIONS is set (") + set + "): the default's effect is not tested");
  }
  const ch05::StreamOrder order = ch05::time_stream_orders(32, 2.0, 3);
  const double depth = lab::summarize(order.depth_first_ms).median;
  const double breadth = lab::summarize(order.breadth_first_ms).median;
  CAPTURE(depth);
  CAPTURE(breadth);
  CHECK(depth > 1.5 * breadth);  // the model: 5 kernel lengths against 2 with 8 connections
}

TEST_CASE("the child process measures with the connections it is given, and reports back") {
  lab::require_device();
  const ch05::QueueRun run = ch05::compare_connections(CH05_QUEUE_CHILD, {"1", ""}, 8, 2);
  REQUIRE(run.children.size() == 2);
  for (const ch05::QueueChild& child : run.children) {
    CAPTURE(child.asked);
    CHECK_MESSAGE(child.measured(), child.why_not);
    CHECK(child.seen == child.asked);
    for (const ch05::QueueSchedules& s : child.schedules) CHECK(s.correct);
  }
  const ch05::QueueRun missing = ch05::compare_connections("/no/such/ch05_queue_child", {"1"}, 8, 1);
  CHECK_FALSE(missing.children.at(0).measured());
  CHECK(missing.children.at(0).why_not.find("no executable") != std::string::npos);
}

TEST_CASE("section 3 starts no child process in an instrumented run") {
  ch05::Options o;
  const ch05::QueueRun run = ch05::measure_queues(o, true);
  CHECK(run.children.empty());
  CHECK_FALSE(run.skipped.empty());
}

TEST_CASE("a schedule recorded by CUPTI gives the right result") {
  lab::require_device();
  ch05::OverlapProblem problem(std::size_t{1} << 20, 9);
  const ch05::RecordedSchedule run = ch05::record_schedule(problem, ch05::Schedule::v2_per_stage, 4);
  CHECK_MESSAGE(run.result.passed(), run.result.detail());
}

TEST_CASE("CUPTI records a schedule's copies and kernels") {
  lab::require_device();
  ch05::OverlapProblem problem(std::size_t{1} << 20, 9);
  const ch05::RecordedSchedule run = ch05::record_schedule(problem, ch05::Schedule::v2_per_stage, 4);
  if (!run.recorded) lab_test::skip("CUPTI did not record: " + run.why_not);
  CHECK(lab::busy_ms(run.work, "H") > 0);
  CHECK(lab::busy_ms(run.work, "K") > 0);
  CHECK(lab::busy_ms(run.work, "D") > 0);
}
