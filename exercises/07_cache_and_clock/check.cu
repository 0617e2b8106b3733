// The check for exercise 07, built twice: against your file in exercises/
// (test ch07_exercise_check, label "exercise") and against solutions/
// (test ch07_solution_check, label "solution", part of the default test run).
// It uses chapter 07's own kernel (ch07::ScaleProblem) and flush (lab::L2Flusher).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cache_clock.cuh"
#include "clock.cuh"
#include "cold_samples.cuh"
#include "device.cuh"
#include "statistics.hpp"
#include "stream.cuh"

TEST_CASE("exercise 07: one flush before every sample, on the sample's stream, left out of the time") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream;
  ch07::ScaleProblem problem(device.l2_bytes / 2, 7);
  lab::L2Flusher flusher;
  std::string log;
  bool right_stream = true;
  auto work = [&](cudaStream_t s) {
    log += 'W';
    right_stream = right_stream && s == stream.get();
    problem.launch(s);
  };
  auto flush = [&](cudaStream_t s) {
    log += 'F';
    right_stream = right_stream && s == stream.get();
    flusher.flush(s);
    lab::launch_spin(s, 2.0);  // a 2 ms flush: if it were timed, every sample would show it
  };
  problem.launch(stream);  // load the kernels before timing
  lab::launch_spin(stream, 0.01);
  LAB_CHECK(cudaStreamSynchronize(stream));
  problem.poison(stream);

  const std::vector<double> samples = exercise07::time_cold(work, flush, stream, 10);
  CHECK(samples.size() == 10);
  std::string expected;
  for (int i = 0; i < 10; ++i) expected += "FW";
  CHECK_MESSAGE(log == expected, "calls were " << log << "; expected a flush before every run of the work: " << expected);
  CHECK_MESSAGE(right_stream, "flush and work must both go on the stream you were given");
  const double median = lab::summarize(samples).median;
  CAPTURE(median);
  CHECK_MESSAGE(median < 1.0, "the samples include the 2 ms flush: queue it before the start event");
  const lab::Comparison result = problem.check();
  CHECK_MESSAGE(result.passed(), result.detail());
}
