// Exercise 07, solved: the flush is queued on the sample's stream before the
// start event, so it runs first and is left out of the time.
#include "check.cuh"
#include "cold_samples.cuh"
#include "stream.cuh"

namespace exercise07 {

std::vector<double> time_cold(const std::function<void(cudaStream_t)>& work,
                              const std::function<void(cudaStream_t)>& flush, cudaStream_t stream, int samples) {
  std::vector<double> result;
  lab::Event start, stop;
  for (int i = 0; i < samples; ++i) {
    flush(stream);
    LAB_CHECK(cudaEventRecord(start, stream));
    work(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    LAB_CHECK(cudaEventSynchronize(stop));
    result.push_back(lab::Event::elapsed_ms(start, stop));
  }
  return result;
}

}  // namespace exercise07
