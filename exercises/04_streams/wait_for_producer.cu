// Exercise 04: make a consumer stream wait for a producer stream.
//
// Chapter 04's race: a slow producer kernel writes `data` on one stream, a
// consumer kernel reads it on another. Nothing orders them, so the consumer
// runs at once and reads data that is not written yet. Fix it here, between
// the two launches, so the GPU orders them and the host never waits
// (no cudaDeviceSynchronize, no cudaStreamSynchronize: the check times you).
//
// Check your work:  scripts/progress ch04
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch04_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "wait_for_producer.cuh"

namespace exercise04 {

void order_consumer_after_producer(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t produced) {
  // TODO: mark the point after the producer's kernel with `produced`,
  //       then make `consumer` wait for that mark.
  (void)producer;
  (void)consumer;
  (void)produced;
}

}  // namespace exercise04
