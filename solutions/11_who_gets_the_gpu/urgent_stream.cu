// Exercise 11, solved: the stream created with the greatest priority of the
// device's range (chapter 11's section 2 does the same in priorities.cu).
#include "check.cuh"
#include "urgent_stream.cuh"

namespace exercise11 {

cudaStream_t create_urgent_stream() {
  int least = 0, greatest = 0;
  LAB_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));  // e.g. 0 and -5: lower is greater
  cudaStream_t stream = nullptr;
  LAB_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest));
  return stream;
}

}  // namespace exercise11
