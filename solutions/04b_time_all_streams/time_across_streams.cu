// Exercise 04b, solved: every other stream waits for the start event before
// its work, and streams[0] waits for every other stream's `done` event before
// the end event. The GPU orders it all; the host waits only for the end.
#include "check.cuh"
#include "stream.cuh"
#include "time_across_streams.cuh"

namespace exercise04b {

double time_across_streams(const WorkOnStream& work, const std::vector<cudaStream_t>& streams) {
  lab::Event start, end;
  std::vector<lab::Event> done;  // one per stream, to mark the end of its work (ordering only, no timing)
  for (std::size_t i = 0; i < streams.size(); ++i) done.emplace_back(cudaEventDisableTiming);

  LAB_CHECK(cudaEventRecord(start, streams[0]));
  for (std::size_t i = 1; i < streams.size(); ++i) LAB_CHECK(cudaStreamWaitEvent(streams[i], start, 0));
  for (std::size_t i = 0; i < streams.size(); ++i) work(i, streams[i]);
  for (std::size_t i = 1; i < streams.size(); ++i) {
    LAB_CHECK(cudaEventRecord(done[i], streams[i]));
    LAB_CHECK(cudaStreamWaitEvent(streams[0], done[i], 0));
  }
  LAB_CHECK(cudaEventRecord(end, streams[0]));
  LAB_CHECK(cudaEventSynchronize(end));
  return lab::Event::elapsed_ms(start, end);
}

}  // namespace exercise04b
