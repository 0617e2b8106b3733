// Exercise 05: write the V2 schedule of NVIDIA's overlap example.
//
// A ch05::Pipeline splits the data into pipeline.chunks() chunks, chunk i on
// stream i, and offers three operations per chunk: copy_in(i), run_kernel(i),
// copy_out(i). V1 (ch05::enqueue_v1) does, for each chunk, copy in, kernel,
// copy out. V2 queues the same operations stage by stage: every copy in, then
// every kernel, then every copy out. Below, the stub only copies in.
//
// Check your work:  ctest --preset exercises -R ch05
// Stuck? Read HINTS.md beside this file.
#include "schedule_v2.cuh"

namespace exercise05 {

void schedule_v2(ch05::Pipeline& pipeline) {
  for (int i = 0; i < pipeline.chunks(); ++i) pipeline.copy_in(i);
  // TODO: queue every chunk's kernel, then every chunk's copy out.
}

}  // namespace exercise05
