// The check for exercise 03b, built from this file against your
// blocked_samples.cu (test ch03b_exercise_check, label "exercise"), against
// solutions/ (test ch03b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch03b_pristine_check,
// label "pristine": it must fail). The kernel is chapter 01's c = a + b on
// 64Ki floats (ch01::AddProblem, c poisoned with NaN first), a kernel of a few
// microseconds; the references are common's lab::measure_ms, as a lone launch
// per sample and behind a held stream, on the same kernel in the same run.
#include <doctest/doctest.h>

#include <vector>

#include "add_kernels.cuh"
#include "blocked_samples.cuh"
#include "device.cuh"
#include "measure.cuh"
#include "statistics.hpp"
#include "stream.cuh"

namespace {

constexpr int kSamples = 40;

// The median of @p config.samples samples of @p work by lab::measure_ms, in us.
double reference_median_us(const std::function<void(cudaStream_t)>& work, cudaStream_t stream, lab::SampleMode mode) {
  lab::MeasureConfig config;
  config.samples = kSamples;
  config.mode = mode;
  return 1000.0 * lab::median(lab::measure_ms(work, stream, config));
}

}  // namespace

TEST_CASE("exercise 03b: a kernel of a few microseconds timed without the launch gap") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream;
  ch01::AddProblem add(std::int64_t{1} << 16, 3, device);
  int calls = 0;
  bool right_stream = true;
  auto work = [&](cudaStream_t s) {
    ++calls;
    right_stream = right_stream && s == stream.get();
    add.launch(s);
  };
  auto reference_work = [&](cudaStream_t s) { add.launch(s); };

  // A lone launch per sample (the host waits after each): the launch gap is inside.
  const double isolated_us = reference_median_us(reference_work, stream, lab::SampleMode::isolated);
  add.poison(stream);
  const std::vector<double> samples = exercise03b::time_without_launch_gap(work, stream, kSamples);
  LAB_CHECK(cudaStreamSynchronize(stream));
  const lab::Comparison result = add.check();
  // Behind a held stream, as nvbench and chapter 03 time it: the launch gap is not inside.
  const double blocked_us = reference_median_us(reference_work, stream, lab::SampleMode::blocked_stream);

  REQUIRE_MESSAGE(samples.size() == static_cast<std::size_t>(kSamples),
                  "time_without_launch_gap returned " << samples.size()
                                                      << " samples; expected one per sample asked for, " << kSamples);
  CHECK_MESSAGE(calls >= kSamples, "the work was queued " << calls << " times for " << kSamples
                                                          << " samples: queue it once in every sample");
  CHECK_MESSAGE(right_stream, "the work went on a stream other than the one you were given: give it that stream");
  CHECK_MESSAGE(result.passed(), "c = a + b is wrong after your samples ("
                                     << result.detail() << "): did every sample queue the work on the stream?");
  const double yours_us = 1000.0 * lab::median(samples);
  CAPTURE(yours_us);
  CAPTURE(isolated_us);
  CAPTURE(blocked_us);
  CHECK_MESSAGE(yours_us < 0.7 * isolated_us,
                "your median sample was " << yours_us << " us; the same kernel timed as a lone launch (the host "
                                          << "waiting after each sample) read " << isolated_us
                                          << " us, and behind a held stream " << blocked_us << " us; expected under "
                                          << "0.7 x the lone launch, " << 0.7 * isolated_us
                                          << " us: the launch gap is still inside your events; hold the stream "
                                             "(blocker.block(stream)) before the start event and release it after "
                                             "the stop event");
  CHECK_MESSAGE(yours_us > 0.5 * blocked_us,
                "your median sample was " << yours_us << " us, under half of what the same kernel reads behind a "
                                          << "held stream, " << blocked_us
                                          << " us: do your events still surround the work (start event, work, stop "
                                             "event, in that order on the stream)?");
}
