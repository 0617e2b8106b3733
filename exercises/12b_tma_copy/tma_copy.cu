// Exercise 12b: copy each tile with one TMA bulk copy that completes on a barrier.
//
// Chapter 12's tma version (tma.cu): one thread of each block copies a whole
// tile from global to shared memory with a bulk copy (cp.async.bulk, through
// cuda::device::memcpy_async_tx) and tells the tile's barrier how many bytes to
// expect (cuda::device::barrier_arrive_tx); every thread waits for the
// barrier's phase to complete before it reads the tile. The kernel around that
// is written below: two buffers with a barrier each, the wait, the compute. As
// handed out, thread 0 copies nothing: it only arrives on the barrier, so each
// phase completes at once and the block computes on its buffers' poison (NaN).
// Write the copy, the bytes each barrier must expect (tile_bytes: the last tile
// is shorter) and the phase each wait names (phase_parity).
//
// A barrier that expects more bytes than arrive never completes its phase:
// tma.cu's block would wait forever. wait_for_phase gives up after
// kWaitLimitNs (1 s), so that such a mistake fails the check instead of
// hanging it. Leave it as it is.
//
// Check your work:  scripts/progress ch12b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch12b_')
// Stuck? Read HINTS.md beside this file.
#include <cstddef>
#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>

#include "check.cuh"
#include "clock.cuh"
#include "tma_copy.cuh"

namespace exercise12b {

__host__ __device__ std::uint32_t tile_bytes(std::int64_t n, int tile_floats, std::int64_t tile) {
  (void)n, (void)tile_floats, (void)tile;
  return 0;  // TODO: the bytes of tile `tile`: tile_floats floats, or the floats left of n for the last tile
}

__host__ __device__ std::uint32_t phase_parity(std::int64_t k) {
  (void)k;
  return 0;  // TODO: tile k is the (k / kStages)-th use (from 0) of barrier k % kStages; use u waits for phase u,
             //       whose parity is u % 2
}

namespace {

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
// Room for kStages 8-byte barriers, a multiple of 16 so that the buffers after them stay 16-byte aligned.
constexpr std::size_t kBarrierBytes = 16;
static_assert(kStages * sizeof(block_barrier) <= kBarrierBytes, "the barriers fit their room");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Waits until the phase of @p bar whose parity is @p parity has completed, as
// tma.cu's loop on mbarrier_try_wait_parity does, but gives up after
// kWaitLimitNs and then returns false.
__device__ bool wait_for_phase(block_barrier& bar, std::uint32_t parity) {
  const unsigned long long give_up_at = lab::globaltimer_ns() + kWaitLimitNs;
  while (!cuda::ptx::mbarrier_try_wait_parity(cuda::ptx::sem_acquire, cuda::ptx::scope_cta,
                                              cuda::device::barrier_native_handle(bar), parity)) {
    if (lab::globaltimer_ns() > give_up_at) return false;
  }
  return true;
}
#endif

// Block b handles tiles b, b + gridDim.x, ...; its k-th tile goes to buffer k % kStages.
// Dynamic shared memory: the kStages barriers (kBarrierBytes), then kStages buffers of tile_floats floats.
__global__ void tma_copy(const float* in, float* out, std::int64_t n, int tile_floats, int work,
                         unsigned int* gave_up) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900  // cp.async.bulk and the barrier's transaction count: sm_90
  extern __shared__ __align__(16) unsigned char shared[];
  block_barrier* full = reinterpret_cast<block_barrier*>(shared);
  float* buffers = reinterpret_cast<float*>(shared + kBarrierBytes);

  // NaN in both buffers: a tile never copied, or read before its copy landed, shows in the output.
  for (int j = static_cast<int>(threadIdx.x); j < kStages * tile_floats; j += static_cast<int>(blockDim.x))
    buffers[j] = __int_as_float(-1);
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) init(&full[s], 1);  // one arrival per phase: thread 0's
  }
  // The poison and the barriers were written by threads (the generic proxy); the
  // bulk copies write through the async proxy: order the first before the second.
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();

  const std::int64_t tiles = (n + tile_floats - 1) / tile_floats;
  const std::int64_t mine = blockIdx.x < tiles ? (tiles - 1 - blockIdx.x) / gridDim.x + 1 : 0;

  // Thread 0 copies the block's k-th tile into buffer k % kStages, completed on barrier k % kStages.
  auto issue = [&](std::int64_t k) {
    const int stage = static_cast<int>(k % kStages);
    const std::int64_t tile = blockIdx.x + k * gridDim.x;
    [[maybe_unused]] float* buffer = buffers + stage * tile_floats;
    [[maybe_unused]] const float* source = in + tile * tile_floats;
    // TODO: copy tile_bytes(n, tile_floats, tile) bytes from source to buffer with one bulk copy that completes
    //       on full[stage] (cuda::device::memcpy_async_tx, the size as cuda::aligned_size_t<16>), then arrive on
    //       full[stage] telling it to expect those bytes (cuda::device::barrier_arrive_tx), instead of this arrival
    (void)full[stage].arrive();
  };

  if (threadIdx.x == 0) {
    for (std::int64_t k = 0; k < kStages && k < mine; ++k) issue(k);  // fill the buffers
  }
  for (std::int64_t k = 0; k < mine; ++k) {
    const int stage = static_cast<int>(k % kStages);
    const bool arrived = wait_for_phase(full[stage], phase_parity(k));
    // The whole block gives up, or none of it does. Its copies were issued a
    // second or more before; one tile's copy takes microseconds, so none is
    // expected to be still writing to this block's shared memory as it returns.
    if (__syncthreads_or(!arrived)) {
      if (threadIdx.x == 0) atomicAdd(gave_up, 1u);
      return;
    }
    const std::int64_t start = (blockIdx.x + k * gridDim.x) * tile_floats;
    const int len = static_cast<int>(min(static_cast<std::int64_t>(tile_floats), n - start));
    const float* t = buffers + stage * tile_floats;
    for (int j = static_cast<int>(threadIdx.x); j < len; j += static_cast<int>(blockDim.x)) {
      const float left = t[j == 0 ? len - 1 : j - 1];
      const float right = t[j + 1 == len ? 0 : j + 1];
      out[start + j] = ch12::stencil_point(left, t[j], right, work);
    }
    __syncthreads();  // every thread is done with this buffer: it may be refilled
    if (threadIdx.x == 0 && k + kStages < mine) issue(k + kStages);
  }
#else
  (void)in, (void)out, (void)n, (void)tile_floats, (void)work, (void)gave_up;
#endif
}

}  // namespace

void launch_tma_copy(const float* in, float* out, std::int64_t n, int tile_floats, int work, int blocks,
                     cudaStream_t stream, unsigned int* gave_up) {
  const std::size_t shared = kBarrierBytes + static_cast<std::size_t>(kStages) * tile_floats * sizeof(float);
  LAB_CHECK(cudaFuncSetAttribute(tma_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  tma_copy<<<blocks, 512, shared, stream>>>(in, out, n, tile_floats, work, gave_up);
  LAB_CHECK_LAUNCH();
}

}  // namespace exercise12b
