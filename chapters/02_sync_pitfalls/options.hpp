/// @file options.hpp
/// @brief Chapter 02's options, their defaults, and the memory a run needs
/// (pure, tested on the CPU in tests/ch02_findings_test.cpp).
#pragma once

#include <cstdint>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch02 {

/// Chapter 02's settings; the initial values are the defaults.
struct Options {
  std::int64_t n = std::int64_t{1} << 20;  ///< floats per vector: a ~5 us kernel on an H100
  std::int64_t runs = 10;                  ///< host-timer readings per case (the article's count)
  std::int64_t warmup = 10;                ///< warm-up launches left in flight (the article's count)
  double backlog_ms = 2.0;                 ///< spin kernel queued before the warm-up
  double long_kernel_ms = 10.0;            ///< section 2's kernel, and section 4's GPU work
  double queued_ms = 20.0;                 ///< GPU work queued before each call of section 3
  double cpu_ms = 10.0;                    ///< section 4's CPU work
  std::int64_t seed = 1;                   ///< random input seed
};

/// Adds chapter 02's options to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// What a run allocates at most: a, b and c and section 3's copy of c on the
/// device; a, the CPU's c and section 3's three host copies of c on the host.
lab::MemoryNeed memory_need(const Options& o);

}  // namespace ch02
