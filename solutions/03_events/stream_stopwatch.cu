// Solution to exercise 03: record both events on the stopwatch's stream and
// wait for the stop event. It differs from exercises/03_events/stream_stopwatch.cu in three lines.
#include "stream_stopwatch.cuh"

namespace exercise03 {

void StreamStopwatch::start() {
  start_.record(stream_);  // a marker in this stream: the GPU timestamps it when it gets there
}

void StreamStopwatch::stop() {
  stop_.record(stream_);
}

float StreamStopwatch::elapsed_ms() {
  stop_.synchronize();  // cudaEventElapsedTime fails with cudaErrorNotReady before the GPU got there
  return lab::Event::elapsed_ms(start_, stop_);
}

}  // namespace exercise03
