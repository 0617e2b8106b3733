// Exercise 03b, solved: each sample is queued behind a held stream and then
// released, so the GPU meets start, kernel and stop back to back.
#include <stdexcept>

#include "blocked_samples.cuh"
#include "check.cuh"
#include "stream.cuh"
#include "stream_blocker.cuh"

namespace exercise03b {

std::vector<double> time_without_launch_gap(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                                            int samples) {
  lab::StreamBlocker blocker;
  // Warm-up: the work's kernels and the blocker's are loaded before the stream
  // is ever held (a kernel loaded lazily behind a held stream would wait for it).
  work(stream);
  blocker.block(stream);
  blocker.release();
  LAB_CHECK(cudaStreamSynchronize(stream));

  std::vector<double> result;
  lab::Event start, stop;
  for (int i = 0; i < samples; ++i) {
    blocker.block(stream);  // the GPU waits here until the sample below is queued
    LAB_CHECK(cudaEventRecord(start, stream));
    work(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    blocker.release();
    LAB_CHECK(cudaEventSynchronize(stop));
    if (blocker.timed_out()) {
      throw std::runtime_error(
          "the stream was held until the blocker gave up (5 s): is it released once the sample is queued?");
    }
    result.push_back(lab::Event::elapsed_ms(start, stop));
  }
  return result;
}

}  // namespace exercise03b
