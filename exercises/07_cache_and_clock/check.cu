// The check for exercise 07, built from this file against your cold_samples.cu
// (test ch07_exercise_check, label "exercise"), against solutions/ (test
// ch07_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch07_pristine_check, label
// "pristine": it must fail). It uses chapter 07's own kernel (ch07::ScaleProblem,
// y = 2 x, y poisoned with NaN first) and flush (lab::L2Flusher).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cache_clock.cuh"
#include "clock.cuh"
#include "cold_samples.cuh"
#include "device.cuh"
#include "statistics.hpp"
#include "stream.cuh"

namespace {

// What the order of the calls says, e.g. for "WWWWWWWWWW": "flush was never called".
std::string explain_calls(const std::string& log, const std::string& expected) {
  std::string text = "the calls were " + log + " (F = flush, W = the work); expected " + expected + ": ";
  std::string work_then_flush;
  for (std::size_t i = 0; i < expected.size() / 2; ++i) work_then_flush += "WF";
  if (std::count(log.begin(), log.end(), 'F') == 0) {
    text += "flush was never called; call flush(stream) once per sample";
  } else if (log == work_then_flush) {
    text += "each flush came after its sample, so the first sample ran warm; flush before the start event";
  } else {
    text += "one flush before every run of the work";
  }
  return text;
}

}  // namespace

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
  CHECK_MESSAGE(samples.size() == 10,
                "time_cold returned " << samples.size() << " samples; expected one per sample asked for, 10");
  std::string expected;
  for (int i = 0; i < 10; ++i) expected += "FW";
  CHECK_MESSAGE(log == expected, explain_calls(log, expected));
  CHECK_MESSAGE(right_stream,
                "the flush or the work went on a stream other than the one you were given: "
                "give both of them that stream");
  const double median = samples.empty() ? 0.0 : lab::summarize(samples).median;
  CAPTURE(median);
  CHECK_MESSAGE(median < 1.0, "the median sample was "
                                  << median
                                  << " ms (expected under 1 ms): the samples include the 2 ms flush; "
                                     "queue it before cudaEventRecord(start, stream), not between the events");
  const lab::Comparison result = problem.check();
  CHECK_MESSAGE(result.passed(), "y = 2 x is wrong after your samples ("
                                     << result.detail()
                                     << "): did the work run on the stream you were given in every sample?");
}
