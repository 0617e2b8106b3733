// Exercise 03: finish an event timer for the work queued on one stream.
//
// The stopwatch below records its events on stream 0, the default stream, and
// reads the elapsed time without waiting for the GPU to reach the stop event.
// On the check's streams (created
// with cudaStreamNonBlocking, as libraries often do) the default stream does
// not wait for them, and the reading is wrong or an error.
//
// Check your work:  scripts/progress ch03
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch03_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "stream_stopwatch.cuh"

namespace exercise03 {

void StreamStopwatch::start() {
  LAB_CHECK(cudaEventRecord(start_, 0));  // TODO: record on the stream this stopwatch times, not stream 0
}

void StreamStopwatch::stop() {
  LAB_CHECK(cudaEventRecord(stop_, 0));  // TODO: record on the stream this stopwatch times, not stream 0
}

float StreamStopwatch::elapsed_ms() {
  // TODO: wait until the GPU has reached the stop event before asking for the time
  return lab::Event::elapsed_ms(start_, stop_);
}

}  // namespace exercise03
