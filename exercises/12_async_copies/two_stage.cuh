/// @file two_stage.cuh
/// @brief Exercise 12: a staged kernel whose next tile is copied while the current one is computed.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "staging.cuh"

namespace exercise12 {

/// Dynamic shared memory one block of launch_staged needs for tiles of @p tile_floats floats.
std::size_t staged_shared_bytes(int tile_floats);

/// Queues chapter 12's stencil (ch12::stencil_point over tiles of @p tile_floats
/// floats, @p work FMAs per element) on @p stream, @p blocks blocks of 512
/// threads walking the tiles b, b + blocks, ...; thread 0 of each block stamps
/// its k-th tile at stamps[b * tiles_per_block + k] (issued, ready, computed).
/// @p n and @p tile_floats multiples of 4, the pointers 16-byte aligned.
void launch_staged(const float* in, float* out, std::int64_t n, int tile_floats, int work, int blocks,
                   std::int64_t tiles_per_block, cudaStream_t stream, ch12::StageStamps* stamps);

}  // namespace exercise12
