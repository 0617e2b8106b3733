/// @file tma_copy.cuh
/// @brief Exercise 12b: each tile copied into shared memory by one thread's TMA
/// bulk copy, which completes on a cuda::barrier that expects its bytes.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "staging.cuh"

namespace exercise12b {

/// Shared-memory buffers, each with its barrier: a block's tile k goes to buffer
/// k % kStages, so the copy of tile k + 1 is in flight while tile k is computed.
inline constexpr int kStages = 2;

/// How long a thread of launch_tma_copy waits for a barrier phase before its
/// block gives up and leaves its tiles unwritten: 1 s, against a few
/// microseconds for one tile's copy. A phase that never completes (a barrier
/// that expects more bytes than arrive) then fails the check instead of hanging it.
inline constexpr unsigned long long kWaitLimitNs = 1'000'000'000ULL;

/// The bytes the bulk copy of tile @p tile moves from the input of @p n floats
/// cut into tiles of @p tile_floats floats (the last tile may be shorter), which
/// are also the bytes its barrier must expect.
__host__ __device__ std::uint32_t tile_bytes(std::int64_t n, int tile_floats, std::int64_t tile);

/// The parity (0 or 1) of the phase of barrier k % kStages that completes when
/// a block's @p k-th tile (k = 0, 1, 2, ...) has arrived in its buffer.
__host__ __device__ std::uint32_t phase_parity(std::int64_t k);

/// Queues chapter 12's stencil (ch12::stencil_point over tiles of @p tile_floats
/// floats, @p work FMAs per element) on @p stream: @p blocks blocks of 512
/// threads walking the tiles b, b + blocks, ..., thread 0 copying each tile into
/// shared memory with one bulk copy (kStages buffers). @p gave_up (device
/// memory, zeroed by the caller) counts the blocks that gave up waiting for a
/// copy (kWaitLimitNs). @p n and @p tile_floats multiples of 4, @p in 16-byte
/// aligned. Needs compute capability 9.0 and a build with sm_90 code.
void launch_tma_copy(const float* in, float* out, std::int64_t n, int tile_floats, int work, int blocks,
                     cudaStream_t stream, unsigned int* gave_up);

}  // namespace exercise12b
