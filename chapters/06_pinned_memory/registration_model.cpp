#include "registration_model.hpp"

#include <cmath>

namespace ch06 {

double pageable_total_ms(const RegistrationCosts& costs, int copies) { return copies * costs.pageable_copy_ms; }

double registered_total_ms(const RegistrationCosts& costs, int copies) {
  return costs.registration_ms + copies * costs.pinned_copy_ms;
}

int copies_to_break_even(const RegistrationCosts& costs) {
  const double saved_per_copy = costs.pageable_copy_ms - costs.pinned_copy_ms;
  if (!(saved_per_copy > 0)) return 0;
  // registration_ms + n x pinned < n x pageable  <=>  n > registration_ms / saved_per_copy
  const int n = static_cast<int>(std::floor(costs.registration_ms / saved_per_copy)) + 1;
  return n < 1 ? 1 : n;
}

}  // namespace ch06
