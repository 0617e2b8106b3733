/// @file options.hpp
/// @brief Chapter 02's options, their defaults, the size of section 1's kernel and the memory a run
/// needs (pure, tested on the CPU in tests/ch02_checks_test.cpp).
#pragma once

#include <cstdint>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch02 {

/// Chapter 02's settings; the initial values are the defaults.
struct Options {
  std::int64_t n = 0;            ///< floats per vector of section 1's c = a + b; 0: timed_add_n() sizes it
  std::int64_t runs = 10;        ///< host-timer readings per case (the article's count)
  std::int64_t warmup = 10;      ///< warm-up launches left in flight (the article's count)
  double backlog_ms = 2.0;       ///< spin kernel queued before the warm-up
  double long_kernel_ms = 10.0;  ///< section 2's kernel, and section 4's GPU work
  double queued_ms = 20.0;       ///< GPU work queued before each call of section 3
  double cpu_ms = 10.0;          ///< section 4's CPU work
  std::int64_t seed = 1;         ///< random input seed
};

/// Section 1's kernel with `--n 0`: c = a + b sized to take about this long at the GPU's nominal
/// memory rate, about twenty launch calls, so that a timer holding the kernel and one holding only
/// the launch call read apart on any GPU.
inline constexpr double kTimedAddUs = 100.0;
/// Sections 3 and 4's c = a + b: 1Mi floats (4 MiB), whose copy to the host takes a small part of
/// the work queued before it.
inline constexpr std::int64_t kReadN = std::int64_t{1} << 20;

/// Adds chapter 02's options to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// The GPU's nominal memory rate in bytes per second: two transfers per memory clock times the bus
/// width in bytes (cudaDevAttrMemoryClockRate, cudaDevAttrGlobalMemoryBusWidth); 0 when either is 0.
double nominal_memory_bytes_per_second(double memory_clock_mhz, int bus_bits);

/// Section 1's n: --n, or with --n 0 the n whose 12 bytes per element (a and b read, c written) take
/// kTimedAddUs at @p bytes_per_second, in whole Mi floats (at least 1Mi; 1Mi when the rate is 0).
std::int64_t timed_add_n(const Options& o, double bytes_per_second);

/// What a run allocates at most: section 1's a, b and c (@p timed_n floats each) on the device and
/// a, b and the CPU's c on the host; then sections 3 and 4's (kReadN): a, b, c and section 3's copy
/// of c on the device, a, the CPU's c and section 3's three host copies of c on the host.
lab::MemoryNeed memory_need(const Options& o, std::int64_t timed_n);

}  // namespace ch02
