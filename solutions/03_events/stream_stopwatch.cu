// Solution to exercise 03: record both events on the stopwatch's stream and
// wait for the stop event. It differs from exercises/03_events/stream_stopwatch.cu in three lines.
#include "check.cuh"
#include "stream_stopwatch.cuh"

namespace exercise03 {

void StreamStopwatch::start() {
  LAB_CHECK(cudaEventRecord(start_, stream_));  // a marker in this stream: the GPU timestamps it when it gets there
}

void StreamStopwatch::stop() { LAB_CHECK(cudaEventRecord(stop_, stream_)); }

float StreamStopwatch::elapsed_ms() {
  LAB_CHECK(cudaEventSynchronize(stop_));  // cudaEventElapsedTime fails with cudaErrorNotReady before the GPU got there
  return lab::Event::elapsed_ms(start_, stop_);
}

}  // namespace exercise03
