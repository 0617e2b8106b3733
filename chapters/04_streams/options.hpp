/// @file options.hpp
/// @brief Chapter 04's command-line options, the rule a range cannot say, and
/// the memory a run needs (pure, CPU-tested in tests/ch04_checks_test.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch04 {

/// Chapter 04's settings; the initial values are the defaults.
struct Options {
  std::int64_t n = 10'000'000;                  ///< floats per array: the tutorial's 10 million
  std::int64_t arrays = 10;                     ///< independent arrays
  std::int64_t streams = 10;                    ///< streams of the many-streams case
  std::int64_t reps = 5;                        ///< runs of each case; the median is reported
  double spin_ms = 10.0;                        ///< each kernel of the default-stream experiment
  double race_delay_ms = 5.0;                   ///< how long the slow producer holds its stream
  std::int64_t race_n = std::int64_t{1} << 20;  ///< floats the producer writes
  std::int64_t race_reps = 20;                  ///< runs of the race and of its fix
  double queued_ms = 20.0;                      ///< GPU work queued before the allocation calls
  std::int64_t pool_mib = 256;                  ///< the block of the release-threshold experiment
  std::int64_t seed = 1;                        ///< random input seed
};

/// Adds chapter 04's options and streams_rule() to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// "" when every stream of the many-streams case gets an array, else the message for lab::UsageError.
std::string streams_rule(const Options& o);

/// Device: one copy of every array, the pool's block and the race's three
/// buffers. Host: per array the pinned input and output, the CPU reference and
/// the random values; the race's input, answer and download.
lab::MemoryNeed memory_need(const Options& o);

}  // namespace ch04
