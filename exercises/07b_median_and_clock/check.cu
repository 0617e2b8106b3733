// The check for exercise 07b, built from this file against your
// timing_report.cu (test ch07b_exercise_check, label "exercise"), against
// solutions/ (test ch07b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch07b_pristine_check,
// label "pristine": it must fail). The check's work is a spin kernel
// (lab::launch_spin) whose length it knows: 0.2, 1.0, 0.1, 0.25, 0.6, 0.15 and
// 0.3 ms in turn, so any 21 samples in a row hold each length 3 times, and
// their median, quartiles and mean are known (lab::summarize of those lengths).
// The clock is compared with lab::measure_sm_clock_mhz right after (15 %
// allowed), and with the nominal clock the driver reports (to catch kHz).
#include <doctest/doctest.h>

#include <vector>

#include "clock.cuh"
#include "device.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "timing_report.cuh"

namespace {

constexpr int kSamples = 21;
const std::vector<double> kLengthsMs = {0.2, 1.0, 0.1, 0.25, 0.6, 0.15, 0.3};

// Does a reported statistic match the lengths' @p expected one? Events around
// a spin read its length and a few microseconds more (a launch gap, if any).
bool close_to(double reported_ms, double expected_ms) {
  return reported_ms > expected_ms - 0.01 && reported_ms < expected_ms + 0.03;
}

}  // namespace

TEST_CASE("exercise 07b: the report gives the samples' median, their quartiles and the SM clock") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream;
  lab::launch_spin(stream, 0.01);  // load the kernels before any timing
  lab::measure_sm_clock_mhz(stream, 0.1);

  std::vector<double> lengths;  // what 21 samples in a row hold: every length 3 times
  for (int i = 0; i < kSamples; ++i) lengths.push_back(kLengthsMs[static_cast<std::size_t>(i) % kLengthsMs.size()]);
  const lab::Summary expected = lab::summarize(lengths);
  std::size_t calls = 0;
  bool right_stream = true;
  auto work = [&](cudaStream_t s) {
    right_stream = right_stream && s == stream.get();
    lab::launch_spin(s, kLengthsMs[calls++ % kLengthsMs.size()]);
  };

  const exercise07b::TimingReport report = exercise07b::report_timing(work, stream, kSamples);
  const double check_mhz = lab::measure_sm_clock_mhz(stream);
  CAPTURE(report.samples);
  CAPTURE(report.median_ms);
  CAPTURE(report.q1_ms);
  CAPTURE(report.q3_ms);
  CAPTURE(report.sm_clock_mhz);

  CHECK_MESSAGE(report.samples == static_cast<std::size_t>(kSamples),
                "your report says " << report.samples << " samples; expected " << kSamples
                                    << ", one per sample asked for (report.samples)");
  CHECK_MESSAGE(right_stream, "the work went on a stream other than the one you were given");
  CHECK_MESSAGE((report.q1_ms <= report.median_ms && report.median_ms <= report.q3_ms),
                "your report has q1 = " << report.q1_ms << " ms, median = " << report.median_ms << " ms, q3 = "
                                        << report.q3_ms << " ms: the quartiles must enclose the median");
  if (close_to(report.median_ms, expected.mean) && !close_to(report.median_ms, expected.median)) {
    FAIL_CHECK("your median_ms, " << report.median_ms << " ms, is the samples' mean (about " << expected.mean
                                  << " ms); the median is the middle sample once they are sorted, about "
                                  << expected.median << " ms: one slow sample moves the mean, not the median");
  } else {
    CHECK_MESSAGE(close_to(report.median_ms, expected.median),
                  "your median_ms was " << report.median_ms << " ms; the samples' median is about " << expected.median
                                        << " ms (the check's work ran for 0.1 to 1.0 ms, seven lengths in turn)");
  }
  CHECK_MESSAGE(close_to(report.q1_ms, expected.q1),
                "your q1_ms was " << report.q1_ms << " ms; the samples' first quartile is about " << expected.q1
                                  << " ms (a quarter of the samples lie below it; the smallest is about "
                                  << expected.min << " ms)");
  CHECK_MESSAGE(close_to(report.q3_ms, expected.q3),
                "your q3_ms was " << report.q3_ms << " ms; the samples' third quartile is about " << expected.q3
                                  << " ms (a quarter of the samples lie above it; the largest is about " << expected.max
                                  << " ms)");
  CHECK_MESSAGE(report.sm_clock_mhz > 0,
                "your sm_clock_mhz was 0: measure the SM clock in a kernel on the stream, "
                "right after the samples (common/lesson/clock.cuh)");
  // The nominal clock is no upper bound (GeForce boards boost past it): this only catches a wrong unit.
  CHECK_MESSAGE(report.sm_clock_mhz < 2.0 * device.nominal_sm_clock_mhz,
                "your sm_clock_mhz was " << report.sm_clock_mhz << "; this GPU's nominal SM clock is "
                                         << device.nominal_sm_clock_mhz
                                         << " MHz (cudaDevAttrClockRate): is yours in kHz or Hz, not MHz?");
  CHECK_MESSAGE((report.sm_clock_mhz > 0.85 * check_mhz && report.sm_clock_mhz < 1.15 * check_mhz),
                "your sm_clock_mhz was " << report.sm_clock_mhz << " MHz; a kernel measured " << check_mhz
                                         << " MHz right after your function returned (15 % allowed): report the "
                                            "clock a kernel measures, not the nominal one");
}
