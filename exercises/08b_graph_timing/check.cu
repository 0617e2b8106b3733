// The check for exercise 08b, built from this file against your
// time_in_graph.cu (test ch08b_exercise_check, label "exercise"), against
// solutions/ (test ch08b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch08b_pristine_check,
// label "pristine": it must fail). The kernel is chapter 01's c = a + b on
// 64Ki floats (ch01::AddProblem, c poisoned with NaN first), a kernel of a few
// microseconds, as in chapter 08's section 4. The references are common's
// lab::measure_ms on the same kernel in the same run: an event pair around each
// lone launch (the launch gap inside) and behind a held stream (not inside).
#include <doctest/doctest.h>

#include <vector>

#include "device.cuh"
#include "measure.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "time_in_graph.cuh"
#include "vector_add.cuh"

namespace {

constexpr int kLaunches = 100;
constexpr int kSamples = 20;

// The median of kSamples samples of @p work by lab::measure_ms, in us.
double reference_median_us(const std::function<void(cudaStream_t)>& work, cudaStream_t stream, lab::SampleMode mode) {
  lab::MeasureConfig config;
  config.samples = kSamples;
  config.mode = mode;
  return 1000.0 * lab::median(lab::measure_ms(work, stream, config));
}

}  // namespace

TEST_CASE("exercise 08b: a kernel of a few microseconds timed as a graph of 100 launches, divided by 100") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream(cudaStreamNonBlocking);  // a stream that can be captured
  ch01::AddProblem add(std::int64_t{1} << 16, 5, device);
  int calls = 0;
  int captured_calls = 0;
  bool right_stream = true;
  auto work = [&](cudaStream_t s) {
    ++calls;
    right_stream = right_stream && s == stream.get();
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    LAB_CHECK(cudaStreamIsCapturing(s, &status));
    if (status == cudaStreamCaptureStatusActive) ++captured_calls;
    add.launch(s);
  };
  auto reference_work = [&](cudaStream_t s) { add.launch(s); };

  // An event pair around each lone launch (the host waits after each): the launch gap is inside.
  const double event_pair_us = reference_median_us(reference_work, stream, lab::SampleMode::isolated);
  add.poison(stream);
  const std::vector<double> samples = exercise08b::time_in_graph_ms(work, stream, kLaunches, kSamples);
  LAB_CHECK(cudaStreamSynchronize(stream));
  const lab::Comparison result = add.check();
  // Behind a held stream (chapter 03, nvbench's method): the launch gap is not inside.
  const double blocked_us = reference_median_us(reference_work, stream, lab::SampleMode::blocked_stream);

  REQUIRE_MESSAGE(
      samples.size() == static_cast<std::size_t>(kSamples),
      "time_in_graph_ms returned " << samples.size() << " samples; expected one per sample asked for, " << kSamples);
  CHECK_MESSAGE(right_stream, "the work went on a stream other than the one you were given: give it that stream");
  CHECK_MESSAGE(result.passed(), "c = a + b is wrong after your samples ("
                                     << result.detail() << "): did the graph's replays run the work on the stream?");
  const double yours_us = 1000.0 * lab::median(samples);
  CAPTURE(yours_us);
  CAPTURE(event_pair_us);
  CAPTURE(blocked_us);
  CAPTURE(calls);
  CAPTURE(captured_calls);
  if (yours_us > 0.25 * kLaunches * blocked_us) {
    FAIL_CHECK("your median was " << yours_us << " us per run of the work, more than " << kLaunches / 4
                                  << " x what the same kernel reads behind a held stream, " << blocked_us
                                  << " us: a replay runs the work " << kLaunches << " times; did you divide "
                                  << "each replay's time by " << kLaunches << "?");
  } else {
    CHECK_MESSAGE(yours_us < 0.7 * event_pair_us,
                  "your median was " << yours_us << " us per run of the work; the same kernel timed by an event pair "
                                     << "around each lone launch read " << event_pair_us
                                     << " us, and behind a held stream " << blocked_us << " us; expected under 0.7 x "
                                     << "the event pair, " << 0.7 * event_pair_us
                                     << " us: the launch gap is still inside your events; replay a graph of "
                                     << kLaunches << " launches between them (cudaGraphLaunch) and divide by "
                                     << kLaunches);
  }
  CHECK_MESSAGE(captured_calls >= kLaunches,
                "the work was queued " << captured_calls << " times while the stream was being captured (" << calls
                                       << " times in all); expected at least " << kLaunches
                                       << ": capture all of them into the graph between cudaStreamBeginCapture and "
                                          "cudaStreamEndCapture");
  CHECK_MESSAGE(yours_us > 0.25 * blocked_us,
                "your median was " << yours_us << " us per run of the work, under a quarter of what the same kernel "
                                   << "reads behind a held stream, " << blocked_us
                                   << " us: is each sample one replay of the graph between its events, divided by "
                                   << kLaunches << " (not more, not less)?");
}
