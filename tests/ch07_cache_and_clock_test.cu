// Chapter 07 on the GPU: the L2 and clock effects the chapter reports, asserted
// with large effects and ratios measured in the same run.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "cache_clock.cuh"
#include "device.cuh"
#include "statistics.hpp"
#include "stream.cuh"

TEST_CASE("cold samples of an L2-resident working set are slower than warm ones (blocked stream)") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream;
  ch07::ScaleProblem problem(device.l2_bytes / 2, 3);
  ch07::PrecedingWork preceding(0.05);
  lab::Comparison check;
  using ch07::Preceding;
  const double warm = lab::median(
      ch07::time_kernel(problem, preceding, Preceding::nothing, ch07::Placement::blocked_stream, 30, stream, &check));
  CHECK_MESSAGE(check.passed(), check.detail());
  for (Preceding flush : {Preceding::write_flush, Preceding::read_flush}) {
    CAPTURE(ch07::preceding_name(flush));
    const double cold =
        lab::median(ch07::time_kernel(problem, preceding, flush, ch07::Placement::blocked_stream, 30, stream, &check));
    CAPTURE(warm);
    CAPTURE(cold);
    CHECK(cold > 1.2 * warm);
    CHECK_MESSAGE(check.passed(), check.detail());
  }
}

TEST_CASE("a spin kernel before a sample keeps the cache warm: no slower than with nothing before it") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream;
  ch07::ScaleProblem problem(device.l2_bytes / 2, 4);
  ch07::PrecedingWork preceding(0.05);
  using ch07::Preceding;
  const double warm = lab::median(
      ch07::time_kernel(problem, preceding, Preceding::nothing, ch07::Placement::blocked_stream, 30, stream, nullptr));
  const double spun = lab::median(
      ch07::time_kernel(problem, preceding, Preceding::spin, ch07::Placement::blocked_stream, 30, stream, nullptr));
  const double cold = lab::median(ch07::time_kernel(problem, preceding, Preceding::write_flush,
                                                    ch07::Placement::blocked_stream, 30, stream, nullptr));
  CAPTURE(warm);
  CAPTURE(spun);
  CAPTURE(cold);
  CHECK(spun < cold);         // busy but warm is faster than cold
  CHECK(spun < 1.15 * warm);  // ... and about as fast as warm
}

TEST_CASE("y = 2x is exact at awkward sizes, with every kind of preceding work") {
  lab::Stream stream;
  ch07::PrecedingWork preceding(0.01);
  for (std::size_t bytes : {std::size_t{8}, std::size_t{4096 + 8}, (std::size_t{3} << 20) + 24}) {
    ch07::ScaleProblem problem(bytes, 5);
    for (ch07::Preceding p :
         {ch07::Preceding::nothing, ch07::Preceding::spin, ch07::Preceding::write_flush, ch07::Preceding::read_flush}) {
      CAPTURE(bytes);
      CAPTURE(ch07::preceding_name(p));
      lab::Comparison check;
      ch07::time_kernel(problem, preceding, p, ch07::Placement::isolated, 3, stream, &check);
      CHECK_MESSAGE(check.passed(), check.detail());
    }
  }
}

TEST_CASE("compare_cache: both working sets, every case timed as asked and correct") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream;
  ch07::Options o;
  o.samples = 3;
  o.large_factor = 2;
  const ch07::CacheRun run = ch07::compare_cache(o, device, stream);
  CHECK(run.small.role == "small");
  CHECK(run.large.role == "large");
  CHECK(run.small.bytes == device.l2_bytes / 2);
  CHECK(run.large.bytes == 2 * device.l2_bytes);
  for (const ch07::WorkingSetRun* set : {&run.small, &run.large}) {
    CHECK(set->cases.size() == 8);  // every Preceding x Placement
    for (const ch07::CacheCase& c : set->cases) {
      CAPTURE(ch07::preceding_name(c.preceding));
      CAPTURE(ch07::placement_name(c.placement));
      CHECK(c.ms.size() == 3);
      CHECK_MESSAGE(c.correct, c.detail);
    }
  }
}

TEST_CASE("the in-kernel SM clock of the clocked kernel is within 10 % of the nominal clock or of NVML's reading") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream;
  ch07::ClockedLoad load(4 * device.sm_count, 20000);
  const std::vector<ch07::ClockedLoad::Sample> samples = load.run(20, stream);
  const ch07::NvmlReading nvml = ch07::read_nvml(device.ordinal);
  std::vector<double> mhz;
  for (const auto& s : samples) mhz.push_back(s.clock_mhz);
  const double measured = lab::median(mhz);
  CAPTURE(measured);
  CAPTURE(device.nominal_sm_clock_mhz);
  CAPTURE(nvml.sm_clock_mhz);
  auto near = [](double a, double b) { return b > 0 && std::fabs(a - b) <= 0.1 * b; };
  CHECK((near(measured, device.nominal_sm_clock_mhz) || near(measured, nvml.sm_clock_mhz)));
  CHECK(load.correct());
}

TEST_CASE("measure_clock: the load is exact, every launch has a clock, the timer's step is measured") {
  const lab::DeviceInfo device = lab::query_device(0);
  lab::Stream stream;
  const ch07::ClockRun run = ch07::measure_clock(device, 3, 60.0, stream);
  CHECK_MESSAGE(run.load_correct, run.load_detail);
  CHECK(run.idle_kernel_mhz.size() == 3);
  REQUIRE(run.load_kernel_mhz.size() == 3);  // 60 ms in launches of 20 ms
  for (double mhz : run.load_kernel_mhz) {   // a clock, perhaps lowered by the load, never a wild figure
    CAPTURE(mhz);
    CHECK(mhz > 0.3 * device.nominal_sm_clock_mhz);
    CHECK(mhz < 2.0 * device.nominal_sm_clock_mhz);  // GeForce boards boost past the nominal clock (as 07b's check)
  }
  CHECK(run.timer_step_ns > 0);
  CHECK(run.timer_step_ns <= run.timer_mean_step_ns);
  CHECK(run.timer_mean_step_ns < 2000);  // a nanosecond timer that counts at least every 2 us
  CHECK(run.load_ms >= 55.0);            // the load ran its time (each launch stops on %globaltimer)
  CHECK(run.load_tflops > 1.0);          // tensor cores did work
  CHECK(run.load_copy_gbps > 10.0);
}

TEST_CASE("sample_many: one clock per sample, exact results") {
  lab::Stream stream;
  const ch07::SamplesRun run = ch07::sample_many(10, 2000, 1980, stream);
  CHECK(run.ms.size() == 10);
  CHECK(run.clock_mhz.size() == 10);
  for (double mhz : run.clock_mhz) CHECK(mhz > 0);
  CHECK(run.correct);
}
