// Exercise 12, solved: a 2-stage cuda::pipeline. The copy of tile k + 1 is
// issued (cuda::memcpy_async, cp.async on compute capability 8.0 and later)
// before tile k is computed, into the other of two tile buffers; the block
// waits only for the oldest copy (consumer_wait) and hands its buffer back when
// done (consumer_release), as chapter 12's pipeline version does for 1-4 stages.
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
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
#pragma nv_diag_default static_var_with_dynamic_init
  auto block = cooperative_groups::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const std::int64_t tiles = (n + tile - 1) / tile;
  const std::int64_t mine = blockIdx.x < tiles ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  std::int64_t fetch = 0;
  for (std::int64_t k = 0; k < mine; ++k) {
    for (; fetch < mine && fetch <= k + 1; ++fetch) {  // tile k and the next one in flight
      const std::int64_t start = (blockIdx.x + fetch * gridDim.x) * tile;
      const int len = static_cast<int>(min(static_cast<std::int64_t>(tile), n - start));
      pipe.producer_acquire();
      stamp(&stamps[blockIdx.x * tiles_per_block + fetch].issued);
      cuda::memcpy_async(block, smem + (fetch % 2) * tile, in + start,
                         cuda::aligned_size_t<16>(static_cast<std::size_t>(len) * sizeof(float)), pipe);
      pipe.producer_commit();
    }
    const std::int64_t start = (blockIdx.x + k * gridDim.x) * tile;
    const int len = static_cast<int>(min(static_cast<std::int64_t>(tile), n - start));
    ch12::StageStamps* s = stamps + blockIdx.x * tiles_per_block + k;
    pipe.consumer_wait();
    stamp(&s->ready);
    const float* src = smem + (k % 2) * tile;
    for (int j = static_cast<int>(threadIdx.x); j < len; j += static_cast<int>(blockDim.x)) {
      const float left = src[j == 0 ? len - 1 : j - 1];
      const float right = src[j + 1 == len ? 0 : j + 1];
      out[start + j] = ch12::stencil_point(left, src[j], right, work);
    }
    __syncthreads();
    stamp(&s->computed);
    pipe.consumer_release();
  }
}

}  // namespace

std::size_t staged_shared_bytes(int tile_floats) { return 2 * static_cast<std::size_t>(tile_floats) * sizeof(float); }

void launch_staged(const float* in, float* out, std::int64_t n, int tile_floats, int work, int blocks,
                   std::int64_t tiles_per_block, cudaStream_t stream, ch12::StageStamps* stamps) {
  const std::size_t shared = staged_shared_bytes(tile_floats);
  LAB_CHECK(cudaFuncSetAttribute(staged, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  staged<<<blocks, 512, shared, stream>>>(in, out, n, tile_floats, work, tiles_per_block, stamps);
  LAB_CHECK_LAUNCH();
}

}  // namespace exercise12
