// The check for exercise 03, built twice: against your file in exercises/
// (test ch03_exercise_check, label "exercise") and against solutions/
// (test ch03_solution_check, label "solution", part of the default test run).
// The reference is chapter 03's own event timing of the same kernel,
// ch03::time_long_kernel (section 1 of the chapter).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "clock.cuh"
#include "events.cuh"
#include "stream.cuh"
#include "stream_stopwatch.cuh"

TEST_CASE("exercise 03: the stopwatch times a 10 ms kernel on a non-blocking stream") {
  lab::Stream stream(cudaStreamNonBlocking);
  lab::launch_spin(stream, 0.01);  // load the module
  stream.synchronize();
  const double reference = ch03::time_long_kernel(10.0, 1, stream).event_ms.at(0);

  exercise03::StreamStopwatch stopwatch(stream);
  stopwatch.start();
  lab::launch_spin(stream, 10.0);
  stopwatch.stop();
  float yours = 0;
  CHECK_NOTHROW_MESSAGE(yours = stopwatch.elapsed_ms(),
                        "elapsed_ms() failed: cudaEventElapsedTime answers cudaErrorNotReady until the GPU has "
                        "reached the stop event; does elapsed_ms() wait for it first?");
  stream.synchronize();
  CHECK_MESSAGE(std::fabs(yours - reference) < 0.05 * reference,
                ("your stopwatch read " + std::to_string(yours) + " ms for a kernel the chapter's events timed at " +
                 std::to_string(reference) +
                 " ms (5 % allowed): near 0 ms means the events were not recorded on "
                 "the stream the kernel ran on"));
}

TEST_CASE("exercise 03: work on another stream is not timed") {
  lab::Stream timed(cudaStreamNonBlocking);
  lab::Stream other(cudaStreamNonBlocking);
  lab::launch_spin(timed, 0.01);
  timed.synchronize();
  exercise03::StreamStopwatch stopwatch(timed);
  lab::launch_spin(other, 40.0);  // busy elsewhere the whole time
  stopwatch.start();
  lab::launch_spin(timed, 5.0);
  stopwatch.stop();
  float yours = 0;
  CHECK_NOTHROW_MESSAGE(yours = stopwatch.elapsed_ms(),
                        "elapsed_ms() failed: does it wait for the stop event before asking for the time?");
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK_MESSAGE(yours > 4.5, ("your stopwatch read " + std::to_string(yours) +
                              " ms for a 5 ms kernel on its stream: it stopped before the kernel ended"));
  CHECK_MESSAGE(yours < 20.0, ("your stopwatch read " + std::to_string(yours) +
                               " ms for a 5 ms kernel: the 40 ms kernel on another stream landed inside it; record "
                               "the events on the stream being timed, not on the default stream"));
}
