// Exercise 06b, solved: the CPU works while the copy engine copies; the host
// waits for the copy only once its own work is done.
#include "check.cuh"
#include "copy_while_working.cuh"

namespace exercise06b {

void copy_while_working(const unsigned char* pinned_host, unsigned char* device, std::size_t bytes,
                        const std::function<void()>& cpu_work, cudaStream_t stream) {
  LAB_CHECK(cudaMemcpyAsync(device, pinned_host, bytes, cudaMemcpyHostToDevice, stream));
  cpu_work();  // the call above returned at once: the copy engine reads the pinned pages meanwhile
  LAB_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace exercise06b
