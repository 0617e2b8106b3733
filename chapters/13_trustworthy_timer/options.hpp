/// @file options.hpp
/// @brief Chapter 13's command-line options and the memory a run needs (pure,
/// CPU-tested in tests/ch13_checks_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch13 {

/// The gallery's sizes and lengths.
struct GallerySizes {
  /// Floats per array of the short kernels: 512Ki, 6 MiB moved, a few
  /// microseconds on an HBM GPU (chapter 03's 1Mi-float add: 3.07 us by CUPTI on the H200).
  std::int64_t n = std::int64_t{512} << 10;
  std::int64_t n_large = std::int64_t{8} << 20;  ///< floats per array of the late copy (its copy: 32 MiB)
  double long_ms = 1.0;                          ///< the long kernels' length
  double cpu_ms = 2.0;                           ///< CPU work inside the CPU-bound call
};

/// Chapter 13's settings; the initial values are the defaults.
struct Options {
  GallerySizes sizes;           ///< the workloads
  std::int64_t samples = 20;    ///< calls per workload and timer
  std::int64_t sequence = 100;  ///< K, the calls of a sequence (section 3)
  std::int64_t seed = 1;        ///< input seed
};

/// Adds chapter 13's options to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// The workloads at the gallery's sizes. Device: a, b and c of every workload
/// (nine at --n, one at --n-large), the late copy's scratch (--n-large), the
/// cache (--n) and the L2 flush buffer (twice @p l2_bytes). Host: the CPU's
/// answer of every workload and one output read back.
lab::MemoryNeed memory_need(const Options& o, std::size_t l2_bytes);

}  // namespace ch13
