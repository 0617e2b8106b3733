/// @file staging.cuh
/// @brief The interface every version of chapter 12's staged kernel shares
/// (staging.cu: direct, sync_staged, pipeline; tma.cu: tma).
///
/// Each version computes stencil.cuh's out[i] = f(in[i], its tile-local
/// neighbours) with @p work FMAs per element. A launch is persistent: grid =
/// sm_count x blocks_per_sm blocks, block b handles tiles b, b + grid, ... in
/// order. The staged versions copy each tile of tile_floats floats into shared
/// memory first: sync_staged with plain loads and __syncthreads(), pipeline with
/// cuda::memcpy_async through a cuda::pipeline of `stages` buffers, tma with one
/// thread's bulk copy completed on a shared-memory barrier, `stages` buffers.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "data.hpp"  // StageStamps: issued, ready, computed per block per tile
#include "device.cuh"
#include "stencil.cuh"

namespace ch12 {

/// The versions of the kernel.
enum class Version {
  direct,       ///< no staging: each thread reads its element and neighbours from global memory
  sync_staged,  ///< the tile loaded into shared memory, __syncthreads(), computed
  pipeline,     ///< cuda::memcpy_async (cp.async) into a cuda::pipeline of 1-4 stages
  tma           ///< one thread's TMA bulk copy per tile, completed on a cuda::barrier, 1-4 stages
};

/// How one launch stages its tiles.
struct StageConfig {
  int tile_floats;    ///< floats per tile (a multiple of 4: copies move whole 16-byte units)
  int stages;         ///< shared-memory buffers in flight (pipeline, tma: 1-4; sync_staged uses 1; direct none)
  int blocks_per_sm;  ///< blocks launched per SM (grid = sm_count x blocks_per_sm)
  int work;           ///< FMAs per element after the stencil
};

inline constexpr int kMaxStages = 4;   ///< a StageConfig's stages at most
inline constexpr int kMaxWork = 4096;  ///< a StageConfig's FMAs per element at most

/// The name a table gives @p v: "direct", "sync_staged", "pipeline", "tma".
const char* version_name(Version v);

/// Threads per block for @p c: 2048 / blocks_per_sm, kept within 64..512 (the
/// SM's 2048 threads shared by the blocks; one block per SM runs 512 threads).
int threads_per_block(const StageConfig& c);

/// Shared-memory buffers version @p v uses under @p c: 0 (direct), 1 (sync_staged), c.stages (pipeline, tma).
int buffers(Version v, const StageConfig& c);

/// Dynamic shared memory one block of version @p v needs under @p c, in bytes
/// (the tiles, plus tma's barriers: kTmaBarrierBytes).
std::size_t shared_bytes(Version v, const StageConfig& c);
inline constexpr std::size_t kTmaBarrierBytes = 64;  ///< room for kMaxStages 8-byte barriers, 16-byte aligned

/// Blocks of one launch: sm_count x c.blocks_per_sm.
int grid_blocks(const StageConfig& c, int sm_count);
/// Tiles of @p n floats: ceil(n / tile_floats).
std::int64_t tile_count(std::int64_t n, const StageConfig& c);
/// Tiles the busiest block handles: ceil(tile_count / grid_blocks); the stamps
/// of block b's k-th tile are at stamps[b * tiles_per_block + k].
std::int64_t tiles_per_block(std::int64_t n, const StageConfig& c, int sm_count);

/// Does @p c describe a launch version @p v can make (tile a positive multiple
/// of 4, stages 1..kMaxStages, blocks_per_sm >= 1, work 0..kMaxWork)? When not, @p why says why.
bool config_valid(Version v, const StageConfig& c, std::string* why);

/// Queues one version on @p stream: out[i] = f(in[i], neighbours) with @p c.work,
/// tiles of c.tile_floats staged through shared memory per @p c; @p stamps
/// (nullable) per block per tile (tiles_per_block(n, c, sm_count) per block,
/// zeroed by the caller). @p in and @p out 16-byte aligned, @p n a multiple of 4.
/// Raises the kernel's dynamic shared-memory limit when shared_bytes > 48 KiB.
/// Throws std::invalid_argument when config_valid fails, lab::CudaError when a call fails.
void launch_version(Version v, const float* in, float* out, std::int64_t n, const StageConfig& c, int sm_count,
                    cudaStream_t stream, StageStamps* stamps);

/// Blocks of version @p v under @p c that one SM can hold at once
/// (cudaOccupancyMaxActiveBlocksPerMultiprocessor with its threads and dynamic
/// shared memory, after raising the kernel's limit); 0 when a block does not fit.
int resident_blocks_per_sm(Version v, const StageConfig& c);

/// Registers per thread of the kernel version @p v runs under @p c (cudaFuncAttributes::numRegs):
/// with the threads per block, one of the limits on resident_blocks_per_sm.
int registers_per_thread(Version v, const StageConfig& c);

/// Can the device run version @p v (pipeline: cp.async from compute capability
/// 8.0, emulated below; tma: compute capability 9.0 and a build for it)? When not, @p why says why.
bool version_supported(Version v, const lab::DeviceInfo& d, std::string* why);

// --- piece 2 (tma.cu) ---------------------------------------------------------

/// The tma version (tma.cu): called by launch_version once the config is valid;
/// @p blocks, @p threads and @p shared come from the helpers above, and launch_tma
/// raises its own kernel's dynamic shared-memory limit when @p shared > 48 KiB.
void launch_tma(const float* in, float* out, std::int64_t n, const StageConfig& c, int blocks, int threads,
                std::size_t shared, cudaStream_t stream, StageStamps* stamps);

/// resident_blocks_per_sm for the tma kernel (tma.cu): 0 while tma.cu is a stub.
int tma_resident_blocks_per_sm(int threads, std::size_t shared);
/// registers_per_thread for the tma kernel (tma.cu): 0 while tma.cu is a stub.
int tma_registers_per_thread();

/// Was tma.cu's kernel compiled for an architecture with TMA (a build containing sm_90 or later)?
/// False while tma.cu is a stub.
bool tma_built();

}  // namespace ch12
