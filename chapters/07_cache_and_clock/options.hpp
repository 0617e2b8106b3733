/// @file options.hpp
/// @brief Chapter 07's command-line options, the working sets they choose and
/// the memory they need (plain C++, CPU-tested in tests/ch07_options_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch07 {

/// Chapter 07's settings; the initial values are the defaults.
struct Options {
  std::int64_t small_mib = 0;        ///< working set that fits in L2; 0: half the L2
  std::int64_t large_factor = 8;     ///< the large working set, in L2 sizes
  std::int64_t samples = 50;         ///< samples per cache case
  double spin_ms = 0.05;             ///< the spin kernel before a sample; on the H100 about as long as its
                                     ///< write flush of 2 x 50 MiB, on other GPUs shorter or longer than theirs
  std::int64_t probes = 10;          ///< in-kernel clock probes at idle (2 ms each)
  double load_ms = 3000;             ///< the heavy load of section 2
  std::int64_t stat_samples = 200;   ///< samples of section 3
  std::int64_t load_steps = 100000;  ///< FMAs per thread of section 3's kernel: about 0.55 ms on an H100
  std::int64_t seed = 1;             ///< random input seed
};

/// Declares chapter 07's options in @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// The small working set in bytes: --small-mib, or half of @p l2_bytes when it is 0.
std::size_t small_working_set_bytes(const Options& o, std::size_t l2_bytes);
/// The large working set in bytes: --large-factor x @p l2_bytes.
std::size_t large_working_set_bytes(const Options& o, std::size_t l2_bytes);

/// What a run needs on a GPU whose L2 holds @p l2_bytes. Device: the larger
/// working set, the two flush buffers (2 x L2 each) and the load's copy (2 x 2
/// x L2). Host: the inputs and the CPU's answers, the copy's source.
lab::MemoryNeed memory_need(const Options& o, std::size_t l2_bytes);

}  // namespace ch07
