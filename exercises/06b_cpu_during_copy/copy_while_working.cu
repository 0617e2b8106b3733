// Exercise 06b: keep the CPU working while a copy from pinned memory runs.
//
// A cudaMemcpyAsync from pinned memory returns as soon as the copy is queued;
// the copy engine does the rest. The function below throws that away: it waits
// for the copy right after queuing it, and only then does its CPU work, so the
// two take as long as both together. Let the CPU work while the copy runs, and
// wait for the copy only when the function needs it done: before returning.
//
// Check your work:  scripts/progress ch06b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch06b_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "copy_while_working.cuh"

namespace exercise06b {

void copy_while_working(const unsigned char* pinned_host, unsigned char* device, std::size_t bytes,
                        const std::function<void()>& cpu_work, cudaStream_t stream) {
  LAB_CHECK(cudaMemcpyAsync(device, pinned_host, bytes, cudaMemcpyHostToDevice, stream));
  // TODO: the host waits for the copy here, before its own work; wait after the CPU work instead.
  LAB_CHECK(cudaStreamSynchronize(stream));
  cpu_work();
}

}  // namespace exercise06b
