#include "overlap_model.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "statistics.hpp"

namespace ch05 {

namespace {

LinkAndKernel inputs(const LinkRun& link, const std::string& kernel, double (*statistic)(const std::vector<double>&)) {
  const std::vector<double>& kernel_ms = kernel == "heavy" ? link.heavy_ms : link.light_ms;
  return {statistic(link.h2d_ms), statistic(link.d2h_ms), statistic(link.both_ms), statistic(kernel_ms),
          link.copy_engines};
}

}  // namespace

double fastest_of(const std::vector<double>& samples) {
  return samples.empty() ? std::numeric_limits<double>::quiet_NaN() : *std::min_element(samples.begin(), samples.end());
}

LinkAndKernel typical_inputs(const LinkRun& link, const std::string& kernel) {
  return inputs(link, kernel, lab::median_or_nan);
}
LinkAndKernel best_inputs(const LinkRun& link, const std::string& kernel) { return inputs(link, kernel, fastest_of); }

double overlap_bound_ms(const LinkAndKernel& m) {
  const double copies = m.copy_engines < 2 ? m.h2d_ms + m.d2h_ms : std::max({m.h2d_ms, m.d2h_ms, m.both_ms});
  return std::max(copies, m.kernel_ms);
}

double pipelined_ms(const LinkAndKernel& m, int chunks) {
  if (chunks < 1) throw std::invalid_argument("pipelined_ms: chunks must be at least 1");
  const double n = chunks;
  const double h = m.h2d_ms / n, k = m.kernel_ms / n, d = m.d2h_ms / n, b = m.both_ms / n;
  const double pace = m.copy_engines < 2 ? std::max(h + d, k) : std::max({h, k, d, b});
  return h + k + d + (n - 1) * pace;
}

int depth_first_kernel_lengths(int streams, int connections) {
  if (streams < 1 || connections < 1) {
    throw std::invalid_argument("depth_first_kernel_lengths: streams and connections must be at least 1");
  }
  return (streams + connections - 1) / connections + 1;
}

}  // namespace ch05
