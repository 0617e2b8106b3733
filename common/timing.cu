#include <memory>

#include "check.cuh"
#include "timing.cuh"

namespace lab {

namespace {
std::size_t l2_bytes_of_current_device() {
  int device = 0;
  int l2 = 0;
  LAB_CHECK(cudaGetDevice(&device));
  LAB_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(l2);
}
}  // namespace

L2Flusher::L2Flusher() : buffer_(2 * l2_bytes_of_current_device()) {}

void L2Flusher::flush(cudaStream_t stream) {
  // Lines marked persisting (cudaAccessPolicyWindow) survive ordinary eviction
  // (nvbench issue #458); reset them to normal first.
  LAB_CHECK(cudaCtxResetPersistingL2Cache());
  LAB_CHECK(cudaMemsetAsync(buffer_.data(), 0, buffer_.bytes(), stream));
}

std::vector<double> measure_ms(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                               const MeasureConfig& config) {
  std::unique_ptr<L2Flusher> flusher;
  if (config.flush_l2) flusher = std::make_unique<L2Flusher>();

  for (int i = 0; i < config.warmup; ++i) work(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));

  std::vector<Event> starts;
  std::vector<Event> stops;
  starts.reserve(static_cast<std::size_t>(config.samples));
  stops.reserve(static_cast<std::size_t>(config.samples));
  for (int i = 0; i < config.samples; ++i) {
    starts.emplace_back();
    stops.emplace_back();
    if (flusher) flusher->flush(stream);
    starts.back().record(stream);
    work(stream);
    stops.back().record(stream);
  }
  LAB_CHECK(cudaStreamSynchronize(stream));

  std::vector<double> samples;
  samples.reserve(starts.size());
  for (std::size_t i = 0; i < starts.size(); ++i) samples.push_back(Event::elapsed_ms(starts[i], stops[i]));
  return samples;
}

}  // namespace lab
