// Exercise 03b: time a kernel of a few microseconds so that the launch gap
// does not count.
//
// The loop below times each sample as a lone launch: the host records the
// start event, launches the kernel, records the stop event and waits. The GPU
// is idle, so it reaches the start event at once and then waits for the
// kernel to arrive: for a kernel of 2 us, a few more microseconds of launch
// gap sit inside every sample (chapter 03, section 6). Hold the stream with a
// lab::StreamBlocker while the sample is queued, then let it go: the GPU then
// meets the start event, the kernel and the stop event back to back.
//
// Check your work:  scripts/progress ch03b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch03b_')
// Stuck? Read HINTS.md beside this file.
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
    // TODO: hold the stream here, so the whole sample is queued before the GPU reaches any of it.
    LAB_CHECK(cudaEventRecord(start, stream));
    work(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    // TODO: let the stream go, now that the sample is queued.
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
