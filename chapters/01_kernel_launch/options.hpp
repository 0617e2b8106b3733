/// @file options.hpp
/// @brief Chapter 01's options: their defaults, their rules, and the memory
/// and block size a run needs (pure functions, tested on the CPU).
#pragma once

#include <cstdint>
#include <string>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch01 {

/// The default --n, 64Mi floats per vector (768 MiB for a, b and c): the size of the page's benchmark.
inline constexpr std::int64_t kDefaultN = std::int64_t{64} << 20;

/// Chapter 01's settings; the initial values are the defaults.
struct Options {
  std::int64_t n = kDefaultN;  ///< floats per vector
  std::int64_t block = 256;    ///< threads per block
  std::int64_t reps = 20;      ///< timed samples per variant
  std::int64_t seed = 1;       ///< random input seed
};

/// Adds chapter 01's options to @p table, bound to @p o (which must outlive
/// the table), with check_block_size() as a rule.
void add_options(lab::Options& table, Options& o);

/// "" when @p block is a whole number of 32-thread warps, otherwise the message for the user.
std::string check_block_size(std::int64_t block);

/// "" when --block fits the GPU's @p max_threads_per_block, otherwise the message for the user.
std::string check_block_fits(const Options& o, int max_threads_per_block);
/// Throws lab::UsageError (exit 2) with check_block_fits()'s message when the block does not fit.
void require_block_fits(const Options& o, int max_threads_per_block);

/// What a run allocates: a, b and c on the device; a, b, the CPU reference and
/// one result copied back on the host.
lab::MemoryNeed memory_need(const Options& o);

}  // namespace ch01
