// Exercise 12: copy the next tile while computing this one.
//
// As handed out, each block stages its tiles synchronously: it loads a tile
// into shared memory, waits at __syncthreads(), computes, waits again, and only
// then starts loading the next tile. With one block per SM nothing else runs
// while the block waits for its load (chapter 12, section 2: sync_staged at
// "1/SM full"). Turn it into a 2-stage cuda::pipeline: two tile buffers, the
// copy of tile k + 1 issued with cuda::memcpy_async before tile k is computed,
// so that the copy runs while the block computes.
//
// Keep the stamps where they mean the same thing: `issued` when the block
// issues a tile's copy, `ready` when the wait for it returns, `computed` when
// the tile is stored (after a __syncthreads(), so the whole block is done).
//
// Check your work:  scripts/progress ch12
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch12_')
// Stuck? Read HINTS.md beside this file.
#include <cooperative_groups.h>

#include <cuda/pipeline>

#include "check.cuh"
#include "clock.cuh"
#include "two_stage.cuh"

namespace exercise12 {

namespace {

__device__ void stamp(unsigned long long* field) {
  if (threadIdx.x == 0) *field = lab::globaltimer_ns();
}

__global__ void staged(const float* in, float* out, std::int64_t n, int tile, int work, std::int64_t tiles_per_block,
                       ch12::StageStamps* stamps) {
  extern __shared__ float4 smem4[];
  float* smem = reinterpret_cast<float*>(smem4);
  // TODO: a block-scoped pipeline of 2 stages: a __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2>
  //       and cuda::make_pipeline(cooperative_groups::this_thread_block(), &state)
  const std::int64_t tiles = (n + tile - 1) / tile;
  const std::int64_t mine = blockIdx.x < tiles ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  for (std::int64_t k = 0; k < mine; ++k) {
    // TODO: before computing tile k, issue the copies up to tile k + 1 (producer_acquire, cuda::memcpy_async of
    //       the whole tile into buffer fetch % 2, the block's own count of tiles issued, not the global tile index,
    //       with cuda::aligned_size_t<16>, producer_commit), stamping
    //       `issued` for the tile whose copy you issue
    const std::int64_t start = (blockIdx.x + k * gridDim.x) * tile;
    const int len = static_cast<int>(min(static_cast<std::int64_t>(tile), n - start));
    ch12::StageStamps* s = stamps + blockIdx.x * tiles_per_block + k;
    stamp(&s->issued);
    const auto* src4 = reinterpret_cast<const float4*>(in + start);
    for (int j = static_cast<int>(threadIdx.x); j < len / 4; j += static_cast<int>(blockDim.x)) smem4[j] = src4[j];
    __syncthreads();  // TODO: wait for tile k instead (consumer_wait)
    stamp(&s->ready);
    const float* src = smem;  // TODO: tile k's buffer
    for (int j = static_cast<int>(threadIdx.x); j < len; j += static_cast<int>(blockDim.x)) {
      const float left = src[j == 0 ? len - 1 : j - 1];
      const float right = src[j + 1 == len ? 0 : j + 1];
      out[start + j] = ch12::stencil_point(left, src[j], right, work);
    }
    __syncthreads();
    stamp(&s->computed);
    // TODO: hand tile k's buffer back (consumer_release)
  }
}

}  // namespace

std::size_t staged_shared_bytes(int tile_floats) {
  return static_cast<std::size_t>(tile_floats) * sizeof(float);  // TODO: room for two tiles
}

void launch_staged(const float* in, float* out, std::int64_t n, int tile_floats, int work, int blocks,
                   std::int64_t tiles_per_block, cudaStream_t stream, ch12::StageStamps* stamps) {
  const std::size_t shared = staged_shared_bytes(tile_floats);
  LAB_CHECK(cudaFuncSetAttribute(staged, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  staged<<<blocks, 512, shared, stream>>>(in, out, n, tile_floats, work, tiles_per_block, stamps);
  LAB_CHECK_LAUNCH();
}

}  // namespace exercise12
