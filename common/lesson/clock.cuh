/// @file clock.cuh
/// @brief Time as the GPU sees it: its nanosecond timer, a kernel that keeps it
/// busy for a set time, and the SM clock measured in a kernel.
#pragma once

#include <cuda_runtime.h>

namespace lab {

/// The GPU's global nanosecond timer (PTX `%globaltimer`), readable in any kernel.
__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

/// Queues a one-thread kernel on @p stream that spins for @p milliseconds: "a
/// long kernel" of known length on any GPU.
void launch_spin(cudaStream_t stream, double milliseconds);

/// The SM clock in MHz that a kernel measures: `clock64()` cycles over
/// `%globaltimer` ns, for about @p milliseconds (as nvbench does); nominal
/// clocks say nothing of throttling. Synchronises @p stream.
double measure_sm_clock_mhz(cudaStream_t stream = nullptr, double milliseconds = 2.0);

}  // namespace lab
