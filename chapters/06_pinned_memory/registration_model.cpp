#include "registration_model.hpp"

#include <algorithm>
#include <cmath>

#include "statistics.hpp"

namespace ch06 {

int copies_to_break_even(const RegistrationCosts& costs) {
  const double saved_per_copy = costs.pageable_copy_ms - costs.pinned_copy_ms;
  if (!(saved_per_copy > 0)) return 0;
  // registration_ms + n x pinned < n x pageable  <=>  n > registration_ms / saved_per_copy
  const int n = static_cast<int>(std::floor(costs.registration_ms / saved_per_copy)) + 1;
  return n < 1 ? 1 : n;
}

double pcie_gigabytes_per_second(int generation, int lanes) {
  // GT/s per lane of Gen 1..5. Gen 1-2 send 10 bits per byte (8b/10b), Gen 3-5
  // 130 bits per 128 (128b/130b); Gen 6 is not handled.
  constexpr double kGigatransfers[] = {2.5, 5.0, 8.0, 16.0, 32.0};
  if (generation < 1 || generation > 5) return 0.0;
  const double efficiency = generation <= 2 ? 0.8 : 128.0 / 130.0;
  // In one millisecond each lane carries GT/s x 10^6 transfers of one bit, `efficiency` of them data.
  const double bytes_per_ms = kGigatransfers[generation - 1] * 1e6 * efficiency / 8.0 * lanes;
  return lab::gigabytes_per_second(bytes_per_ms, 1.0);
}

std::int64_t rescaled_cpu_steps(std::int64_t steps, double took_ms, double target_ms) {
  if (!(took_ms > 0)) return steps;
  return std::max<std::int64_t>(1, std::llround(static_cast<double>(steps) * (target_ms / took_ms)));
}

}  // namespace ch06
