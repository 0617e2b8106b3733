// The check for exercise 12b, built from this file against your tma_copy.cu
// (test ch12b_exercise_check, label "exercise"), against solutions/ (test
// ch12b_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch12b_pristine_check, label
// "pristine": it must fail). First tile_bytes and phase_parity, called on the
// CPU for the run below; then the kernel on 4 Mi + 1004 floats in tiles of 8192
// (a short last tile of 1004 floats), at most 128 blocks, so that every block
// uses each of its two barriers at least twice: random input, the output
// poisoned first, compared bit for bit with chapter 12's CPU reference, and no
// block may have given up waiting for a copy.
//
// A barrier that expects more bytes than its copy moves never completes its
// phase. The kernel's wait gives up after exercise12b::kWaitLimitNs (1 s) and
// counts the block, so that mistake fails here within seconds. A wait without
// that limit would leave the kernel running until ctest stops the check
// (LAB_EXERCISE_TIMEOUT, 60 s: reported as a timeout; scripts/progress says
// "did not finish in 60 s").
// It needs compute capability 9.0: below that it says why and exits 77 (not checked).
//
// A copy of a whole tile for the short last tile too, with the barrier told
// to expect a whole tile, gives the right output: the compute reads only the
// tile's 1004 floats, and the 28 KiB read past the end of the input lie
// inside cudaMalloc's rounding, so nothing faults. The last test case reads
// your source instead (exercises/source_rules.cmake, on the CPU, when the
// check is built): a size in either call that names a whole tile.
// clang-format off
// source rule: fail-if memcpy_async_tx *\([^;]*(tile_floats|kTile|8192|32768) => your bulk copy's size names a whole tile (tile_floats floats): the last tile holds fewer floats, so that copy reads past the end of the input; copy tile_bytes(n, tile_floats, tile) bytes
// source rule: fail-if barrier_arrive_tx *\([^;]*(tile_floats|kTile|8192|32768) => your barrier_arrive_tx names a whole tile (tile_floats floats): expect the bytes your copy of this tile moves, tile_bytes(n, tile_floats, tile)
// clang-format on
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "check.cuh"
#include "device.cuh"
#include "memory.cuh"
#include "program.hpp"
#include "source_findings.h"
#include "stream.cuh"
#include "tma_copy.cuh"
#include "verify.hpp"

namespace {

constexpr std::int64_t kFloats = (std::int64_t{1} << 22) + 1004;  // 513 tiles, the last one 1004 floats
constexpr int kTile = 8192, kWork = 16;                           // 32 KiB tiles

void exit_77_below_9_0() {
  std::string why;
  if (ch12::version_supported(ch12::Version::tma, lab::query_device(0), &why)) return;
  std::printf("skipped: %s\n", why.c_str());
  std::fflush(stdout);
  std::exit(lab::exit_code::no_device);
}

}  // namespace

TEST_CASE("cpu: exercise 12b: tile_bytes and phase_parity, for the run below") {
  // Host arithmetic: it runs without a GPU too (tests/support/gpu_test_main.cpp).
  const std::int64_t last = (kFloats + kTile - 1) / kTile - 1;                                   // 512
  const auto whole = static_cast<std::uint32_t>(kTile * sizeof(float));                          // 32768
  const auto short_last = static_cast<std::uint32_t>((kFloats - last * kTile) * sizeof(float));  // 4016
  CHECK_MESSAGE(exercise12b::tile_bytes(kFloats, kTile, 0) == whole,
                "tile_bytes(n, " << kTile << ", 0) is " << exercise12b::tile_bytes(kFloats, kTile, 0)
                                 << "; a whole tile of " << kTile << " floats is " << whole << " bytes");
  CHECK_MESSAGE(exercise12b::tile_bytes(kFloats, kTile, last) == short_last,
                "tile_bytes(n, " << kTile << ", " << last << ") is " << exercise12b::tile_bytes(kFloats, kTile, last)
                                 << "; the last tile of n = " << kFloats << " floats holds only "
                                 << kFloats - last * kTile << " floats, " << short_last
                                 << " bytes: its copy must move those and its barrier expect those (a barrier that "
                                    "expects more bytes than arrive never completes its phase)");
  std::ostringstream got, expected;
  bool parities_right = true;
  for (std::int64_t k = 0; k < 6; ++k) {
    const std::uint32_t want = static_cast<std::uint32_t>((k / exercise12b::kStages) % 2);
    got << ' ' << exercise12b::phase_parity(k);
    expected << ' ' << want;
    parities_right = parities_right && exercise12b::phase_parity(k) == want;
  }
  CHECK_MESSAGE(parities_right, "phase_parity(k) for k = 0..5 gives"
                                    << got.str() << "; expected" << expected.str()
                                    << ": tile k is the (k / 2)-th use of barrier k % 2 "
                                       "(counting from 0), that use completes the "
                                       "barrier's phase k / 2, and phases alternate "
                                       "parity 0, 1, 0, ...");
}

TEST_CASE("exercise 12b: each tile arrives by one bulk copy on a barrier that expects its bytes") {
  exit_77_below_9_0();
  const lab::DeviceInfo device = lab::query_device(0);
  const int blocks = std::min(device.sm_count, 128);  // 513 tiles: at least 4 a block, each barrier used twice
  const std::vector<float> input = lab::random_floats(static_cast<std::size_t>(kFloats), 1212);
  lab::DeviceBuffer<float> in(static_cast<std::size_t>(kFloats)), out(static_cast<std::size_t>(kFloats));
  lab::DeviceBuffer<unsigned int> gave_up(1);
  in.upload(input);
  lab::Stream stream;
  out.poison(stream);
  LAB_CHECK(cudaMemsetAsync(gave_up.data(), 0, gave_up.bytes(), stream));
  exercise12b::launch_tma_copy(in.data(), out.data(), kFloats, kTile, kWork, blocks, stream, gave_up.data());
  stream.synchronize();

  const unsigned int stuck = gave_up.download()[0];
  CHECK_MESSAGE(stuck == 0, stuck << " of " << blocks << " blocks gave up waiting for a barrier phase (1 s each): a "
                                  << "phase completes when thread 0 has arrived and every byte the barrier expects "
                                     "has landed, so a barrier told to expect more bytes than its copy moves never "
                                     "completes (tile_bytes, the short last tile), and a wait that names the wrong "
                                     "parity (phase_parity) can wait for a phase that has not begun");
  const lab::Comparison c = lab::compare(out.download(), ch12::reference(input, kTile, kWork));
  CHECK_MESSAGE(c.passed(), "the output is not the CPU's (" << c.detail()
                                                            << "); NaN is the poison: in the buffers, for a tile "
                                                               "never copied or read before its copy landed (does "
                                                               "thread 0 issue cuda::device::memcpy_async_tx into "
                                                               "buffer, from source?), or in the output, for a tile "
                                                               "never computed (a block that gave up)");
}

TEST_CASE("cpu: exercise 12b: each copy moves its tile's bytes, not a whole tile (read from your source)") {
  // Run on the CPU when the check was built (exercises/source_rules.cmake): no GPU needed for this part.
  MESSAGE("source rules: " << lab_source_rules_read << " read, on the CPU, from" << std::string(lab_source_files_read));
  for (const char* const* finding = lab_source_findings; *finding != nullptr; ++finding)
    FAIL_CHECK(std::string(*finding));
}
