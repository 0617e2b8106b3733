// Exercise 07: flush the L2 cache before each cold sample.
//
// A kernel timed over and over finds its data in L2 from the previous run
// ("warm"). To time it as it runs on data that was not just used ("cold"),
// flush the cache before every sample. The flush must not be timed: it goes on
// the same stream, before the start event.
//
// Check your work:  scripts/progress ch07
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch07_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "cold_samples.cuh"
#include "stream.cuh"

namespace exercise07 {

std::vector<double> time_cold(const std::function<void(cudaStream_t)>& work,
                              const std::function<void(cudaStream_t)>& flush, cudaStream_t stream, int samples) {
  std::vector<double> result;
  lab::Event start, stop;
  for (int i = 0; i < samples; ++i) {
    // TODO: flush the L2 here, on `stream`, so this sample starts cold.
    (void)flush;
    LAB_CHECK(cudaEventRecord(start, stream));
    work(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    LAB_CHECK(cudaEventSynchronize(stop));
    result.push_back(lab::Event::elapsed_ms(start, stop));
  }
  return result;
}

}  // namespace exercise07
