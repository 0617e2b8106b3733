// Exercise 05, solved: NVIDIA's V2, one loop per stage, each call on the chunk's stream.
#include "check.cuh"
#include "schedule_v2.cuh"

namespace exercise05 {

void schedule_v2(ch05::OverlapProblem& problem, const std::vector<cudaStream_t>& stream, int iterations) {
  const std::size_t n = problem.size();
  const int chunks = static_cast<int>(stream.size());
  const float* a = problem.host_input();
  float* d_a = problem.device_data();
  for (int i = 0; i < chunks; ++i) {
    const ch05::Chunk c = ch05::chunk_of(n, chunks, i);
    LAB_CHECK(cudaMemcpyAsync(&d_a[c.offset], &a[c.offset], c.bytes(), cudaMemcpyHostToDevice, stream[i]));
  }
  for (int i = 0; i < chunks; ++i) {
    const ch05::Chunk c = ch05::chunk_of(n, chunks, i);
    ch05::transform<<<ch05::grid_for(c.count), ch05::kBlock, 0, stream[i]>>>(&d_a[c.offset], c.count, iterations);
    LAB_CHECK_LAUNCH();
  }
  float* out = problem.host_output();
  for (int i = 0; i < chunks; ++i) {
    const ch05::Chunk c = ch05::chunk_of(n, chunks, i);
    LAB_CHECK(cudaMemcpyAsync(&out[c.offset], &d_a[c.offset], c.bytes(), cudaMemcpyDeviceToHost, stream[i]));
  }
}

}  // namespace exercise05
