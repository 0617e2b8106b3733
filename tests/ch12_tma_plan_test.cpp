// Chapter 12's tma version, its arithmetic on the CPU (tma_plan.cuh, which the
// kernel uses as is): the tiles each block copies, the buffer and barrier phase
// of each tile, the bytes of each bulk copy, and the bulk-copy rules checked
// before a launch.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tma_plan.cuh"

TEST_CASE("tma plan: blocks take tiles b, b + grid, ...; every tile exactly once") {
  CHECK(ch12::tma_tiles_of_block(10, 0, 4) == 3);  // tiles 0, 4, 8
  CHECK(ch12::tma_tiles_of_block(10, 1, 4) == 3);  // 1, 5, 9
  CHECK(ch12::tma_tiles_of_block(10, 2, 4) == 2);  // 2, 6
  CHECK(ch12::tma_tiles_of_block(10, 3, 4) == 2);  // 3, 7
  CHECK(ch12::tma_tiles_of_block(3, 5, 8) == 0);   // more blocks than tiles: the rest have none
  CHECK(ch12::tma_tiles_of_block(0, 0, 8) == 0);
  for (const std::int64_t tiles : {1, 7, 132, 1000, 1057}) {
    for (const std::int64_t grid : {1, 3, 132, 528}) {
      std::int64_t total = 0;
      for (std::int64_t b = 0; b < grid; ++b) total += ch12::tma_tiles_of_block(tiles, b, grid);
      CAPTURE(tiles);
      CAPTURE(grid);
      CHECK(total == tiles);
      CHECK(ch12::tma_tiles_of_block(tiles, 0, grid) == (tiles + grid - 1) / grid);  // the busiest block
    }
  }
}

TEST_CASE("tma plan: tile k uses buffer k mod stages and waits for phase parity (k / stages) mod 2") {
  // One stage: every tile reuses buffer 0, the parity alternates with each tile.
  for (int k = 0; k < 6; ++k) {
    CHECK(ch12::tma_slot(k, 1).stage == 0);
    CHECK(ch12::tma_slot(k, 1).parity == static_cast<std::uint32_t>(k % 2));
  }
  // Three stages: buffers 0 1 2 0 1 2 0, parities 0 0 0 1 1 1 0.
  const int stage3[] = {0, 1, 2, 0, 1, 2, 0};
  const std::uint32_t parity3[] = {0, 0, 0, 1, 1, 1, 0};
  for (int k = 0; k < 7; ++k) {
    CHECK(ch12::tma_slot(k, 3).stage == stage3[k]);
    CHECK(ch12::tma_slot(k, 3).parity == parity3[k]);
  }
  // Each buffer's uses alternate their parity, whatever the stage count: the
  // barrier completes one phase per use.
  for (int stages = 1; stages <= 4; ++stages) {
    for (int k = 0; k + stages < 40; ++k) {
      const ch12::TmaSlot now = ch12::tma_slot(k, stages), next_use = ch12::tma_slot(k + stages, stages);
      CHECK(next_use.stage == now.stage);
      CHECK(next_use.parity == 1 - now.parity);
    }
  }
}

TEST_CASE("tma plan: every tile is whole but the last, which holds the rest") {
  CHECK(ch12::tma_tile_length(4096, 1024, 0) == 1024);
  CHECK(ch12::tma_tile_length(4096, 1024, 3) == 1024);
  CHECK(ch12::tma_tile_length(4100, 1024, 4) == 4);
  CHECK(ch12::tma_tile_length(1000, 1024, 0) == 1000);
  std::int64_t sum = 0;
  for (std::int64_t t = 0; t < (10012 + 255) / 256; ++t) sum += ch12::tma_tile_length(10012, 256, t);
  CHECK(sum == 10012);
}

TEST_CASE("tma plan: a bulk copy needs 16-byte aligned addresses and a positive multiple of 16 bytes below 1 MiB") {
  CHECK(ch12::bulk_copy_allowed(256, 64, 4096));
  CHECK(ch12::bulk_copy_allowed(16, 16, 16));
  CHECK_FALSE(ch12::bulk_copy_allowed(260, 64, 4096));  // global address 4 bytes off
  CHECK_FALSE(ch12::bulk_copy_allowed(256, 72, 4096));  // shared address 8 bytes off
  CHECK_FALSE(ch12::bulk_copy_allowed(256, 64, 4100));  // size not a multiple of 16
  CHECK_FALSE(ch12::bulk_copy_allowed(256, 64, 0));
  CHECK(ch12::bulk_copy_allowed(0, 0, ch12::kMaxTransactionBytes + 1 - 16));
  CHECK_FALSE(ch12::bulk_copy_allowed(0, 0, std::uint64_t{1} << 20));  // beyond the barrier's transaction count
}

TEST_CASE("tma plan: tma_copy_problem names the rule a launch would break, and is empty when none") {
  CHECK(ch12::tma_copy_problem(0x7f0000000000, 1 << 20, 2048).empty());
  CHECK(ch12::tma_copy_problem(0x7f0000000000, 4100, 1024).empty());  // last tile of 4 floats: 16 bytes
  CHECK(ch12::tma_copy_problem(0x7f0000000004, 1 << 20, 2048) == "the input is not 16-byte aligned");
  CHECK(ch12::tma_copy_problem(0x7f0000000000, 1 << 20, 2050) ==
        "a tile is not a positive multiple of 16 bytes (4 floats)");
  CHECK(ch12::tma_copy_problem(0x7f0000000000, 1 << 20, 0) ==
        "a tile is not a positive multiple of 16 bytes (4 floats)");
  CHECK(ch12::tma_copy_problem(0x7f0000000000, 4098, 1024) ==
        "the last tile is not a multiple of 16 bytes (n is not a positive multiple of 4)");
  CHECK(ch12::tma_copy_problem(0x7f0000000000, 1 << 20, 1 << 18) ==
        "a tile exceeds the barrier's transaction count ((1 << 20) - 1 bytes)");
  // Whatever the problem says is empty, every copy of the plan is allowed: tile
  // starts at in + tile x tile_floats floats, buffers after 64 bytes of barriers.
  const std::uint64_t in = 0x7f0000000100;
  for (const std::int64_t tile_floats : {4, 252, 1024, 12288}) {
    for (const std::int64_t n : {std::int64_t{4}, std::int64_t{1} << 16, (std::int64_t{1} << 16) + 12}) {
      REQUIRE(ch12::tma_copy_problem(in, n, tile_floats).empty());
      std::int64_t refused = 0;
      for (std::int64_t t = 0; t * tile_floats < n; ++t) {
        for (int stage = 0; stage < 4; ++stage) {
          const std::uint64_t shared = 64 + static_cast<std::uint64_t>(stage * tile_floats) * 4;
          const auto bytes = static_cast<std::uint64_t>(ch12::tma_tile_length(n, tile_floats, t)) * 4;
          if (!ch12::bulk_copy_allowed(in + static_cast<std::uint64_t>(t * tile_floats) * 4, shared, bytes)) ++refused;
        }
      }
      CAPTURE(tile_floats);
      CAPTURE(n);
      CHECK(refused == 0);
    }
  }
}
