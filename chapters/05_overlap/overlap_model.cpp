#include "overlap_model.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "statistics.hpp"

namespace ch05 {

namespace {

const std::vector<double>& kernel_samples(const LinkRun& link, const std::string& kernel) {
  return kernel == "heavy" ? link.heavy_ms : link.light_ms;
}

LinkAndKernel inputs(const LinkRun& link, const std::string& kernel, double (*statistic)(const std::vector<double>&)) {
  return {link.bytes,
          statistic(link.h2d_ms),
          statistic(link.d2h_ms),
          statistic(link.both_ms),
          statistic(kernel_samples(link, kernel)),
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

const char* schedule_name(Schedule schedule) {
  switch (schedule) {
    case Schedule::sequential: return "sequential";
    case Schedule::v1_per_chunk: return "V1";
    case Schedule::v2_per_stage: return "V2";
  }
  return "?";
}

Chunk chunk_of(std::size_t n, int chunks, int i) {
  if (chunks < 1 || i < 0 || i >= chunks) throw std::invalid_argument("chunk_of: chunk i of 0..chunks-1, chunks >= 1");
  const std::size_t size = (n + static_cast<std::size_t>(chunks) - 1) / static_cast<std::size_t>(chunks);
  const std::size_t offset = std::min(n, static_cast<std::size_t>(i) * size);
  return {offset, std::min(n, offset + size) - offset};
}

double sequential_ms(const LinkAndKernel& m) { return m.h2d_ms + m.kernel_ms + m.d2h_ms; }

double transfer_bound_ms(const LinkAndKernel& m) {
  if (m.copy_engines < 2) return m.h2d_ms + m.d2h_ms;
  return std::max({m.h2d_ms, m.d2h_ms, m.both_ms});
}

double overlap_bound_ms(const LinkAndKernel& m) { return std::max(transfer_bound_ms(m), m.kernel_ms); }

std::string bound_term(const LinkAndKernel& m) {
  const double bound = overlap_bound_ms(m);
  if (m.kernel_ms >= bound) return "kernel";
  if (m.copy_engines < 2) return "one_engine";
  if (m.both_ms >= bound) return "both_directions";
  return m.h2d_ms >= bound ? "copy_in" : "copy_out";
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
