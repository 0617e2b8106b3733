#include "overlap_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace ch05 {

std::string too_many_chunks(const std::string& option, std::int64_t chunks, std::int64_t mib) {
  const std::int64_t floats = mib * (std::int64_t{1} << 20) / 4;
  if (chunks >= 1 && floats / chunks >= kMinChunkFloats) return "";
  return option + " " + std::to_string(chunks) + " is too many chunks for --mib " + std::to_string(mib) +
         ": each chunk would hold fewer than " + std::to_string(kMinChunkFloats) + " floats (4 KiB)";
}

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

int depth_first_kernel_lengths(int streams, int connections) {
  if (streams < 1 || connections < 1) {
    throw std::invalid_argument("depth_first_kernel_lengths: streams and connections must be at least 1");
  }
  return (streams + connections - 1) / connections + 1;
}

}  // namespace ch05
