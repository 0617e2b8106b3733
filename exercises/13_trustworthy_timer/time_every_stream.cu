// Exercise 13: one event pair around the work of every stream a call uses.
//
// Chapter 13, section 1: an event pair on the caller's stream brackets that
// stream only. A workload that forks its work to a side stream, copies its
// output on another stream, runs on a stream of its own or leaves work queued
// on one ends after the stop event, and the pair reads a few microseconds for
// a millisecond of work. As handed out, this is that naive pair. Make the
// window hold every stream's work, with events the streams wait for
// (cudaStreamWaitEvent), as the chapter's reference harness does (section 2)
// for the streams a workload declares. Here you are given every stream the
// call uses, the one the "work left queued" workload never declares included.
// A lab::Event (common/lesson/stream.cuh) is a cudaEvent_t wherever a CUDA call
// takes one: cudaEventRecord(start, caller), cudaStreamWaitEvent(s, start, 0).
//
// Check your work:  scripts/progress ch13
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch13_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "stream.cuh"
#include "time_every_stream.cuh"

namespace exercise13 {

double time_call_us(const std::function<void(cudaStream_t)>& call, cudaStream_t caller,
                    const std::vector<cudaStream_t>& streams) {
  lab::Event start, stop;
  std::vector<lab::Event> joined;  // one per stream of `streams`, to mark the end of its work (ordering only)
  for (std::size_t i = 0; i < streams.size(); ++i) joined.emplace_back(cudaEventDisableTiming);

  LAB_CHECK(cudaEventRecord(start, caller));
  // TODO: make every stream of `streams` wait for `start` before the call queues its work there.
  call(caller);
  // TODO: mark the end of every stream's work with its `joined` event, and make `caller` wait for each.
  LAB_CHECK(cudaEventRecord(stop, caller));
  LAB_CHECK(cudaEventSynchronize(stop));
  return lab::Event::elapsed_us(start, stop);
}

}  // namespace exercise13
