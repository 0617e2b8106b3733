/// @file options.hpp
/// @brief Chapter 06's command-line options, their rule, and the memory they
/// need: plain C++, CPU-tested in tests/ch06_model_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch06 {

/// Chapter 06's settings; the initial values are the defaults.
struct Options {
  std::int64_t max_mib = 1024;  ///< the sweep's largest size: 4 KiB, 16 KiB, ... up to this
  std::int64_t mib = 256;       ///< the size of every other experiment (the PyTorch articles': 256 MiB)
  std::int64_t reps = 10;       ///< samples per measurement; the median is reported
  std::int64_t seed = 1;        ///< seed of the random bytes copied
};

/// Declares the options in @p table, bound to @p o (which must outlive it),
/// and the rule that --mib must not exceed --max-mib.
void add_options(lab::Options& table, Options& o);

/// The sweep's largest size in bytes (--max-mib).
std::size_t sweep_bytes(const Options& o);
/// The size of the other experiments in bytes (--mib).
std::size_t experiment_bytes(const Options& o);

/// What a run allocates at its peak. The sections run one after the other and
/// free their buffers: the sweep holds the most device memory (two arrays of
/// --max-mib) and four host buffers of --max-mib; section 3b's upload holds
/// about five host buffers of --mib.
lab::MemoryNeed memory_need(const Options& o);

}  // namespace ch06
