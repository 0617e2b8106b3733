// Exercise 05: write the V2 schedule of NVIDIA's overlap example (async.cu).
//
// The data is split into stream.size() chunks: chunk i covers the floats
// [c.offset, c.offset + c.count) with c = ch05::chunk_of(n, chunks, i), and all
// of its work goes to stream[i]. V1 (the V1 loop of ch05::time_schedule in
// chapters/05_overlap/overlap.cu) does, for each chunk: copy in, kernel, copy
// out. V2 queues the same three calls stage by stage: every chunk's copy in,
// then every chunk's kernel, then every chunk's copy out. Below, the copies in
// are written; write the other two loops.
//
// Check your work:  scripts/progress ch05
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch05_')
// Stuck? Read HINTS.md beside this file.
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
  // TODO: a loop that launches ch05::transform over every chunk on stream[i] (then LAB_CHECK_LAUNCH()),
  //       then a loop that copies every chunk back to problem.host_output() with cudaMemcpyAsync on stream[i].
}

}  // namespace exercise05
