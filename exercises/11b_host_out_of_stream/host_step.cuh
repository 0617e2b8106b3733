/// @file host_step.cuh
/// @brief Exercise 11b: host work between two kernels, without a host function in the stream.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include "checks_host.hpp"

namespace exercise11b {

/// Threads per block of both kernels.
inline constexpr int kThreads = 128;

/// The host's work between the two kernels: run(data) reads what the first
/// kernel wrote and writes what the second one reads. It makes no CUDA call,
/// so a host function (cudaLaunchHostFunc) may run it, and so may any thread.
struct HostStep {
  cudaHostFn_t run = nullptr;  ///< the work
  void* data = nullptr;        ///< its argument
};

/// One pair of kernels and what they share with the host.
struct Pair {
  int blocks = 0;                               ///< blocks of each kernel, of kThreads threads
  long long first_spin_ns = 0;                  ///< each block of the first kernel spins this long before writing
  int n = 0;                                    ///< values handed over each way (n <= blocks x kThreads)
  unsigned round = 0;                           ///< the first kernel writes from_gpu[i] = 7 i + round
  unsigned* from_gpu = nullptr;                 ///< the GPU's address of pinned host memory the first kernel writes
  const unsigned* to_gpu = nullptr;             ///< the GPU's address of pinned host memory the host step writes
  unsigned* out = nullptr;                      ///< device memory the second kernel writes: out[i] = to_gpu[i] + 1
  ch11::BlockRecord* first_records = nullptr;   ///< one record per block of the first kernel
  ch11::BlockRecord* second_records = nullptr;  ///< one record per block of the second kernel
  unsigned* release_flag = nullptr;             ///< a pinned, mapped word, 0 whenever run_pair is called
  CUdeviceptr release_flag_on_device = 0;       ///< the same word as the GPU addresses it (cuStreamWaitValue32)
};

/// Queues the first kernel of @p pair on @p stream, has @p step run on the
/// host once that kernel has finished, and queues the second kernel so that
/// it begins only after the step has returned. May return before the step has
/// run; once @p stream is idle, the step has run exactly once.
void run_pair(const Pair& pair, const HostStep& step, cudaStream_t stream);

}  // namespace exercise11b
