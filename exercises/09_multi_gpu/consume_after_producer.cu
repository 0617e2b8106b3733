// Exercise 09: make a consumer on GPU 1 wait for a producer on GPU 0.
//
// Chapter 09's race across devices: a slow producer on GPU 0 writes
// pc.produced; a consumer kernel on GPU 1 reads it straight from GPU 0's
// memory (peer access). Two devices' streams have no order at all, so the
// consumer runs at once and reads what was there before. Fix it here, so that
// the GPUs order the two and the host never waits (no cudaDeviceSynchronize,
// no cudaStreamSynchronize: the check times you).
//
// Check your work:  scripts/progress ch09   (needs two GPUs)
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch09_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "consume_after_producer.cuh"

namespace exercise09 {

void consume_after_producer(ch09::ProducerConsumer& pc) {
  // TODO: mark the point after the producer's work on GPU 0 with pc.produced_event,
  //       make GPU 1's stream (pc.consumer_stream) wait for that mark,
  //       then queue the consumer.
  ch09::queue_consumer(pc);
}

}  // namespace exercise09
