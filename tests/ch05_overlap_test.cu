// Chapter 05 on the GPU: the lesson's own schedules (overlap.cuh), checked
// with large effects measured in the same run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "device.cuh"
#include "support/skip.hpp"
#include "overlap.cuh"
#include "statistics.hpp"

TEST_CASE("every schedule gives the right result, for chunk counts that do and do not divide the size") {
  lab::require_device();
  ch05::OverlapProblem problem((std::size_t{1} << 20) + 3, 5);  // 3 floats more than a power of two
  for (ch05::Schedule schedule :
       {ch05::Schedule::sequential, ch05::Schedule::v1_per_chunk, ch05::Schedule::v2_per_stage}) {
    for (int chunks : {1, 3, 4, 32}) {
      for (int steps : {1, 20}) {
        CAPTURE(ch05::schedule_name(schedule));
        CAPTURE(chunks);
        CAPTURE(steps);
        const ch05::ScheduleRun run = ch05::time_schedule(problem, schedule, chunks, steps, 1);
        CHECK_MESSAGE(run.result.passed(), run.result.detail());
      }
    }
  }
}

TEST_CASE("V1 and V2 queue the same work in their own orders") {
  lab::require_device();
  ch05::OverlapProblem problem(1 << 16, 6);
  ch05::Pipeline v1(problem, 2, 1), v2(problem, 2, 1);
  ch05::enqueue_v1(v1);
  ch05::enqueue_v2(v2);
  CHECK(v1.log() == std::vector<std::string>{"in 0", "kernel 0", "out 0", "in 1", "kernel 1", "out 1"});
  CHECK(v2.log() == std::vector<std::string>{"in 0", "in 1", "kernel 0", "kernel 1", "out 0", "out 1"});
  LAB_CHECK(cudaDeviceSynchronize());
}

TEST_CASE("with copies and kernel of similar length, V1 and V2 beat the sequential schedule") {
  const lab::DeviceInfo device = lab::require_device();
  ch05::OverlapProblem problem(std::size_t{64} << 20, 7);  // 256 MiB: copies of several ms
  const ch05::LinkRun link = ch05::measure_link(problem, device.copy_engines, 0, 3);
  const int steps = link.heavy_steps;
  const double sequential =
      lab::summarize(ch05::time_schedule(problem, ch05::Schedule::sequential, 1, steps, 3).samples_ms).median;
  for (ch05::Schedule schedule : {ch05::Schedule::v1_per_chunk, ch05::Schedule::v2_per_stage}) {
    const ch05::ScheduleRun run = ch05::time_schedule(problem, schedule, 8, steps, 3);
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
  const ch05::LinkRun link = ch05::measure_link(problem, device.copy_engines, 1, 9);
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
    CHECK_MESSAGE(child.measured, child.why_not);
    CHECK(child.seen == child.asked);
    for (const ch05::QueueSchedules& s : child.schedules) CHECK(s.correct);
  }
  const ch05::QueueRun missing = ch05::compare_connections("/no/such/ch05_queue_child", {"1"}, 8, 1);
  CHECK_FALSE(missing.children.at(0).measured);
  CHECK(missing.children.at(0).why_not.find("no executable") != std::string::npos);
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
