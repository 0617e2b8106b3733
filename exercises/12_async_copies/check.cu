// The check for exercise 12, built from this file against your two_stage.cu
// (test ch12_exercise_check, label "exercise"), against solutions/ (test
// ch12_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch12_pristine_check, label
// "pristine": it must fail). Random input, the output poisoned first, compared
// bit for bit with chapter 12's CPU reference; the stamps show whether the next
// tile's copy was issued before the current tile was computed.
//
// The stamps are written by your kernel, so a synchronous kernel can write
// them as a pipelined one would (a double buffer filled with plain loads
// passes the output and the stamps). The last test case reads your source
// instead (exercises/source_rules.cmake, on the CPU, when the check is built).
// clang-format off
// source rule: fail-unless memcpy_async *\(|cp\.async => your two_stage.cu never calls cuda::memcpy_async: the output and the stamps are yours to write, and a double buffer filled with plain loads gives both, yet the block still waits for its own loads before computing; issue tile k + 1's copy with cuda::memcpy_async into the pipeline (producer_acquire, producer_commit) before computing tile k
// source rule: fail-unless consumer_wait *\(|wait_prior|cp\.async\.wait => your two_stage.cu never waits for a copy through the pipeline: wait for tile k's copy with pipe.consumer_wait() (a __syncthreads() does not wait for cuda::memcpy_async)
// clang-format on
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "check.cuh"
#include "device.cuh"
#include "memory.cuh"
#include "source_findings.h"
#include "stream.cuh"
#include "two_stage.cuh"
#include "verify.hpp"

TEST_CASE("exercise 12: the next tile is copied while the current one is computed (a 2-stage cuda::pipeline)") {
  const lab::DeviceInfo device = lab::query_device(0);
  const std::int64_t n = (std::int64_t{1} << 22) + 1004;       // a short last tile
  const int tile = 8192, work = 16, blocks = device.sm_count;  // one block per SM, 32 KiB tiles
  const std::int64_t tiles = (n + tile - 1) / tile, per_block = (tiles + blocks - 1) / blocks;
  const std::vector<float> input = lab::random_floats(static_cast<std::size_t>(n), 12);
  lab::DeviceBuffer<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  lab::DeviceBuffer<ch12::StageStamps> stamps(static_cast<std::size_t>(blocks * per_block));
  in.upload(input);
  lab::Stream stream;
  out.poison(stream);
  LAB_CHECK(cudaMemsetAsync(stamps.data(), 0, stamps.bytes(), stream));
  exercise12::launch_staged(in.data(), out.data(), n, tile, work, blocks, per_block, stream, stamps.data());
  stream.synchronize();

  const lab::Comparison c = lab::compare(out.download(), ch12::reference(input, tile, work));
  CHECK_MESSAGE(c.passed(), "the output is not the CPU's (" << c.detail()
                                                            << "): does each tile's compute read the buffer its "
                                                               "copy went to (tile k % 2), and does the block wait "
                                                               "(consumer_wait) before reading it?");
  CHECK_MESSAGE(exercise12::staged_shared_bytes(tile) == 2 * tile * sizeof(float),
                "staged_shared_bytes(" << tile << ") is " << exercise12::staged_shared_bytes(tile)
                                       << " bytes; two stages need two tiles");

  // For consecutive tiles k, k + 1 of one block: was k + 1's copy issued before k was computed?
  const std::vector<ch12::StageStamps> s = stamps.download();
  int pairs = 0, ahead = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    for (std::int64_t k = 0; k + 1 < per_block; ++k) {
      const ch12::StageStamps& now = s[b * per_block + k];
      const ch12::StageStamps& next = s[b * per_block + k + 1];
      if (now.computed == 0 || next.computed == 0) continue;
      ++pairs;
      if (next.issued < now.computed) ++ahead;
    }
  }
  REQUIRE_MESSAGE(pairs > 0, "no block stamped two tiles: keep the stamps (issued, ready, computed) in place");
  CHECK_MESSAGE(ahead == pairs, ahead << " of " << pairs
                                      << " next tiles were issued before the current tile was computed; "
                                         "all must be: issue tile k + 1's copy (producer_acquire, "
                                         "cuda::memcpy_async, producer_commit) before computing tile k");
}

TEST_CASE("cpu: exercise 12: the copies are cuda::memcpy_async into the pipeline (read from your source)") {
  // Run on the CPU when the check was built (exercises/source_rules.cmake): no GPU needed for this part.
  MESSAGE("source rules: " << lab_source_rules_read << " read, on the CPU, from" << std::string(lab_source_files_read));
  for (const char* const* finding = lab_source_findings; *finding != nullptr; ++finding)
    FAIL_CHECK(std::string(*finding));
}
