#include "check.cuh"
#include "device.cuh"
#include "l2_flush.cuh"

namespace lab {

L2Flusher::L2Flusher() : buffer_(2 * static_cast<std::size_t>(current_device_attribute(cudaDevAttrL2CacheSize))) {
  LAB_CHECK(cudaMemset(buffer_.data(), 0, buffer_.bytes()));
}

void L2Flusher::flush(cudaStream_t stream) {
  LAB_CHECK(cudaCtxResetPersistingL2Cache());
  LAB_CHECK(cudaMemsetAsync(buffer_.data(), 0, buffer_.bytes(), stream));
}

}  // namespace lab
