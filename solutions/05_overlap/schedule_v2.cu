// Exercise 05, solved: NVIDIA's V2, one loop per stage, each call on the chunk's stream.
#include "check.cuh"
#include "schedule_v2.cuh"

namespace exercise05 {

void schedule_v2(ch05::OverlapProblem& problem, const std::vector<cudaStream_t>& stream, int iterations) {
  const std::size_t chunk = problem.size() / stream.size(), chunk_bytes = chunk * sizeof(float);
  const float* a = problem.host_input();
  float* d_a = problem.device_data();
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::size_t offset = i * chunk;
    LAB_CHECK(cudaMemcpyAsync(&d_a[offset], &a[offset], chunk_bytes, cudaMemcpyHostToDevice, stream[i]));
  }
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::size_t offset = i * chunk;
    ch05::transform<<<ch05::grid_for(chunk), ch05::kBlock, 0, stream[i]>>>(&d_a[offset], chunk, iterations);
    LAB_CHECK_LAUNCH();
  }
  float* out = problem.host_output();
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::size_t offset = i * chunk;
    LAB_CHECK(cudaMemcpyAsync(&out[offset], &d_a[offset], chunk_bytes, cudaMemcpyDeviceToHost, stream[i]));
  }
}

}  // namespace exercise05
