/// @file tma_plan.cuh
/// @brief The arithmetic of the tma version (tma.cu), written once for the host
/// (the checks before a launch, the CPU tests) and the device (the kernel):
/// which tiles a block copies, which buffer and barrier phase each one uses, how
/// many bytes each bulk copy moves, and the rules a bulk copy must respect.
///
/// The rules, from the CUDA Programming Guide, "Using TMA to transfer
/// one-dimensional arrays" (alignment table): the global memory address and the
/// shared memory address must be 16 byte aligned, the size of the transfer a
/// multiple of 16 bytes, the barrier 8 byte aligned. The PTX ISA's mbarrier
/// object counts pending transaction bytes in 20 bits (CCCL's barrier_arrive_tx
/// asserts a transaction count of at most (1 << 20) - 1), so one tile's copy
/// stays below 1 MiB.
#pragma once

#include <cstdint>
#include <string>

#include "stencil.cuh"

namespace ch12 {

/// Bulk copies move whole 16-byte units from and to 16-byte aligned addresses.
inline constexpr std::uint64_t kBulkCopyAlignment = 16;
/// The largest transaction count one barrier phase can expect: (1 << 20) - 1 bytes.
inline constexpr std::uint64_t kMaxTransactionBytes = (std::uint64_t{1} << 20) - 1;

/// How many of @p tile_total tiles block @p block of @p grid handles when
/// blocks take tiles block, block + grid, block + 2 grid, ... (0 when block >= tile_total).
CH12_HD std::int64_t tma_tiles_of_block(std::int64_t tile_total, std::int64_t block, std::int64_t grid) {
  return block < tile_total ? (tile_total - 1 - block) / grid + 1 : 0;
}

/// Where a block's k-th tile lives: buffer (and barrier) @c stage = k mod stages,
/// and the parity of the barrier phase its copy completes: the barrier of a
/// stage completes one phase per use, so use u = k / stages completes phase u,
/// whose parity is u mod 2 (phases alternate 0, 1, 0, ...).
struct TmaSlot {
  int stage;             ///< buffer and barrier index, 0..stages-1
  std::uint32_t parity;  ///< the phase parity to wait for, 0 or 1
};

/// The slot of a block's @p k-th tile with @p stages buffers.
CH12_HD TmaSlot tma_slot(std::int64_t k, int stages) {
  return TmaSlot{static_cast<int>(k % stages), static_cast<std::uint32_t>((k / stages) & 1)};
}

/// Floats in tile @p tile of @p n floats cut into tiles of @p tile_floats (the last may be shorter).
CH12_HD std::int64_t tma_tile_length(std::int64_t n, std::int64_t tile_floats, std::int64_t tile) {
  const std::int64_t left = n - tile * tile_floats;
  return left < tile_floats ? left : tile_floats;
}

/// Does a bulk copy of @p bytes from global address @p global to shared address
/// @p shared respect the rules (both 16-byte aligned, size a positive multiple of
/// 16 within one barrier phase's transaction count)?
CH12_HD bool bulk_copy_allowed(std::uint64_t global, std::uint64_t shared, std::uint64_t bytes) {
  return global % kBulkCopyAlignment == 0 && shared % kBulkCopyAlignment == 0 && bytes > 0 &&
         bytes % kBulkCopyAlignment == 0 && bytes <= kMaxTransactionBytes;
}

/// Why the tma version cannot copy @p n floats from address @p in_address in
/// tiles of @p tile_floats, or "" when every copy it would issue respects the
/// rules: each tile starts at in + tile x tile_floats floats and moves its floats
/// x 4 bytes, so in must be 16-byte aligned, tile_floats and n multiples of 4
/// (every tile, the last included, a multiple of 16 bytes), and a whole tile
/// within the transaction count. The shared side is the kernel's own layout:
/// buffers of tile_floats floats after kTmaBarrierBytes (a multiple of 16).
inline std::string tma_copy_problem(std::uint64_t in_address, std::int64_t n, std::int64_t tile_floats) {
  if (in_address % kBulkCopyAlignment != 0) return "the input is not 16-byte aligned";
  if (tile_floats <= 0 || tile_floats % 4 != 0) return "a tile is not a positive multiple of 16 bytes (4 floats)";
  if (n <= 0 || n % 4 != 0) return "the last tile is not a multiple of 16 bytes (n is not a positive multiple of 4)";
  if (static_cast<std::uint64_t>(tile_floats) * sizeof(float) > kMaxTransactionBytes)
    return "a tile exceeds the barrier's transaction count ((1 << 20) - 1 bytes)";
  return "";
}

}  // namespace ch12
