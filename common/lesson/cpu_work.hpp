/// @file cpu_work.hpp
/// @brief Real work for one CPU core, that the compiler cannot fold away, in
/// slices short enough to poll an event between them (chapters 02, 03).
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>

namespace lab {

/// One slice of CPU work: 4096 dependent multiply-adds (a few microseconds on
/// one core). Returns the iterations done.
inline std::uint64_t cpu_work_slice() {
  // The result is stored where the compiler cannot see the reader, so the work stays.
  static volatile double sink = 1.0;
  double x = sink;
  constexpr int kIterations = 4096;
  for (int i = 0; i < kIterations; ++i) x = std::fma(x, 1.0000001, 1e-9);
  sink = x;
  return kIterations;
}

/// Keeps one core busy with slices for about @p ms of host time; returns the
/// iterations done.
inline std::uint64_t do_cpu_work(double ms) {
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t iterations = 0;
  while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < ms) {
    iterations += cpu_work_slice();
  }
  return iterations;
}

}  // namespace lab
