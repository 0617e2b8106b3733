#include "check.cuh"
#include "device.cuh"
#include "l2_flush.cuh"

namespace lab {

namespace {

// Reads the buffer once. The sum (of zeros) is written only if it is
// 0xFFFFFFFF: never, but the compiler cannot drop the reads.
__global__ void read_flush_kernel(const uint4* buffer, std::size_t count, unsigned* sink) {
  unsigned sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = buffer[i];
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == 0xFFFFFFFFu) *sink = sum;
}

}  // namespace

L2Flusher::L2Flusher(Method method)
    : buffer_(2 * static_cast<std::size_t>(current_device_attribute(cudaDevAttrL2CacheSize))),
      sink_(1),
      method_(method) {
  LAB_CHECK(cudaMemset(buffer_.data(), 0, buffer_.bytes()));
}

void L2Flusher::flush(cudaStream_t stream) {
  LAB_CHECK(cudaCtxResetPersistingL2Cache());
  if (method_ == Method::write) {
    LAB_CHECK(cudaMemsetAsync(buffer_.data(), 0, buffer_.bytes(), stream));
    return;
  }
  read_flush_kernel<<<4 * current_device_attribute(cudaDevAttrMultiProcessorCount), 512, 0, stream>>>(
      reinterpret_cast<const uint4*>(buffer_.data()), buffer_.bytes() / sizeof(uint4), sink_.data());
  LAB_CHECK_LAUNCH();
}

}  // namespace lab
