/// @file options.hpp
/// @brief Chapter 12's command-line options, their memory need, and the sizes
/// derived from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch12 {

/// Chapter 12's settings; the initial values are the defaults.
struct Options {
  std::int64_t mib = 0;         ///< MiB per buffer (input and output); 0: 8 x the device's L2
  std::int64_t reps = 10;       ///< timed samples per configuration
  std::int64_t work = 4;        ///< FMAs per element in sections 1, 3 and 4 and the stage sweep
  std::int64_t max_work = 256;  ///< the work sweep runs 0, 1, 4, 16, 64, ... up to this
  std::int64_t tile_kib = 8;    ///< the small tiles of the many-blocks-per-SM configurations
  std::int64_t seed = 1;        ///< random input seed
  bool no_pipeline = false;     ///< leave the cuda::pipeline versions out (compute-sanitizer's synccheck)
};

/// Adds chapter 12's options to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// The working set needs at least this many times the L2 for the benchmark to count.
inline constexpr int kL2Multiple = 8;

/// Floats per buffer: --mib MiB, or kL2Multiple x @p l2_bytes when --mib is 0; a multiple of 1024.
std::int64_t buffer_floats(const Options& o, std::size_t l2_bytes);

/// Floats per tile where several blocks share an SM: --tile-kib KiB.
int small_tile_floats(const Options& o);

/// Floats of the second, smaller bench of section 1, whose output is checked
/// whole: 1 Mi floats and 1004 more, so that tiles of every size end in a short one.
inline constexpr std::int64_t kSmallCheckFloats = (std::int64_t{1} << 20) + 1004;

/// The work values of the work sweep: 0, 1, 4, 16, ... (x 4) up to --max-work.
std::vector<int> work_values(const Options& o);

/// Device and host memory: an input and an output buffer on the device, the
/// input on the host (the check windows are small).
lab::MemoryNeed memory_need(const Options& o, std::size_t l2_bytes);

}  // namespace ch12
