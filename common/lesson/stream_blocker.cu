#include <atomic>
#include <stdexcept>

#include "check.cuh"
#include "clock.cuh"
#include "stream_blocker.cuh"

namespace lab {

namespace {

// Spins until the host writes flags[0] or the timeout passes (then flags[1] = 1).
// The flags live in pinned host memory; volatile makes every iteration read
// them again instead of keeping a copy in a register.
__global__ void hold_stream_kernel(volatile int* flags, unsigned long long timeout_ns) {
  const unsigned long long start = globaltimer_ns();
  while (flags[0] == 0) {
    if (globaltimer_ns() - start > timeout_ns) {
      flags[1] = 1;
      break;
    }
  }
}

}  // namespace

StreamBlocker::StreamBlocker(double timeout_ms)
    : flags_(2), timeout_ns_(static_cast<unsigned long long>(timeout_ms * 1e6)) {
  flags_[0] = 1;
  flags_[1] = 0;
}

StreamBlocker::~StreamBlocker() {
  if (!holding_) return;
  release();
  cudaStreamSynchronize(held_);  // the kernel must be done before its flags are freed; errors cannot be thrown here
}

void StreamBlocker::block(cudaStream_t stream) {
  if (holding_) throw std::logic_error("StreamBlocker::block: a stream is already held");
  // The previous holding kernel (if any) has finished: the caller waited for its stream.
  flags_[0] = 0;
  flags_[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  hold_stream_kernel<<<1, 1, 0, stream>>>(flags_.data(), timeout_ns_);
  LAB_CHECK_LAUNCH();
  held_ = stream;
  holding_ = true;
}

void StreamBlocker::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *static_cast<volatile int*>(flags_.data()) = 1;
  holding_ = false;
}

bool StreamBlocker::timed_out() const { return static_cast<const volatile int*>(flags_.data())[1] != 0; }

}  // namespace lab
