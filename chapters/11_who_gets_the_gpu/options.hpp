/// @file options.hpp
/// @brief Chapter 11's command-line options, their memory need, and the
/// settings main passes on to the lesson.
#pragma once

#include <cstdint>
#include <string>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch11 {

/// Chapter 11's settings; the initial values are the defaults.
struct Options {
  std::int64_t n = std::int64_t{1} << 20;  ///< floats of the small kernel the block recorder times (section 1)
  double long_block_us = 200.0;            ///< how long each block of the long, low-priority kernel runs
  std::int64_t long_waves = 4;             ///< the long kernel's blocks, in waves of resident blocks
  double urgent_block_us = 5.0;            ///< how long each block of the urgent kernel runs
  std::int64_t green_sms = 16;             ///< SMs of the small green context (section 3)
  std::int64_t chain_kernels = 20;         ///< kernels of the chain with host functions between (section 4)
  double kernel_us = 20.0;                 ///< each chain kernel's length (section 4)
  std::int64_t reps = 10;                  ///< samples per measurement
  std::int64_t seed = 1;                   ///< random input seed
  std::string block_trace;                 ///< sections 1 and 2's block timelines as a Chrome trace here ("": none)
};

/// Adds chapter 11's options to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// Device and host memory of the largest section (section 1's three vectors).
lab::MemoryNeed memory_need(const Options& o);

}  // namespace ch11
