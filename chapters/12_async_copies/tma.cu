// Chapter 12, the tma version: one thread of each block copies each tile from
// global to shared memory with a TMA bulk copy (cp.async.bulk, through
// cuda::device::memcpy_async_tx) that completes on a cuda::barrier in shared
// memory; the block computes on one buffer while the copies of the next
// stages - 1 tiles are in flight. 1 to kMaxStages buffers.
//
// The pattern is the CUDA Programming Guide's "Prefetching Data" example (in
// "Using TMA to transfer one-dimensional arrays"): one barrier per stage,
// initialised with an arrival count of 1 so that only the copying thread
// arrives (cuda::device::barrier_arrive_tx, which also tells the barrier how
// many bytes to expect) and every thread waits for the phase to flip (explicit
// phase tracking, ptx::mbarrier_try_wait_parity); after computing on a buffer
// the block passes __syncthreads() before the buffer is refilled, so no copy
// overwrites a tile a thread still reads.
//
// TMA needs compute capability 9.0: the kernel's body sits under
// `__CUDA_ARCH__ >= 900` (the default build, 75-real;80-real;90, compiles an
// empty body for sm_75 and sm_80), tma_built() asks the runtime which code this
// device would run, and launch_tma refuses to launch where that code is empty.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>
#include <stdexcept>
#include <string>

#include "check.cuh"
#include "clock.cuh"
#include "staging.cuh"
#include "tma_plan.cuh"

namespace ch12 {

namespace {

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

static_assert(sizeof(block_barrier) == 8, "a block-scope cuda::barrier is one 8-byte mbarrier");
static_assert(kMaxStages * sizeof(block_barrier) <= kTmaBarrierBytes, "the barriers fit their room");
static_assert(kTmaBarrierBytes % kBulkCopyAlignment == 0, "the buffers after the barriers stay 16-byte aligned");

// [snippet:tma_kernel]
// Block b handles tiles b, b + gridDim.x, ...; its k-th tile goes to buffer
// k % stages. Dynamic shared memory: the stages' barriers (kTmaBarrierBytes),
// then stages buffers of tile_floats floats, each 16-byte aligned.
__global__ void tma_staged(const float* in, float* out, std::int64_t n, int tile_floats, int stages, int work,
                           StageStamps* stamps, std::int64_t stamps_per_block) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900  // cp.async.bulk and the mbarrier's tx-count: sm_90
  extern __shared__ __align__(16) unsigned char ch12_tma_shared[];
  block_barrier* full = reinterpret_cast<block_barrier*>(ch12_tma_shared);
  float* buffers = reinterpret_cast<float*>(ch12_tma_shared + kTmaBarrierBytes);

  const std::int64_t tile_total = (n + tile_floats - 1) / tile_floats;
  const std::int64_t my_tiles = tma_tiles_of_block(tile_total, blockIdx.x, gridDim.x);
  StageStamps* my_stamps = stamps != nullptr ? stamps + blockIdx.x * stamps_per_block : nullptr;

  // Thread 0 copies tile k into its stage's buffer and arrives on the stage's
  // barrier with the bytes to expect: the phase flips when both the arrival and
  // every byte of the copy are in.
  auto issue = [&](std::int64_t k) {
    const TmaSlot slot = tma_slot(k, stages);
    const std::int64_t tile = blockIdx.x + k * gridDim.x;
    const auto bytes = static_cast<std::uint32_t>(tma_tile_length(n, tile_floats, tile) * sizeof(float));
    if (my_stamps != nullptr) my_stamps[k].issued = lab::globaltimer_ns();
    cuda::device::memcpy_async_tx(buffers + slot.stage * tile_floats, in + tile * tile_floats,
                                  cuda::aligned_size_t<16>(bytes), full[slot.stage]);
    (void)cuda::device::barrier_arrive_tx(full[slot.stage], 1, bytes);
  };

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) init(&full[s], 1);  // one arrival per phase: the copying thread's
    // The initialised barriers made visible to the async proxy that the bulk copies complete on (the
    // Programming Guide's one-dimensional TMA example does the same after init).
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();  // the barriers are initialised before anyone uses them
  if (threadIdx.x == 0) {
    for (std::int64_t k = 0; k < stages && k < my_tiles; ++k) issue(k);  // fill the pipeline
  }

  for (std::int64_t k = 0; k < my_tiles; ++k) {
    const TmaSlot slot = tma_slot(k, stages);
    // Wait for the phase of this use of the buffer: its bytes are then visible to every thread.
    while (!cuda::ptx::mbarrier_try_wait_parity(cuda::ptx::sem_acquire, cuda::ptx::scope_cta,
                                                cuda::device::barrier_native_handle(full[slot.stage]), slot.parity)) {
    }
    if (threadIdx.x == 0 && my_stamps != nullptr) my_stamps[k].ready = lab::globaltimer_ns();

    const std::int64_t tile = blockIdx.x + k * gridDim.x;
    const std::int64_t start = tile * tile_floats;
    const auto len = static_cast<int>(tma_tile_length(n, tile_floats, tile));
    const float* t = buffers + slot.stage * tile_floats;
    for (int j = threadIdx.x; j < len; j += blockDim.x) {
      const float left = t[j == 0 ? len - 1 : j - 1];
      const float right = t[j + 1 == len ? 0 : j + 1];
      out[start + j] = stencil_point(left, t[j], right, work);
    }
    __syncthreads();  // every thread is done with this buffer: it may be refilled

    if (threadIdx.x == 0) {
      if (my_stamps != nullptr) my_stamps[k].computed = lab::globaltimer_ns();
      if (k + stages < my_tiles) issue(k + stages);  // stages tiles ahead, into the buffer just freed
    }
  }
#else
  (void)in, (void)out, (void)n, (void)tile_floats, (void)stages, (void)work, (void)stamps, (void)stamps_per_block;
#endif
}
// [snippet:tma_kernel]

// Raises the kernel's dynamic shared-memory limit above the default 48 KiB when
// @p shared needs it (the opt-in), and asks for the largest shared-memory
// carveout, as staging.cu does for the other versions, so that the blocks asked
// for fit beside each other.
void prepare_tma(std::size_t shared) {
  if (shared > 48 * 1024)
    LAB_CHECK(cudaFuncSetAttribute(tma_staged, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  LAB_CHECK(
      cudaFuncSetAttribute(tma_staged, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
}

}  // namespace

bool tma_built() {
  // Asked once per device (launch_tma asks before every launch): ptxVersion is
  // the virtual architecture of the code this device runs for the kernel, the
  // __CUDA_ARCH__ the guard above saw (binaryVersion would be the SASS's, which
  // can be newer than the code it was compiled from).
  static std::array<signed char, 64> known{};  // per device ordinal: 0 not asked, 1 built, -1 not
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= static_cast<int>(known.size())) {
    (void)cudaGetLastError();
    return false;
  }
  signed char& answer = known[static_cast<std::size_t>(device)];
  if (answer == 0) {
    cudaFuncAttributes attributes{};
    const cudaError_t error = cudaFuncGetAttributes(&attributes, tma_staged);
    if (error != cudaSuccess) (void)cudaGetLastError();  // no image for this device: that is the answer, not an error
    answer = (error == cudaSuccess && attributes.ptxVersion >= 90) ? 1 : -1;
  }
  return answer == 1;
}

void launch_tma(const float* in, float* out, std::int64_t n, const StageConfig& c, int blocks, int threads,
                std::size_t shared, cudaStream_t stream, StageStamps* stamps) {
  if (!tma_built())
    throw std::logic_error("ch12: the tma version needs code built for compute capability 9.0 on a 9.0+ device");
  const std::string problem = tma_copy_problem(reinterpret_cast<std::uintptr_t>(in), n, c.tile_floats);
  if (!problem.empty()) throw std::invalid_argument("ch12: tma version: " + problem);
  if (c.stages < 1 || c.stages > kMaxStages) throw std::invalid_argument("ch12: tma version: stages not in 1..4");
  const std::size_t need = kTmaBarrierBytes + static_cast<std::size_t>(c.stages) * c.tile_floats * sizeof(float);
  if (shared < need) throw std::invalid_argument("ch12: tma version: shared memory smaller than its layout");

  prepare_tma(shared);
  const std::int64_t tile_total = (n + c.tile_floats - 1) / c.tile_floats;
  const std::int64_t stamps_per_block = (tile_total + blocks - 1) / blocks;
  tma_staged<<<blocks, threads, shared, stream>>>(in, out, n, c.tile_floats, c.stages, c.work, stamps,
                                                  stamps_per_block);
  LAB_CHECK_LAUNCH();
}

int tma_registers_per_thread() {
  if (!tma_built()) return 0;
  cudaFuncAttributes attributes{};
  LAB_CHECK(cudaFuncGetAttributes(&attributes, tma_staged));
  return attributes.numRegs;
}

int tma_resident_blocks_per_sm(int threads, std::size_t shared) {
  if (!tma_built()) return 0;
  prepare_tma(shared);
  int blocks = 0;
  LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tma_staged, threads, shared));
  return blocks;
}

}  // namespace ch12
