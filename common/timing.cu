#include <atomic>
#include <memory>
#include <stdexcept>

#include "check.cuh"
#include "clock.cuh"
#include "device.cuh"
#include "timing.cuh"

namespace lab {

namespace {

// Reads every 16-byte piece of the buffer once. The sum is written only when it
// equals a value it never has (the buffer holds zeros), so the reads cannot be
// optimised away and the kernel writes nothing.
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
    : buffer_(2 * static_cast<std::size_t>(current_device_attribute(cudaDevAttrL2CacheSize))), sink_(1), method_(method) {
  LAB_CHECK(cudaMemset(buffer_.data(), 0, buffer_.bytes()));
}

void L2Flusher::flush(cudaStream_t stream) {
  // Lines marked persisting (cudaAccessPolicyWindow) survive ordinary eviction
  // (nvbench issue #458); reset them to normal first.
  LAB_CHECK(cudaCtxResetPersistingL2Cache());
  if (method_ == Method::write) {
    LAB_CHECK(cudaMemsetAsync(buffer_.data(), 0, buffer_.bytes(), stream));
    return;
  }
  read_flush_kernel<<<4 * current_device_attribute(cudaDevAttrMultiProcessorCount), 512, 0, stream>>>(reinterpret_cast<const uint4*>(buffer_.data()),
                                                 buffer_.bytes() / sizeof(uint4), sink_.data());
  LAB_CHECK_LAUNCH();
}

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

const char* sample_mode_name(SampleMode mode) {
  switch (mode) {
    case SampleMode::back_to_back: return "back to back";
    case SampleMode::isolated: return "isolated";
    case SampleMode::blocked_stream: return "blocked stream";
  }
  return "?";
}

std::vector<double> measure_ms(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                               const MeasureConfig& config) {
  std::unique_ptr<L2Flusher> flusher;
  if (config.flush_l2) flusher = std::make_unique<L2Flusher>();
  std::unique_ptr<StreamBlocker> blocker;
  if (config.mode == SampleMode::blocked_stream) blocker = std::make_unique<StreamBlocker>();

  // Warm-up: loads every kernel's module (the holding kernel's too) before any
  // stream is held, and settles clocks and allocations.
  for (int i = 0; i < config.warmup; ++i) {
    if (config.before_sample) config.before_sample(stream);
    work(stream);
  }
  if (blocker) {
    blocker->block(stream);
    blocker->release();
  }
  if (flusher) flusher->flush(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));

  std::vector<Event> starts;
  std::vector<Event> stops;
  starts.reserve(static_cast<std::size_t>(config.samples));
  stops.reserve(static_cast<std::size_t>(config.samples));
  for (int i = 0; i < config.samples; ++i) {
    starts.emplace_back();
    stops.emplace_back();
    if (blocker) blocker->block(stream);
    if (flusher) flusher->flush(stream);
    if (config.before_sample) config.before_sample(stream);
    starts.back().record(stream);
    work(stream);
    stops.back().record(stream);
    if (blocker) blocker->release();
    if (config.mode != SampleMode::back_to_back) {
      LAB_CHECK(cudaStreamSynchronize(stream));
      if (blocker && blocker->timed_out()) {
        throw std::runtime_error(
            "measure_ms: the blocked stream timed out before the sample was queued (is a profiler serialising "
            "kernels, or does the work synchronise?)");
      }
    }
  }
  LAB_CHECK(cudaStreamSynchronize(stream));

  std::vector<double> samples;
  samples.reserve(starts.size());
  for (std::size_t i = 0; i < starts.size(); ++i) samples.push_back(Event::elapsed_ms(starts[i], stops[i]));
  return samples;
}

}  // namespace lab
