/// @file clock.cuh
/// @brief Time as the GPU sees it: the global nanosecond timer, a kernel that
/// keeps the GPU busy for a set time, and the SM clock measured from inside a kernel.
#pragma once

#include <cuda_runtime.h>

namespace lab {

/// The GPU's global nanosecond timer (PTX `%globaltimer`), readable in any kernel.
__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

/// Queues a one-thread kernel on @p stream that spins for @p milliseconds of GPU
/// time, then returns. Stands for "a long kernel" wherever a lesson needs the
/// GPU to be busy for a known time, independent of the GPU's speed.
void launch_spin(cudaStream_t stream, double milliseconds);

/// The SM clock in MHz, measured from inside a kernel: the SM's cycle counter
/// (`clock64()`) divided by `%globaltimer` over about @p milliseconds of spinning.
/// Synchronises @p stream. This is what the SM really ran at, whatever its
/// nominal clock says (nvbench measures it the same way for every sample).
double measure_sm_clock_mhz(cudaStream_t stream = nullptr, double milliseconds = 2.0);

}  // namespace lab
