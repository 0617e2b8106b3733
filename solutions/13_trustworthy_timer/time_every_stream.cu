// Exercise 13, solved: every stream the call uses waits for the start event
// before the call queues its work there, and the caller's stream waits for an
// event recorded on each of them after the call, before the stop event. The
// GPU orders it all; the host waits only for the stop event.
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
  for (cudaStream_t s : streams) LAB_CHECK(cudaStreamWaitEvent(s, start, 0));  // fork: nothing there begins earlier
  call(caller);
  for (std::size_t i = 0; i < streams.size(); ++i) {  // join: the stop event comes after every stream's work
    LAB_CHECK(cudaEventRecord(joined[i], streams[i]));
    LAB_CHECK(cudaStreamWaitEvent(caller, joined[i], 0));
  }
  LAB_CHECK(cudaEventRecord(stop, caller));
  LAB_CHECK(cudaEventSynchronize(stop));
  return lab::Event::elapsed_us(start, stop);
}

}  // namespace exercise13
