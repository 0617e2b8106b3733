/// @file block_recorder.cuh
/// @brief A block-level timeline: each block of a kernel stamps %globaltimer at
/// its start and its end, with the SM it ran on (%smid), into a device buffer.
/// CUPTI records kernels, not blocks; this shows which blocks ran where and when.
///
/// @code
///   __global__ void add(const float* a, const float* b, float* c, int n, lab::BlockRecord* records) {
///     lab::record_block_start(records);                 // thread 0: start and SM
///     const int i = blockIdx.x * blockDim.x + threadIdx.x;
///     if (i < n) c[i] = a[i] + b[i];
///     lab::record_block_end(records);                   // every thread: a barrier, then thread 0: end
///   }
///   lab::BlockRecorder recorder(blocks);
///   recorder.clear(stream);
///   add<<<blocks, 256, 0, stream>>>(a, b, c, n, recorder.data());
///   lab::BlockSpan span = lab::summarize_blocks(recorder.download());   // after the stream is idle
/// @endcode
///
/// A kernel given nullptr records nothing and skips the barrier: the same kernel
/// runs with and without recording, which is how the chapter measures its cost.
/// One record per block of a 1D, 2D or 3D grid, indexed by the block's linear id.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "block_recorder.hpp"
#include "check.cuh"
#include "clock.cuh"
#include "memory.cuh"

namespace lab {

/// The SM the calling thread runs on (PTX `%smid`).
__device__ __forceinline__ unsigned int sm_id() {
  unsigned int id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

/// The calling block's index in its grid, x fastest.
__device__ __forceinline__ std::size_t linear_block_id() {
  return (static_cast<std::size_t>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

/// Call first in a kernel, from every thread: thread (0, 0, 0) stamps the block's
/// start and SM into @p records (one per block; nothing when @p records is nullptr).
__device__ __forceinline__ void record_block_start(BlockRecord* records) {
  if (records != nullptr && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    BlockRecord& r = records[linear_block_id()];
    r.start_ns = globaltimer_ns();
    r.smid = sm_id();
  }
}

/// Call last in a kernel, from every thread of the block (it holds a
/// __syncthreads() when @p records is not nullptr): once all have arrived,
/// thread (0, 0, 0) stamps the block's end.
__device__ __forceinline__ void record_block_end(BlockRecord* records) {
  if (records == nullptr) return;
  __syncthreads();  // the block's end is its last thread's end
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    BlockRecord& r = records[linear_block_id()];
    r.end_ns = globaltimer_ns();
    r.written = 1;
  }
}

/// The device buffer a kernel's blocks record into: one BlockRecord per block.
class BlockRecorder {
 public:
  /// Room for @p blocks records.
  explicit BlockRecorder(std::size_t blocks) : records_(blocks) {}
  BlockRecord* data() { return records_.data(); }       ///< what the kernel is given
  std::size_t size() const { return records_.size(); }  ///< records it holds
  /// Zeroes every record on @p stream (a record never written then reads as missing).
  void clear(cudaStream_t stream) { LAB_CHECK(cudaMemsetAsync(records_.data(), 0, records_.bytes(), stream)); }
  /// Copies the records to the host (blocks the host; call once the kernel is done).
  std::vector<BlockRecord> download() const { return records_.download(); }

 private:
  DeviceBuffer<BlockRecord> records_;
};

}  // namespace lab
