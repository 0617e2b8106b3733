// The check for exercise 11, built from this file against your
// urgent_stream.cu (test ch11_exercise_check, label "exercise"), against
// solutions/ (test ch11_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch11_pristine_check,
// label "pristine": it must fail). It reads your stream's priority back
// (cudaStreamGetPriority), then runs chapter 11's section 2 twice with
// ch11::run_urgent_on: the long kernel (4 waves of resident blocks of 200 us)
// on a stream of the least priority and, part-way in, the urgent kernel (16
// blocks of 5 us), once on a stream of equal priority made here and once on
// yours, 5 samples each after a warm-up. Your urgent kernel's median start
// delay must be under half the equal-priority one measured in the same run
// (chapter 11, section 2, on an H100: 17.7 us against 725.6 us in run 6, but
// 245.3 us against 717.9 us in run 5: at the greatest priority some samples
// wait about 250 us, so the bound is generous; the priority read back is exact).
// A device that cannot run kernels side by side, or has one priority level,
// has nothing to check: the check says why and exits 77 (not checked).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "check.cuh"
#include "device.cuh"
#include "memory.cuh"
#include "priorities.cuh"
#include "program.hpp"
#include "statistics.hpp"
#include "urgent_stream.cuh"

namespace {

using StreamHandle = lab::detail::UniqueHandle<cudaStream_t, cudaStreamDestroy>;

constexpr int kWaves = 4;  // chapter 11's defaults: the urgent launch falls in the second wave of four
constexpr double kLongBlockUs = 200.0;
constexpr double kUrgentBlockUs = 5.0;
constexpr int kSamples = 5;

void exit_77_unless(bool usable, const std::string& why) {
  if (usable) return;
  std::printf("skipped: %s\n", why.c_str());
  std::fflush(stdout);
  std::exit(lab::exit_code::no_device);
}

// The median start delay of @p c's samples, every one of them recorded.
double median_delay(const ch11::UrgentCase& c, const char* which) {
  CAPTURE(which);
  REQUIRE_MESSAGE(c.missing == 0, c.missing << " blocks recorded nothing: a block of the long or the urgent kernel "
                                               "did not run to its end");
  for (double d : c.delay_us) REQUIRE_MESSAGE(std::isfinite(d), "a sample's launch or first urgent block was not seen");
  return lab::median(c.delay_us);
}

}  // namespace

TEST_CASE(
    "exercise 11: the urgent stream has the greatest priority, and its kernel starts long before equal priority's") {
  const lab::DeviceInfo device = lab::query_device(0);
  exit_77_unless(device.concurrent_kernels,
                 "this device cannot run kernels side by side: no urgent kernel can "
                 "start while the long one runs, whatever its priority");
  int least = 0, greatest = 0;
  LAB_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  exit_77_unless(greatest < least, "this device has one stream priority (cudaDeviceGetStreamPriorityRange gave " +
                                       std::to_string(least) + " and " + std::to_string(greatest) + ")");
  CAPTURE(least);
  CAPTURE(greatest);

  const StreamHandle urgent(exercise11::create_urgent_stream());
  REQUIRE_MESSAGE(urgent.get() != nullptr,
                  "create_urgent_stream returned no stream (nullptr is the legacy default "
                  "stream, which has no priority of its own): create one and return it");
  int priority = 0;
  LAB_CHECK(cudaStreamGetPriority(urgent.get(), &priority));
  CHECK_MESSAGE(priority == greatest, "your stream's priority is "
                                          << priority << "; expected the greatest, " << greatest
                                          << " (cudaDeviceGetStreamPriorityRange gave least " << least << ", greatest "
                                          << greatest
                                          << ": lower numbers are greater priorities, and a stream made "
                                             "without one gets the default, 0)");
  unsigned flags = 0;
  LAB_CHECK(cudaStreamGetFlags(urgent.get(), &flags));
  CHECK_MESSAGE((flags & cudaStreamNonBlocking) != 0,
                "your stream is a blocking stream: work on the legacy default stream would hold it back; create it "
                "with cudaStreamNonBlocking");

  StreamHandle equal;
  {
    cudaStream_t made = nullptr;
    LAB_CHECK(cudaStreamCreateWithPriority(&made, cudaStreamNonBlocking, least));  // the long kernel's priority
    equal = StreamHandle(made);
  }
  const ch11::UrgentCase at_equal =
      ch11::run_urgent_on(equal.get(), kWaves, kLongBlockUs, kUrgentBlockUs, kSamples, device);
  const ch11::UrgentCase yours =
      ch11::run_urgent_on(urgent.get(), kWaves, kLongBlockUs, kUrgentBlockUs, kSamples, device);
  const double equal_us = median_delay(at_equal, "equal priority");
  const double yours_us = median_delay(yours, "your stream");
  CHECK_MESSAGE(yours_us < equal_us / 2.0, "your urgent kernel began a median "
                                               << yours_us << " us after its launch, the same kernel on a stream "
                                               << "of the long kernel's priority " << equal_us
                                               << " us; expected under half of that, " << equal_us / 2.0
                                               << " us: at the greatest priority the GPU dispatches the urgent "
                                                  "blocks before the long kernel's blocks still waiting");
}
