/// @file normalize.cuh
/// @brief Chapter 04's workload: normalise an array, `a <- a / sum(a)`, with
/// three kernels queued on one stream (the Numba streams-and-events tutorial).
///
///   1. partial_sums   each block sums a grid-stride share of `a` (four floats per
///                     load, float4) in shared memory and writes one partial sum;
///   2. sum_partials   one thread adds the (at most kMaxPartials) partial sums;
///   3. divide         every element is divided by the total (four per load and store).
///
/// The three launches need no synchronisation between them: a stream runs its
/// work in the order it was queued, so kernel 2 starts after kernel 1 ends.
///
/// Accuracy: the GPU sums in float (each thread a few dozen values, then a
/// tree, then the partials in double), the CPU reference in double. For
/// positive inputs the relative error of the float sum stays far below 1e-6
/// even for 10^7 values, and the divide adds one rounding, so the stated
/// tolerance is |gpu - reference| <= kNormalizeTolerance * |reference| per
/// element, and |sum of the result - 1| <= kNormalizeTolerance.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "memory.cuh"

namespace ch04 {

/// Threads per block of the three kernels (the partial sum's shared-memory tree needs a power of two).
constexpr int kNormalizeBlock = 256;
/// Most partial sums kernel 1 writes, few enough that one thread adds them in
/// microseconds. Not sized from the device: 512 blocks of 256 threads are 3.9
/// per SM on a 132-SM H100, half the 8 an SM holds at once, and fewer on a GPU
/// with more SMs, so partial_sums' bandwidth may fall short of what the GPU
/// could reach (README, section 2).
constexpr int kMaxPartials = 512;
/// Blocks kernel 1 launches for @p n elements: ceil(n / kNormalizeBlock), at most kMaxPartials.
int partial_blocks(std::size_t n);

/// The three kernels on @p stream (normalize.cu's launch_normalize) normalise
/// @p data, n floats on the device (16-byte aligned, as cudaMalloc's are), in
/// place, with `partials` and `total` allocated with cudaMallocAsync and freed
/// with cudaFreeAsync on @p stream: the memory is handed back in stream order,
/// after kernel 3 has used it, and the host never waits.
void launch_normalize_stream_ordered(float* data, std::size_t n, cudaStream_t stream);

/// The same three kernels with temporaries from cudaMalloc / cudaFree: the
/// host waits for @p stream (cudaStreamSynchronize) before the temporaries are
/// freed, so this call blocks until the kernels, and all work queued before them, are done.
void launch_normalize_cuda_malloc(float* data, std::size_t n, cudaStream_t stream);

/// One array to normalise, as in the tutorial: random positive floats in a
/// pinned host array, copied in, normalised by the three kernels, copied out
/// into a second pinned array (so every run starts from the same input).
class NormalizeProblem {
 public:
  /// @p n random floats in [0.25, 1) seeded by @p seed, their reference, and the device buffers
  /// (the device copy starts as the input).
  NormalizeProblem(std::size_t n, std::uint64_t seed);

  /// Fills the pinned output with NaNs, so a copy that never happened fails the check.
  void poison_output();

  /// Queues copy in -> three kernels -> copy out on @p stream.
  void enqueue(cudaStream_t stream);

  /// Queues only the copy of the pinned input to the device copy.
  void enqueue_copy_in(cudaStream_t stream);
  /// Queues only the copy of the device copy to the pinned output.
  void enqueue_copy_out(cudaStream_t stream);

  /// The pinned output against the CPU reference (call after the stream is synchronised).
  NormalizeCheck check() const;

  std::size_t size() const { return n_; }                   ///< elements
  std::size_t bytes() const { return n_ * sizeof(float); }  ///< bytes each way
  float* device_data() { return data_.data(); }             ///< the device copy

 private:
  std::size_t n_;
  lab::PinnedBuffer<float> input_, output_;
  lab::DeviceBuffer<float> data_, partials_, total_;
  std::vector<float> expected_;
};

/// Section 1: poisons @p problem's output, queues it on @p stream, waits, and checks it.
FirstRun normalize_once(NormalizeProblem& problem, cudaStream_t stream);

}  // namespace ch04
