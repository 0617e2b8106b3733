#include "options.hpp"

#include <algorithm>

#include "command_line.hpp"

namespace ch08 {

void add_options(lab::Options& table, Options& o) {
  table.add("n", &o.n, 1, std::int64_t{1} << 24, "floats per vector of the small kernel (sections 3 and 4)")
      .add("reps", &o.reps, 1, 10000, "samples per measurement")
      .add("queue-launches", &o.queue_launches, 16, 65536, "the most launches queued into a held stream (section 2)")
      .add("kernel-us", &o.kernel_us, 1.0, 1000.0, "length of each spin kernel on the free stream, in us (section 2)")
      .add("max-kernels", &o.max_kernels, 1, 10000, "the largest graph, in kernels (section 3)")
      .add("graph-kernels", &o.graph_kernels, 1, 10000, "launches unrolled in the timed graph (section 4)")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed");
}

lab::MemoryNeed memory_need(const Options& o) {
  const double floats = static_cast<double>(o.n) * sizeof(float);
  // Section 3 holds two chains (a, b, c each) on the device; on the host their a
  // and b, two expected results, and the c downloaded to check.
  return {6 * floats, "a, b and c of two chains of additions: 6 x n floats", 7 * floats,
          "a and b of both chains, two expected results, one download: 7 x n floats", "--n " + lab::format_count(o.n)};
}

int launch_cost_samples(const Options& o) { return static_cast<int>(std::max<std::int64_t>(o.reps, 100)); }

std::vector<int> kernel_counts(std::int64_t max_kernels) {
  std::vector<int> counts;
  for (std::int64_t k = 1; k < max_kernels; k *= 10) counts.push_back(static_cast<int>(k));
  counts.push_back(static_cast<int>(max_kernels));
  return counts;
}

}  // namespace ch08
