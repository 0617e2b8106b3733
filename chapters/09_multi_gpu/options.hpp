/// @file options.hpp
/// @brief Chapter 09's command-line options, their rule and their memory need
/// (plain C++, CPU-tested in tests/ch09_checks_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch09 {

/// Chapter 09's settings; the initial values are the defaults.
struct Options {
  std::int64_t devices = 0;                 ///< use the first N GPUs (0: all of them)
  std::int64_t mib = 256;                   ///< MiB per copy between GPUs (section 2)
  std::int64_t n = std::int64_t{32} << 20;  ///< floats through the pipeline (section 4)
  std::int64_t chunks = 8;                  ///< chunks the pipeline cuts the data into
  std::int64_t iterations = 2000;           ///< steps of the pipeline's kernel per element
  std::int64_t reps = 10;                   ///< timed samples of each measurement (after one warm-up)
  std::int64_t runs = 5;                    ///< producer/consumer runs of each kind (section 3)
  double producer_ms = 20;                  ///< how long the producer spins before it writes
  std::int64_t seed = 9;                    ///< random inputs
};

/// Adds chapter 09's options and their rule (--chunks at most --n) to @p table,
/// bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// Floats of the buffers of sections 1 (the probes) and 3 (producer and consumer).
constexpr std::int64_t kProbeFloats = std::int64_t{1} << 20;

/// Bytes per copy between GPUs (section 2): --mib.
std::size_t copy_bytes(const Options& o);

/// Memory per GPU and on the host of the largest section: section 2 holds three
/// copies of --mib on GPU 1 (and stages one through pinned host memory), section
/// 4 holds x and y of --n floats on each GPU (and x, y and the CPU's answer on the host).
lab::MemoryNeed memory_need(const Options& o);

}  // namespace ch09
