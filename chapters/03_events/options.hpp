/// @file options.hpp
/// @brief Chapter 03's command-line options and the memory a run needs (pure,
/// CPU-tested in tests/ch03_checks_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch03 {

/// Chapter 03's settings; the initial values are the defaults.
struct Options {
  /// The small kernel: 1Mi floats, 12 MiB moved. Sized for HBM: CUPTI timed it at about 3 us on an H100 and
  /// an H200, shorter than the launch gap; with 300 GB/s of memory it takes about 40 us (README, section 6).
  std::int64_t n = std::int64_t{1} << 20;
  std::int64_t n_large = std::int64_t{32} << 20;   ///< the large kernel: 32 times as many floats
  std::int64_t reps = 20;                          ///< samples per measurement
  double kernel_ms = 20.0;                         ///< the long kernel of sections 1, 3 and 4
  std::int64_t streams = 4;                        ///< streams in section 7
  std::int64_t stream_n = std::int64_t{16} << 20;  ///< floats per vector in each of those streams
  std::int64_t seed = 1;                           ///< random input seed
};

/// Adds chapter 03's options to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// What a run allocates at once. Device: a, b and c of both kernel sizes and
/// of every stream, the copy's destination and the L2 flush buffer (twice
/// @p l2_bytes). Host: the inputs and the CPU's answers, and the pinned copy source.
lab::MemoryNeed memory_need(const Options& o, std::size_t l2_bytes);

}  // namespace ch03
