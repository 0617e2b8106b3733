#include "overlap_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace ch05 {

double sequential_ms(const LinkAndKernel& m) { return m.h2d_ms + m.kernel_ms + m.d2h_ms; }

double transfer_bound_ms(const LinkAndKernel& m) {
  if (m.copy_engines < 2) return m.h2d_ms + m.d2h_ms;
  return std::max({m.h2d_ms, m.d2h_ms, m.both_ms});
}

double overlap_bound_ms(const LinkAndKernel& m) { return std::max(transfer_bound_ms(m), m.kernel_ms); }

double pipelined_ms(const LinkAndKernel& m, int chunks) {
  if (chunks < 1) throw std::invalid_argument("pipelined_ms: chunks must be at least 1");
  const double n = chunks;
  const double h = m.h2d_ms / n, k = m.kernel_ms / n, d = m.d2h_ms / n, b = m.both_ms / n;
  const double pace = m.copy_engines < 2 ? std::max(h + d, k) : std::max({h, k, d, b});
  return h + k + d + (n - 1) * pace;
}

}  // namespace ch05
