/// @file options.hpp
/// @brief Chapter 10's command-line options, their memory need, and the
/// settings main passes on to the lesson.
#pragma once

#include <cstdint>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch10 {

/// Chapter 10's settings; the initial values are the defaults.
struct Options {
  std::int64_t n =
      std::int64_t{1} << 16;   ///< floats per buffer of the dependent chain (sections 1, 2, 4): a kernel of about 2 us
  std::int64_t kernels = 100;  ///< kernels in the dependent chain (sections 1 and 2)
  double preamble_us = 0.5;    ///< each chain kernel's work before it waits for its predecessor, in us
  std::int64_t reps = 20;      ///< samples per measurement
  std::int64_t jacobi_n = 4096;         ///< unknowns of section 3's Jacobi solve
  double tolerance = 1e-5;              ///< section 3 stops when no unknown moved more than this in a sweep
  std::int64_t max_iterations = 10000;  ///< section 3 stops here at the latest
  std::int64_t queue_launches = 16384;  ///< the most launches section 6 queues into a held stream
  std::int64_t seed = 1;                ///< random input seed
};

/// Adds chapter 10's options to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// Device and host memory of the largest section (the chain's two ping-pong
/// buffers and its addend, or section 3's three vectors, whichever is larger).
lab::MemoryNeed memory_need(const Options& o);

}  // namespace ch10
