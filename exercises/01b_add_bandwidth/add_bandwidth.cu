// Exercise 01b: report the bandwidth of the add kernel, measured right.
//
// Chapter 01's table gives each variant of c = a + b a bandwidth in GB/s: the
// bytes the kernel moves over the median of 20 samples taken after 3 warm-up
// runs. The function below makes two classic mistakes: it times one run, the
// very first (which also pays for loading the kernel), and it counts only the
// bytes of one array. Fix both.
//
// Check your work:  scripts/progress ch01b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch01b_')
// Stuck? Read HINTS.md beside this file.
#include "add_bandwidth.cuh"
#include "measure.cuh"
#include "statistics.hpp"
#include "stream.cuh"

namespace exercise01b {

double add_bandwidth_gbps(const std::function<void(cudaStream_t)>& add, std::int64_t n, cudaStream_t stream) {
  // TODO: this times one run, the first; warm up first, then keep the median of many samples
  //       (common/lesson/measure.cuh and common/lesson/statistics.hpp, included above, have what you need).
  lab::Event start, stop;
  LAB_CHECK(cudaEventRecord(start, stream));
  add(stream);
  LAB_CHECK(cudaEventRecord(stop, stream));
  LAB_CHECK(cudaEventSynchronize(stop));
  const double ms = lab::Event::elapsed_ms(start, stop);
  // TODO: count every byte the kernel moves, not only c's.
  const double bytes = static_cast<double>(n) * sizeof(float);
  return lab::gigabytes_per_second(bytes, ms);
}

}  // namespace exercise01b
