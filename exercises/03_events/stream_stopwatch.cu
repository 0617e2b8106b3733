// Exercise 03: finish an event timer for the work queued on one stream.
//
// The stopwatch below records its events without saying on which stream, so
// they land on the default stream, and it reads the elapsed time without
// waiting for the GPU to reach the stop event. On the check's streams (created
// with cudaStreamNonBlocking, as libraries often do) the default stream does
// not wait for them, and the reading is wrong or an error.
//
// Check your work:  ctest --preset exercises -R ch03
// Stuck? Read HINTS.md beside this file.
#include "stream_stopwatch.cuh"

namespace exercise03 {

void StreamStopwatch::start() {
  start_.record();  // TODO: record on the stream this stopwatch times
}

void StreamStopwatch::stop() {
  stop_.record();  // TODO: record on the stream this stopwatch times
}

float StreamStopwatch::elapsed_ms() {
  // TODO: wait until the GPU has reached the stop event before asking for the time
  return lab::Event::elapsed_ms(start_, stop_);
}

}  // namespace exercise03
