// Exercise 13b: fresh inputs for every timed call, and its output judged at the stop event.
//
// Chapter 13, sections 1 and 2: a timer that gives every call the same inputs
// lets a cache answer at once, and one that checks the output only once the GPU
// is idle cannot see an output that arrived after its stop event. As handed
// out, the loop below does both: one set of inputs for every call, and no
// look at the output. Give every call fresh inputs, poison its output before
// it, read the output as soon as the stop event has completed, and judge it
// (judge_output, at the bottom): the reference harness's defences, written by
// you. The event pair is given: it brackets every stream the workload declares.
// ch13::Problem (chapters/13_trustworthy_timer/gallery.cuh) has what you need:
// fill(seed, stream), poison(stream), read(stream) (it synchronises the
// stream), expected() (the CPU's answer for the last fill).
//
// Check your work:  scripts/progress ch13b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch13b_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "checked_calls.cuh"
#include "stream.cuh"

namespace exercise13b {

CheckedCalls checked_calls(ch13::Workload& w, int calls, std::uint64_t seed, cudaStream_t caller) {
  ch13::Problem& p = *w.problem;
  CheckedCalls result;
  lab::Event start, stop;
  std::vector<lab::Event> joined(w.streams.size());
  p.fill(seed, caller);  // TODO: fresh inputs for every call instead: call i fills with seed + i
  for (int i = 0; i < calls; ++i) {
    // TODO: poison the output before the call
    LAB_CHECK(cudaDeviceSynchronize());  // each call meets an idle GPU
    LAB_CHECK(cudaEventRecord(start, caller));
    for (cudaStream_t s : w.streams) LAB_CHECK(cudaStreamWaitEvent(s, start, 0));
    w.call(caller);
    for (std::size_t k = 0; k < w.streams.size(); ++k) {
      LAB_CHECK(cudaEventRecord(joined[k], w.streams[k]));
      LAB_CHECK(cudaStreamWaitEvent(caller, joined[k], 0));
    }
    LAB_CHECK(cudaEventRecord(stop, caller));
    LAB_CHECK(cudaEventSynchronize(stop));
    result.window_us.push_back(lab::Event::elapsed_us(start, stop));
    // TODO: read the output now, at the stop event, judge it, and count it as unwritten or stale
    LAB_CHECK(cudaDeviceSynchronize());  // work the events did not bracket ends here, before the next call's inputs
  }
  return result;
}

ch13::OutputAtStop judge_output(const std::vector<float>& out, const std::vector<float>& expected) {
  // TODO: matched when every element equals expected's; unwritten when any is NaN (std::isnan); else stale
  (void)out;
  (void)expected;
  return ch13::OutputAtStop::matched;
}

}  // namespace exercise13b
