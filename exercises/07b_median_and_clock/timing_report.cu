// Exercise 07b: report a timing as its median, its spread and the SM clock.
//
// The samples are taken for you (lab::measure_ms, common/lesson/measure.cuh). A timing
// reported as one number hides how much the samples varied, and a time means
// little without the clock the GPU ran at (chapter 07, sections 2 and 3). Fill
// the report: the number of samples, their median and quartiles, and the SM
// clock measured in a kernel on the same stream right after the samples.
//
// Check your work:  scripts/progress ch07b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch07b_')
// Stuck? Read HINTS.md beside this file.
#include <vector>

#include "clock.cuh"
#include "measure.cuh"
#include "statistics.hpp"
#include "timing_report.cuh"

namespace exercise07b {

TimingReport report_timing(const std::function<void(cudaStream_t)>& work, cudaStream_t stream, int samples) {
  lab::MeasureConfig config;
  config.samples = samples;
  const std::vector<double> ms = lab::measure_ms(work, stream, config);
  TimingReport report;
  // TODO: fill report.samples, report.median_ms, report.q1_ms and report.q3_ms from ms
  //       (common/lesson/statistics.hpp, included above, summarises samples).
  // TODO: measure the SM clock with a kernel on `stream`, and put it in report.sm_clock_mhz
  //       (common/lesson/clock.cuh, included above, has that kernel).
  (void)ms;
  return report;
}

}  // namespace exercise07b
