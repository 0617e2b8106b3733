// Chapter 03 on the GPU: the lesson's own functions (events.cuh) and the
// blocked-stream measuring mode, checked with large effects measured in the same run.
#include <doctest/doctest.h>

#include <cmath>

#include "clock.cuh"
#include "device.cuh"
#include "events.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "measure.cuh"

TEST_CASE("the event time of a 5 ms kernel is within 5 % of a synchronised host timer") {
  lab::require_device();
  lab::Stream stream;
  auto kernel = [](cudaStream_t s) { lab::launch_spin(s, 5.0); };
  kernel(stream);  // load the module
  const ch03::EventVsHost t = ch03::time_events_and_host(kernel, stream);
  CAPTURE(t.event_ms);
  CAPTURE(t.host_ms);
  CHECK(t.event_ms >= 4.9);
  CHECK(std::fabs(t.event_ms - t.host_ms) < 0.05 * t.host_ms);
  const float raw = ch03::time_with_raw_events(kernel, stream);
  CHECK(std::fabs(raw - t.event_ms) < 0.05 * t.event_ms);
}

TEST_CASE("an event pair around copy + kernel reads more than around the kernel alone") {
  const lab::DeviceInfo device = lab::require_device();
  ch01::AddProblem add(1 << 22, 9, device);  // 16 MiB copy: hundreds of microseconds over PCIe
  lab::Stream stream;
  const ch03::Bracketing b = ch03::time_copy_and_kernel(add, 5, stream);
  CHECK_MESSAGE(b.result.passed(), b.result.detail());
  const double with_copy = lab::summarize(b.copy_and_kernel_ms).median;
  const double kernel = lab::summarize(b.kernel_only_ms).median;
  const double copy = lab::summarize(b.copy_only_ms).median;
  CAPTURE(with_copy);
  CAPTURE(kernel);
  CAPTURE(copy);
  CHECK(with_copy > kernel);
  CHECK(with_copy > 0.9 * (kernel + copy));
}

TEST_CASE("with the blocked stream a small kernel reads less than as a lone launch, and more than zero") {
  const lab::DeviceInfo device = lab::require_device();
  ch01::AddProblem add(1 << 16, 13, device);  // a few microseconds: smaller than the launch gap
  lab::Stream stream;
  lab::MeasureConfig config;
  config.samples = 50;
  config.mode = lab::SampleMode::isolated;
  const double isolated =
      lab::summarize(lab::measure_ms([&](cudaStream_t s) { add.launch(s); }, stream, config)).median;
  config.mode = lab::SampleMode::blocked_stream;
  const double blocked =
      lab::summarize(lab::measure_ms([&](cudaStream_t s) { add.launch(s); }, stream, config)).median;
  CAPTURE(isolated);
  CAPTURE(blocked);
  CHECK(blocked < isolated);
  CHECK(blocked > 0);
  const lab::Comparison result = add.check();
  CHECK_MESSAGE(result.passed(), result.detail());
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

TEST_CASE("the host does CPU work while polling a running kernel") {
  lab::require_device();
  lab::Stream stream;
  const ch03::FreeHost f = ch03::poll_while_kernel_runs(10.0, stream);
  CHECK(f.kernel_ms >= 9.9);
  CHECK(f.polls > 0);
  CHECK(f.work_iterations > 0);
}

TEST_CASE("many streams: every result correct, and the whole spans every stream's pair") {
  const lab::DeviceInfo device = lab::require_device();
  const ch03::ManyStreams m = ch03::time_many_streams(3, 1 << 22, 21, device);
  REQUIRE(m.results.size() == 3);
  for (const lab::Comparison& r : m.results) CHECK_MESSAGE(r.passed(), r.detail());
  REQUIRE(m.per_stream_ms.size() == 3);
  for (double t : m.per_stream_ms) CHECK(m.first_begin_to_last_end_ms >= t * 0.999);
  CHECK(m.first_begin_to_last_end_ms >= 0.9 * m.one_kernel_ms);
}
