// The check for exercise 04, built from this file against your wait_for_producer.cu
// (test ch04_exercise_check, label "exercise"), against solutions/ (test
// ch04_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch04_pristine_check, label
// "pristine": it must fail). It runs chapter 04's own race,
// ch04::ProducerConsumer, with your ordering: data and out are poisoned with NaN,
// a slow producer writes data = 2 x input, the consumer writes out = data + 1.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "clock.cuh"
#include "stream.cuh"
#include "streams.cuh"
#include "timers.cuh"
#include "wait_for_producer.cuh"

namespace {

// "run 1 of 20: out[0] is NaN: the consumer read data[0] before the producer wrote it ..."
std::string explain_race(const lab::Comparison& result, int run) {
  std::ostringstream text;
  text << "run " << run + 1 << " of 20: ";
  if (result.first.empty()) return text.str() + result.detail();
  const lab::Mismatch& first = result.first.front();
  text << result.mismatches << " of " << result.count << " values of out are wrong; ";
  if (std::isnan(first.actual)) {
    text << "out[" << first.index << "] is NaN: the consumer read data[" << first.index
         << "] before the producer wrote it (it still held the poison); nothing made the consumer's stream "
            "wait for the producer's: record the event on the producer's stream, then make the consumer's "
            "stream wait for it";
  } else {
    text << "out[" << first.index << "] = " << first.actual << ", expected " << first.expected
         << ": the consumer read data the producer had not finished writing";
  }
  return text.str();
}

}  // namespace

TEST_CASE("exercise 04: the consumer always reads what the slow producer wrote") {
  ch04::ProducerConsumer race(1 << 20, 4);
  for (int run = 0; run < 20; ++run) {
    CAPTURE(run);
    const lab::Comparison result = race.run(exercise04::order_consumer_after_producer, 3.0);
    REQUIRE_MESSAGE(result.passed(), explain_race(result, run));
  }
}

TEST_CASE("exercise 04: the host does not wait for the producer") {
  lab::Stream producer, consumer;
  lab::Event produced(cudaEventDisableTiming);
  lab::launch_spin(producer, 0.01);  // load the module
  LAB_CHECK(cudaDeviceSynchronize());
  lab::launch_spin(producer, 30.0);  // the producer is busy for 30 ms
  lab::HostTimer timer;
  exercise04::order_consumer_after_producer(producer, consumer, produced);
  const double host_ms = timer.elapsed_ms();
  LAB_CHECK(cudaDeviceSynchronize());
  CAPTURE(host_ms);
  // The GPU orders the streams; the host goes on.
  CHECK_MESSAGE(host_ms < 10.0, "your function kept the host waiting "
                                    << host_ms
                                    << " ms while the producer was busy for 30 ms (expected under 10 ms): "
                                       "it waited for the GPU (a synchronize call?); let the consumer's "
                                       "stream wait instead, with cudaStreamWaitEvent");
}
