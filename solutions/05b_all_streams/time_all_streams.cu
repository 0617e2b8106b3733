// Exercise 05b, solved: the start event forks to every chunk's stream, and
// every chunk's stream joins stream[0] before the stop event.
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
  std::vector<lab::Event> done;  // one per chunk but the first
  done.reserve(static_cast<std::size_t>(chunks));
  for (int i = 1; i < chunks; ++i) {
    done.emplace_back(cudaEventDisableTiming);           // for ordering only
    LAB_CHECK(cudaEventRecord(done.back(), stream[i]));  // marks the end of chunk i's work
    LAB_CHECK(cudaStreamWaitEvent(stream[0], done.back(), 0));
  }
  LAB_CHECK(cudaEventRecord(stop, stream[0]));  // after stream 0's own work and every other stream's
  LAB_CHECK(cudaEventSynchronize(stop));
  return lab::Event::elapsed_ms(start, stop);
}

}  // namespace exercise05b
