// Exercise 05b: time a schedule that runs on many streams, with one event pair.
//
// Chapter 05 times its schedules between two events on stream 0, the legacy
// default stream: every blocking stream waits for it and it waits for them,
// so the pair brackets all the chunks. Built with --default-stream per-thread,
// or with non-blocking streams, the same two lines would not bracket the
// chunks (chapter 04, section 3). Here the events go on the chunks' own
// streams. The start event is done: it is recorded on chunk 0's stream,
// stream[0], and every other chunk's stream waits for it, so no chunk's work
// begins before it. The stop event is not: it is recorded on the last chunk's
// stream, so it waits only for that chunk. When another chunk finishes later,
// the time read is too short.
//
// Check your work:  scripts/progress ch05b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch05b_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "stream.cuh"
#include "time_all_streams.cuh"

namespace exercise05b {

double time_all_streams_ms(const std::vector<cudaStream_t>& stream, const Schedule& schedule) {
  const int chunks = static_cast<int>(stream.size());
  lab::Event start, stop;
  LAB_CHECK(cudaEventRecord(start, stream[0]));
  for (int i = 1; i < chunks; ++i) LAB_CHECK(cudaStreamWaitEvent(stream[i], start, 0));
  schedule(stream);
  // TODO: make stream[0] wait for every other chunk's stream: record an event on each
  //       (lab::Event, cudaEventDisableTiming is enough) and let stream[0] wait for it.
  LAB_CHECK(
      cudaEventRecord(stop, stream[chunks - 1]));  // TODO: record the stop on stream[0], once it waits for them all
  LAB_CHECK(cudaEventSynchronize(stop));
  return lab::Event::elapsed_ms(start, stop);
}

}  // namespace exercise05b
