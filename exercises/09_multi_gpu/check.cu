// The check for exercise 09, built from this file against your
// consume_after_producer.cu (test ch09_exercise_check, label "exercise"),
// against solutions/ (test ch09_solution_check, label "solution") and against
// the exercise as handed out (test ch09_pristine_check, label "pristine": it
// must fail). It runs chapter 09's race across devices, ch09::ProducerConsumer,
// with your ordering: a producer on GPU 0 spins, then writes a new value into
// every element; your function queues the consumer on GPU 1, which copies
// what it reads. It needs two GPUs with peer access: with fewer it says why
// and exits 77 (not checked).
#include <doctest/doctest.h>

#include <string>

#include "consume_after_producer.cuh"
#include "multi_gpu.cuh"
#include "timers.cuh"

TEST_CASE("exercise 09: the consumer on GPU 1 always reads what the producer on GPU 0 wrote") {
  ch09::exit_77_without_two_gpus();
  ch09::ProducerConsumer pc(1 << 20);
  for (int run = 0; run < 10; ++run) {
    CAPTURE(run);
    const float value = static_cast<float>(run + 1);
    ch09::queue_producer(pc, 5.0, value);
    exercise09::consume_after_producer(pc);
    const std::int64_t stale = ch09::count_stale(pc, value);
    REQUIRE_MESSAGE(stale == 0, "run " << run + 1 << " of 10: the consumer read " << stale << " of " << pc.n
                                       << " elements before the producer wrote them: nothing made GPU 1's stream "
                                          "wait for GPU 0's; record pc.produced_event on the producer's stream, "
                                          "then make the consumer's stream wait for it (cudaStreamWaitEvent works "
                                          "across devices)");
  }
}

TEST_CASE("exercise 09: the host does not wait for the producer") {
  ch09::exit_77_without_two_gpus();
  ch09::ProducerConsumer pc(1 << 10);
  ch09::queue_producer(pc, 0.01, 1.0f);  // load the kernels on both GPUs
  exercise09::consume_after_producer(pc);
  (void)ch09::count_stale(pc, 1.0f);
  ch09::queue_producer(pc, 50.0, 2.0f);  // GPU 0 is busy for 50 ms
  lab::HostTimer timer;
  exercise09::consume_after_producer(pc);
  const double host_ms = timer.elapsed_ms();
  (void)ch09::count_stale(pc, 2.0f);
  CAPTURE(host_ms);
  CHECK_MESSAGE(host_ms < 20.0, "your function kept the host waiting "
                                    << host_ms
                                    << " ms while GPU 0 was busy for 50 ms (expected under 20 ms): it waited for "
                                       "the GPU (a synchronize call?); let GPU 1's stream wait instead, with "
                                       "cudaStreamWaitEvent");
}
