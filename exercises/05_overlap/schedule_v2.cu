// Exercise 05: write the V2 schedule of NVIDIA's overlap example (async.cu).
//
// The data is split into stream.size() equal chunks of `chunk` floats: chunk i
// starts at offset = i * chunk, and all of its work goes to stream[i]. V1
// (ch05::queue_v1 in chapters/05_overlap/overlap.cu) does, for each chunk: copy
// in, kernel, copy out. V2 queues the same three calls stage by stage: every
// chunk's copy in, then every chunk's kernel, then every chunk's copy out.
// Below, the copies in are written; write the other two loops.
//
// Check your work:  scripts/progress ch05
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch05_')
// Stuck? Read HINTS.md beside this file.
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
  // TODO: a loop that launches ch05::transform over every chunk on stream[i] (then LAB_CHECK_LAUNCH()),
  //       then a loop that copies every chunk back to problem.host_output() with cudaMemcpyAsync on stream[i].
}

}  // namespace exercise05
