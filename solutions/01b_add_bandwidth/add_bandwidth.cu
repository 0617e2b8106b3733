// Exercise 01b, solved: the median of 20 event-timed samples after 3 warm-up
// runs (lab::measure_ms), and the bytes of all three vectors.
#include "add_bandwidth.cuh"
#include "measure.cuh"
#include "statistics.hpp"

namespace exercise01b {

double add_bandwidth_gbps(const std::function<void(cudaStream_t)>& add, std::int64_t n, cudaStream_t stream) {
  const double ms = lab::median(lab::measure_ms(add, stream));        // 3 untimed warm-up runs, then 20 samples
  const double bytes = 3.0 * static_cast<double>(n) * sizeof(float);  // a and b read, c written
  return lab::gigabytes_per_second(bytes, ms);
}

}  // namespace exercise01b
