// Exercise 05b, solved: the start event forks to every chunk's stream, and
// every chunk's stream joins stream 0 before the stop event.
#include <vector>

#include "check.cuh"
#include "stream.cuh"
#include "time_all_streams.cuh"

namespace exercise05b {

double time_all_streams_ms(ch05::Pipeline& pipeline, const Schedule& schedule) {
  const int chunks = pipeline.chunks();
  lab::Event start, stop;
  start.record(pipeline.stream(0));
  for (int i = 1; i < chunks; ++i) LAB_CHECK(cudaStreamWaitEvent(pipeline.stream(i), start.get(), 0));
  schedule(pipeline);
  std::vector<lab::Event> done;  // one per chunk but the first
  done.reserve(static_cast<std::size_t>(chunks));
  for (int i = 1; i < chunks; ++i) {
    done.emplace_back(cudaEventDisableTiming);  // for ordering only
    done.back().record(pipeline.stream(i));     // marks the end of chunk i's work
    LAB_CHECK(cudaStreamWaitEvent(pipeline.stream(0), done.back().get(), 0));
  }
  stop.record(pipeline.stream(0));  // after stream 0's own work and every other stream's
  stop.synchronize();
  return lab::Event::elapsed_ms(start, stop);
}

}  // namespace exercise05b
