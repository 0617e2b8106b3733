#include "check.cuh"
#include "clock.cuh"
#include "memory.cuh"

namespace lab {

namespace {

__global__ void spin_kernel(unsigned long long duration_ns) {
  const unsigned long long start = globaltimer_ns();
  while (globaltimer_ns() - start < duration_ns) {
  }
}

// result[0] = SM cycles elapsed, result[1] = nanoseconds elapsed.
__global__ void clock_probe_kernel(unsigned long long duration_ns, unsigned long long* result) {
  const unsigned long long t0 = globaltimer_ns();
  const long long c0 = clock64();
  unsigned long long t1 = t0;
  while (t1 - t0 < duration_ns) t1 = globaltimer_ns();
  const long long c1 = clock64();
  result[0] = static_cast<unsigned long long>(c1 - c0);
  result[1] = t1 - t0;
}

}  // namespace

void launch_spin(cudaStream_t stream, double milliseconds) {
  spin_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(milliseconds * 1e6));
  LAB_CHECK_LAUNCH();
}

double measure_sm_clock_mhz(cudaStream_t stream, double milliseconds) {
  DeviceBuffer<unsigned long long> result(2);
  clock_probe_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(milliseconds * 1e6), result.data());
  LAB_CHECK_LAUNCH();
  unsigned long long host[2] = {0, 0};
  LAB_CHECK(cudaMemcpyAsync(host, result.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
  LAB_CHECK(cudaStreamSynchronize(stream));
  if (host[1] == 0) return 0.0;
  return static_cast<double>(host[0]) / static_cast<double>(host[1]) * 1e3;  // cycles per ns -> MHz
}

}  // namespace lab
