#include "timer_step.hpp"

#include <algorithm>

#include "vocabulary.hpp"

namespace ch08 {

double observed_step(const std::vector<double>& us) { return lab::smallest_step(us, 1e-4); }

std::string cupti_spread(const std::vector<double>& cupti_us) {
  const double step = observed_step(cupti_us);
  return lab::format("mean %.2f us, ", lab::summarize(cupti_us).mean) +
         (step > 0 ? lab::format("in steps of at most %.3f us", step) : std::string("every one equal"));
}

}  // namespace ch08
