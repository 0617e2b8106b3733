// The check for exercise 04, built twice: against your file in exercises/
// (test ch04_exercise_check, label "exercise") and against solutions/
// (test ch04_solution_check, label "solution", part of the default test run).
// It runs chapter 04's own race, ch04::ProducerConsumer, with your ordering.
#include <doctest/doctest.h>

#include "clock.cuh"
#include "streams.cuh"
#include "timers.cuh"
#include "wait_for_producer.cuh"

TEST_CASE("exercise 04: the consumer always reads what the slow producer wrote") {
  ch04::ProducerConsumer race(1 << 20, 4);
  for (int run = 0; run < 20; ++run) {
    CAPTURE(run);
    const lab::Comparison result = race.run(exercise04::order_consumer_after_producer, 3.0);
    REQUIRE_MESSAGE(result.passed(), result.detail());
  }
}

TEST_CASE("exercise 04: the host does not wait for the producer") {
  lab::Stream producer, consumer;
  lab::Event produced(cudaEventDisableTiming);
  lab::launch_spin(producer, 0.01);  // load the module
  LAB_CHECK(cudaDeviceSynchronize());
  lab::launch_spin(producer, 30.0);  // the producer is busy for 30 ms
  lab::HostTimer timer;
  exercise04::order_consumer_after_producer(producer, consumer, produced.get());
  const double host_ms = timer.elapsed_ms();
  LAB_CHECK(cudaDeviceSynchronize());
  CAPTURE(host_ms);
  CHECK(host_ms < 10.0);  // the GPU orders the streams; the host goes on
}
