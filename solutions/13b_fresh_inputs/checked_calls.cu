// Exercise 13b, solved: every call gets fresh inputs (seed + i) and an output
// poisoned before it, and its output is read as soon as the stop event has
// completed and judged against the CPU's answer for those inputs: a cached
// result shows as stale, an output that arrives after the stop event as
// unwritten.
#include <algorithm>
#include <cmath>

#include "check.cuh"
#include "checked_calls.cuh"
#include "stream.cuh"

namespace exercise13b {

CheckedCalls checked_calls(ch13::Workload& w, int calls, std::uint64_t seed, cudaStream_t caller) {
  ch13::Problem& p = *w.problem;
  CheckedCalls result;
  lab::Event start, stop;
  std::vector<lab::Event> joined(w.streams.size());
  for (int i = 0; i < calls; ++i) {
    p.fill(seed + static_cast<std::uint64_t>(i), caller);  // fresh inputs: a cache keyed on anything but them misses
    p.poison(caller);                                      // NaN: an element no one wrote shows
    LAB_CHECK(cudaDeviceSynchronize());                    // each call meets an idle GPU
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
    const ch13::OutputAtStop output = judge_output(p.read(caller), p.expected());  // as the stop event left it
    result.unwritten += output == ch13::OutputAtStop::unwritten ? 1 : 0;
    result.stale += output == ch13::OutputAtStop::stale ? 1 : 0;
    LAB_CHECK(cudaDeviceSynchronize());  // work the events did not bracket ends here, before the next call's inputs
  }
  return result;
}

ch13::OutputAtStop judge_output(const std::vector<float>& out, const std::vector<float>& expected) {
  if (out == expected) return ch13::OutputAtStop::matched;
  const bool poisoned = std::any_of(out.begin(), out.end(), [](float v) { return std::isnan(v); });
  return poisoned ? ch13::OutputAtStop::unwritten : ch13::OutputAtStop::stale;
}

}  // namespace exercise13b
