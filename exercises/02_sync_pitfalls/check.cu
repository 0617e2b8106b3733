// The check for exercise 02, built twice: against your file in exercises/
// (test ch02_exercise_check, label "exercise") and against solutions/
// (test ch02_solution_check, label "solution", part of the default test run).
// The reference is chapter 02's own timer, ch02::time_with_host_timer, in the
// "sync before and after" case, around the same spinning kernel.
#include <doctest/doctest.h>

#include "clock.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "sync_pitfalls.cuh"
#include "time_kernel.cuh"

namespace {

auto kernel_of(double ms) {
  return [ms](cudaStream_t stream) { lab::launch_spin(stream, ms); };
}

}  // namespace

TEST_CASE("exercise 02: the timer measures a 20 ms kernel") {
  lab::Stream stream;
  kernel_of(0.01)(stream);  // load the module
  const double reference = lab::median(
      ch02::time_with_host_timer(ch02::SyncCase::before_and_after, ch02::TimedKernel::spinning(20.0), stream, 3));
  const double yours = exercise02::time_kernel_ms(kernel_of(20.0), stream);
  stream.synchronize();
  CAPTURE(reference);
  CAPTURE(yours);
  CHECK_MESSAGE(yours > 0.9 * reference, "the timer stopped before the kernel ended");
  CHECK(yours < 1.1 * reference);
}

TEST_CASE("exercise 02: work queued before the call is not timed") {
  lab::Stream stream;
  kernel_of(0.01)(stream);
  stream.synchronize();
  lab::launch_spin(stream, 30.0);  // someone else's work, still running when the timer starts
  const double yours = exercise02::time_kernel_ms(kernel_of(5.0), stream);
  stream.synchronize();
  CAPTURE(yours);
  CHECK_MESSAGE(yours > 4.5, "the timer stopped before the kernel ended");
  CHECK_MESSAGE(yours < 15.0, "the 30 ms queued before the call landed inside the timer");
}
