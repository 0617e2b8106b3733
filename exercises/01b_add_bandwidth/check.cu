// The check for exercise 01b, built from this file against your
// add_bandwidth.cu (test ch01b_exercise_check, label "exercise"), against
// solutions/ (test ch01b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch01b_pristine_check,
// label "pristine": it must fail). The kernel is chapter 01's c = a + b on
// 32Mi floats per vector (ch01::AddProblem, grid-stride, c poisoned with NaN
// first): 384 MiB, far more than any L2. The reference is common's
// lab::measure_ms of the same kernel in the same run (3 warm-up runs, the
// median of 20 samples) over 3 x 4 x n bytes, as chapter 01's table counts them.
//
// A first launch costs more than the others (the kernel's module is loaded,
// the clocks come up), but how much varies from machine to machine. So that a
// reading of the first run is wrong everywhere, the check's work queues a
// 5 ms spin kernel before the add on its first call only.
#include <doctest/doctest.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "add_bandwidth.cuh"
#include "add_kernels.cuh"
#include "clock.cuh"
#include "device.cuh"
#include "measure.cuh"
#include "statistics.hpp"
#include "stream.cuh"

namespace {

constexpr std::int64_t kN = std::int64_t{1} << 25;
constexpr double kFirstRunExtraMs = 5.0;
constexpr double kLowest = 0.8;    // of the reference's bandwidth: a third, two thirds and the first run fall below
constexpr double kHighest = 1.25;  // four vectors counted instead of three (1.33 x) falls above

// What a reading @p ratio times the reference most likely got wrong.
std::string likely_cause(double ratio) {
  std::ostringstream text;
  const char* first_run_too = " (if you do, is the first run, longer here, among your samples?)";
  if (ratio < 0.2) {
    text << "far below: is the first run inside your timing? In this check the first run is " << kFirstRunExtraMs
         << " ms longer (as a first launch, which loads the kernel, is longer): run the kernel a few times untimed, "
            "then take the median of many samples";
  } else if (ratio > 0.28 && ratio < 0.4) {
    // A mean over samples that include the longer first run can land here and below too: say both.
    text << "about a third: count every byte the kernel moves: it reads a and b and writes c, 3 x 4 x n bytes"
         << first_run_too;
  } else if (ratio > 0.6 && ratio < 0.75) {
    text << "about two thirds: count all three vectors, a and b read and c written, 3 x 4 x n bytes" << first_run_too;
  } else if (ratio > kHighest) {
    text << "above it: do you count more bytes than the kernel moves (3 x 4 x n), or time less than one run?";
  } else {
    text << "are your samples taken after a warm-up, and do you report their median, over 3 x 4 x n bytes?";
  }
  return text.str();
}

}  // namespace

TEST_CASE("exercise 01b: the bandwidth of c = a + b, counted and timed as chapter 01 does") {
  const lab::DeviceInfo device = lab::require_device();
  lab::Stream stream;
  ch01::AddProblem add(kN, 17, device);
  int calls = 0;
  bool right_stream = true;
  auto work = [&](cudaStream_t s) {
    right_stream = right_stream && s == stream.get();
    if (calls++ == 0) lab::launch_spin(s, kFirstRunExtraMs);  // the first run is longer (see the top of the file)
    add.launch(s);
  };

  add.poison(stream);
  const double yours = exercise01b::add_bandwidth_gbps(work, add.n(), stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  const lab::Comparison result = add.check();
  const double reference_ms = lab::median(lab::measure_ms([&](cudaStream_t s) { add.launch(s); }, stream));
  const double bytes = 3.0 * static_cast<double>(kN) * sizeof(float);
  const double reference = lab::gigabytes_per_second(bytes, reference_ms);
  const double ratio = yours / reference;
  CAPTURE(calls);
  CAPTURE(yours);
  CAPTURE(reference);
  CAPTURE(reference_ms);

  CHECK_MESSAGE(calls >= 1, "the kernel was never run: call add(stream) to time it");
  CHECK_MESSAGE(right_stream, "the kernel went on a stream other than the one you were given: give it that stream");
  CHECK_MESSAGE(result.passed(), "c = a + b is wrong after your function returned ("
                                     << result.detail() << "): did add(stream) run on the stream?");
  CHECK_MESSAGE((ratio > kLowest && ratio < kHighest),
                "your bandwidth was " << yours << " GB/s; the same kernel timed in this run by lab::measure_ms (3 "
                                      << "warm-up runs, then the median of 20 samples: " << reference_ms
                                      << " ms) moves 3 x 4 x " << kN << " bytes at " << reference
                                      << " GB/s; expected within " << kLowest << " to " << kHighest
                                      << " x that; yours is " << ratio << " x, " << likely_cause(ratio));
}
