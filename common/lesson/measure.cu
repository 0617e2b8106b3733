#include <memory>
#include <stdexcept>

#include "check.cuh"
#include "l2_flush.cuh"
#include "measure.cuh"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "timers.cuh"

namespace lab {

std::vector<double> measure_ms(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                               const MeasureConfig& config) {
  std::unique_ptr<L2Flusher> flusher;
  if (config.flush_l2) flusher = std::make_unique<L2Flusher>();
  std::unique_ptr<StreamBlocker> blocker;
  if (config.mode == SampleMode::blocked_stream) blocker = std::make_unique<StreamBlocker>();

  // Warm-up: loads every kernel's module (the holding kernel's too) before any
  // stream is held, and settles clocks and allocations.
  for (int i = 0; i < config.warmup; ++i) work(stream);
  if (blocker) {
    blocker->block(stream);
    blocker->release();
  }
  if (flusher) flusher->flush(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));

  std::vector<Event> starts(static_cast<std::size_t>(config.samples));
  std::vector<Event> stops(static_cast<std::size_t>(config.samples));
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (blocker) blocker->block(stream);
    if (flusher) flusher->flush(stream);
    LAB_CHECK(cudaEventRecord(starts[i], stream));
    work(stream);
    LAB_CHECK(cudaEventRecord(stops[i], stream));
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
  for (std::size_t i = 0; i < starts.size(); ++i) samples.push_back(Event::elapsed_ms(starts[i], stops[i]));
  return samples;
}

}  // namespace lab
