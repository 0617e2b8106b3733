#include "cpu_work.hpp"

#include <chrono>
#include <cmath>

namespace lab {

std::uint64_t cpu_work_slice() {
  // Dependent multiply-adds: real work for the core that the compiler cannot
  // fold away, because the result is stored where it cannot see the reader.
  static volatile double sink = 1.0;
  double x = sink;
  constexpr int kIterations = 4096;
  for (int i = 0; i < kIterations; ++i) x = std::fma(x, 1.0000001, 1e-9);
  sink = x;
  return kIterations;
}

std::uint64_t do_cpu_work(double ms) {
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t iterations = 0;
  // The clock is read between slices, every few microseconds.
  while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < ms) {
    iterations += cpu_work_slice();
  }
  return iterations;
}

}  // namespace lab
