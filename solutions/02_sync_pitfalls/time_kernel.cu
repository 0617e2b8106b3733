// Solution to exercise 02: synchronise before starting the clock and before
// stopping it. It differs from exercises/02_sync_pitfalls/time_kernel.cu in two lines.
#include "check.cuh"
#include "time_kernel.cuh"
#include "timers.cuh"

namespace exercise02 {

double time_kernel_ms(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream) {
  LAB_CHECK(cudaStreamSynchronize(stream));  // earlier work must not land inside the timer
  lab::HostTimer timer;
  launch(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));  // the kernel must be inside it
  return timer.elapsed_ms();
}

}  // namespace exercise02
