// Chapter 12's staged kernel, three of its versions (tma.cu has the fourth).
// Every version computes stencil.cuh's stencil_point over tiles; a block walks
// its tiles b, b + grid, ... in order, thread 0 stamping %globaltimer per tile
// when asked (the stamps cost a __syncthreads() per tile, so timed runs pass none).
#include <cooperative_groups.h>

#include <algorithm>
#include <cuda/pipeline>
#include <stdexcept>
#include <string>

#include "check.cuh"
#include "clock.cuh"
#include "staging.cuh"

namespace cg = cooperative_groups;

namespace ch12 {

namespace {

/// The tile that starts at float @p start: its length (the last one may be shorter).
__device__ __forceinline__ int tile_length(std::int64_t start, std::int64_t n, int tile) {
  return static_cast<int>(min(static_cast<std::int64_t>(tile), n - start));
}

/// Thread 0 of the block writes the current time into one field of this tile's stamps.
__device__ __forceinline__ void stamp(unsigned long long* field) {
  if (threadIdx.x == 0) *field = lab::globaltimer_ns();
}

/// The block computes one tile of @p len floats from @p src (shared or global
/// memory) and stores it at @p out.
__device__ __forceinline__ void compute_tile(const float* src, float* out, int len, int work) {
  for (int j = static_cast<int>(threadIdx.x); j < len; j += static_cast<int>(blockDim.x)) {
    const float left = src[j == 0 ? len - 1 : j - 1];
    const float right = src[j + 1 == len ? 0 : j + 1];
    out[j] = stencil_point(left, src[j], right, work);
  }
}

/// (a) No staging: every thread reads its element and both neighbours from global memory.
__global__ void direct_kernel(const float* in, float* out, std::int64_t n, int tile, int work,
                              std::int64_t tiles_per_block, StageStamps* stamps) {
  const std::int64_t tiles = (n + tile - 1) / tile;
  std::int64_t k = 0;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x, ++k) {
    const std::int64_t start = t * tile;
    const int len = tile_length(start, n, tile);
    StageStamps* s = stamps ? stamps + blockIdx.x * tiles_per_block + k : nullptr;
    if (s) {
      stamp(&s->issued);
      stamp(&s->ready);
    }
    compute_tile(in + start, out + start, len, work);
    if (s) {
      __syncthreads();
      stamp(&s->computed);
    }
  }
}

// [snippet:sync_staged]
/// (b) Synchronous staging: the block loads the tile (16-byte loads), waits at
/// __syncthreads(), computes from shared memory, and waits again before the next load.
__global__ void sync_staged_kernel(const float* in, float* out, std::int64_t n, int tile, int work,
                                   std::int64_t tiles_per_block, StageStamps* stamps) {
  extern __shared__ float4 smem4[];
  float* smem = reinterpret_cast<float*>(smem4);
  const std::int64_t tiles = (n + tile - 1) / tile;
  std::int64_t k = 0;
  for (std::int64_t t = blockIdx.x; t < tiles; t += gridDim.x, ++k) {
    const std::int64_t start = t * tile;
    const int len = tile_length(start, n, tile);
    StageStamps* s = stamps ? stamps + blockIdx.x * tiles_per_block + k : nullptr;
    if (s) stamp(&s->issued);
    const auto* src4 = reinterpret_cast<const float4*>(in + start);
    for (int j = static_cast<int>(threadIdx.x); j < len / 4; j += static_cast<int>(blockDim.x)) smem4[j] = src4[j];
    __syncthreads();
    if (s) stamp(&s->ready);
    compute_tile(smem, out + start, len, work);
    __syncthreads();  // the next tile's loads overwrite the buffer
    if (s) stamp(&s->computed);
  }
}
// [snippet:sync_staged]

// [snippet:pipeline]
/// (c) cuda::memcpy_async into a cuda::pipeline of @p stages buffers: the block
/// keeps up to stages tiles in flight (cp.async from compute capability 8.0),
/// waits for the oldest, computes on it and releases its buffer: a unified
/// pipeline (CUDA Programming Guide, 4.10 Pipelines), every thread both producer and consumer.
/// The pipeline's stage count is a template parameter: the shared state holds
/// exactly Stages stages, so producer_acquire() of a buffer waits until every
/// thread has released the tile last computed in it.
template <int Stages>
__global__ void pipeline_kernel(const float* in, float* out, std::int64_t n, int tile, int work,
                                std::int64_t tiles_per_block, StageStamps* stamps) {
  constexpr int stages = Stages;
  extern __shared__ float4 smem4[];
  float* smem = reinterpret_cast<float*>(smem4);
  // A __shared__ object's constructor does not run (nvcc warns); make_pipeline initialises the state, once per
  // block, as in the Programming Guide's samples.
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages> state;
#pragma nv_diag_default static_var_with_dynamic_init
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const std::int64_t tiles = (n + tile - 1) / tile;
  // This block's tiles: blockIdx.x + k * gridDim.x for k < mine.
  const std::int64_t mine = blockIdx.x < tiles ? (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  std::int64_t fetch = 0;
  for (std::int64_t k = 0; k < mine; ++k) {
    for (; fetch < mine && fetch < k + stages; ++fetch) {
      const std::int64_t start = (blockIdx.x + fetch * gridDim.x) * tile;
      const int len = tile_length(start, n, tile);
      pipe.producer_acquire();
      if (stamps) stamp(&stamps[blockIdx.x * tiles_per_block + fetch].issued);
      cuda::memcpy_async(block, smem + (fetch % stages) * tile, in + start,
                         cuda::aligned_size_t<16>(static_cast<std::size_t>(len) * sizeof(float)), pipe);
      pipe.producer_commit();
    }
    const std::int64_t start = (blockIdx.x + k * gridDim.x) * tile;
    const int len = tile_length(start, n, tile);
    StageStamps* s = stamps ? stamps + blockIdx.x * tiles_per_block + k : nullptr;
    pipe.consumer_wait();
    if (s) stamp(&s->ready);
    compute_tile(smem + (k % stages) * tile, out + start, len, work);
    if (s) {
      __syncthreads();
      stamp(&s->computed);
    }
    pipe.consumer_release();
  }
}
// [snippet:pipeline]

/// Raises @p kernel's dynamic shared-memory limit to @p shared bytes when it is
/// above the default 48 KiB (the opt-in the Programming Guide requires), and asks
/// for the largest shared-memory carveout so that the blocks asked for fit.
template <typename Kernel>
void prepare(Kernel kernel, std::size_t shared) {
  if (shared > 48 * 1024) {
    LAB_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  }
  if (shared > 0) {
    LAB_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
  }
}

template <typename Kernel>
int resident(Kernel kernel, int threads, std::size_t shared) {
  prepare(kernel, shared);
  int blocks = 0;
  LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared));
  return blocks;
}

template <typename Kernel>
int registers(Kernel kernel) {
  cudaFuncAttributes attributes{};
  LAB_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return attributes.numRegs;
}

template <int Stages>
void launch_pipeline(const float* in, float* out, std::int64_t n, const StageConfig& c, int blocks, int threads,
                     std::size_t shared, std::int64_t per_block, cudaStream_t stream, StageStamps* stamps) {
  prepare(pipeline_kernel<Stages>, shared);
  pipeline_kernel<Stages><<<blocks, threads, shared, stream>>>(in, out, n, c.tile_floats, c.work, per_block, stamps);
}

}  // namespace

const char* version_name(Version v) {
  switch (v) {
    case Version::direct: return "direct";
    case Version::sync_staged: return "sync_staged";
    case Version::pipeline: return "pipeline";
    case Version::tma: return "tma";
  }
  return "?";
}

int threads_per_block(const StageConfig& c) {
  const int threads = 2048 / std::max(1, c.blocks_per_sm);
  return std::clamp(threads / 32 * 32, 64, 512);
}

int buffers(Version v, const StageConfig& c) {
  switch (v) {
    case Version::direct: return 0;
    case Version::sync_staged: return 1;
    default: return c.stages;
  }
}

std::size_t shared_bytes(Version v, const StageConfig& c) {
  const std::size_t tiles = static_cast<std::size_t>(buffers(v, c)) * static_cast<std::size_t>(c.tile_floats);
  return tiles * sizeof(float) + (v == Version::tma ? kTmaBarrierBytes : 0);
}

int grid_blocks(const StageConfig& c, int sm_count) { return sm_count * c.blocks_per_sm; }

std::int64_t tile_count(std::int64_t n, const StageConfig& c) { return (n + c.tile_floats - 1) / c.tile_floats; }

std::int64_t tiles_per_block(std::int64_t n, const StageConfig& c, int sm_count) {
  const std::int64_t grid = grid_blocks(c, sm_count);
  return (tile_count(n, c) + grid - 1) / grid;
}

bool config_valid(Version v, const StageConfig& c, std::string* why) {
  std::string reason;
  if (c.tile_floats < 4 || c.tile_floats % 4 != 0) {
    reason = "tile_floats must be a positive multiple of 4";
  } else if ((v == Version::pipeline || v == Version::tma) && (c.stages < 1 || c.stages > kMaxStages)) {
    reason = "stages must be in 1.." + std::to_string(kMaxStages);
  } else if (c.blocks_per_sm < 1) {
    reason = "blocks_per_sm must be at least 1";
  } else if (c.work < 0 || c.work > kMaxWork) {
    reason = "work must be in 0.." + std::to_string(kMaxWork);
  }
  if (why) *why = reason;
  return reason.empty();
}

int resident_blocks_per_sm(Version v, const StageConfig& c) {
  const int threads = threads_per_block(c);
  const std::size_t shared = shared_bytes(v, c);
  switch (v) {
    case Version::direct: return resident(direct_kernel, threads, shared);
    case Version::sync_staged: return resident(sync_staged_kernel, threads, shared);
    case Version::pipeline:
      switch (c.stages) {
        case 1: return resident(pipeline_kernel<1>, threads, shared);
        case 2: return resident(pipeline_kernel<2>, threads, shared);
        case 3: return resident(pipeline_kernel<3>, threads, shared);
        default: return resident(pipeline_kernel<4>, threads, shared);
      }
    case Version::tma: return tma_resident_blocks_per_sm(threads, shared);
  }
  return 0;
}

int registers_per_thread(Version v, const StageConfig& c) {
  switch (v) {
    case Version::direct: return registers(direct_kernel);
    case Version::sync_staged: return registers(sync_staged_kernel);
    case Version::pipeline:
      switch (c.stages) {
        case 1: return registers(pipeline_kernel<1>);
        case 2: return registers(pipeline_kernel<2>);
        case 3: return registers(pipeline_kernel<3>);
        default: return registers(pipeline_kernel<4>);
      }
    case Version::tma: return tma_registers_per_thread();
  }
  return 0;
}

void launch_version(Version v, const float* in, float* out, std::int64_t n, const StageConfig& c, int sm_count,
                    cudaStream_t stream, StageStamps* stamps) {
  std::string why;
  if (!config_valid(v, c, &why)) throw std::invalid_argument(std::string("ch12::launch_version: ") + why);
  if (n % 4 != 0) throw std::invalid_argument("ch12::launch_version: n must be a multiple of 4");
  const int blocks = grid_blocks(c, sm_count);
  const int threads = threads_per_block(c);
  const std::size_t shared = shared_bytes(v, c);
  const std::int64_t per_block = tiles_per_block(n, c, sm_count);
  switch (v) {
    case Version::direct:
      direct_kernel<<<blocks, threads, 0, stream>>>(in, out, n, c.tile_floats, c.work, per_block, stamps);
      break;
    case Version::sync_staged:
      prepare(sync_staged_kernel, shared);
      sync_staged_kernel<<<blocks, threads, shared, stream>>>(in, out, n, c.tile_floats, c.work, per_block, stamps);
      break;
    case Version::pipeline:
      switch (c.stages) {
        case 1: launch_pipeline<1>(in, out, n, c, blocks, threads, shared, per_block, stream, stamps); break;
        case 2: launch_pipeline<2>(in, out, n, c, blocks, threads, shared, per_block, stream, stamps); break;
        case 3: launch_pipeline<3>(in, out, n, c, blocks, threads, shared, per_block, stream, stamps); break;
        default: launch_pipeline<4>(in, out, n, c, blocks, threads, shared, per_block, stream, stamps); break;
      }
      break;
    case Version::tma:
      launch_tma(in, out, n, c, blocks, threads, shared, stream, stamps);
      return;  // launch_tma checks its own launch
  }
  LAB_CHECK_LAUNCH();
}

bool version_supported(Version v, const lab::DeviceInfo& d, std::string* why) {
  std::string reason;
  if (v == Version::tma) {
    if (d.cc_major < 9) {
      reason = "TMA needs compute capability 9.0; this GPU is " + std::to_string(d.cc_major) + "." +
               std::to_string(d.cc_minor);
    } else if (!tma_built()) {
      reason = "the tma version is not built (tma.cu is a stub, or the build has no sm_90 code)";
    }
  }
  if (why) *why = reason;
  return reason.empty();
}

}  // namespace ch12
