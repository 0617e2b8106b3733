#include "graph_options.hpp"

namespace ch08 {

void add_graph_options(lab::Options& table, GraphOptions& o) {
  table.add("n", &o.n, 1, std::int64_t{1} << 24, "floats per vector of the small kernel (sections 3 and 4)")
      .add("reps", &o.reps, 1, 10000, "samples per measurement")
      .add("queue-launches", &o.queue_launches, 16, 65536, "the most launches queued into a held stream (section 2)")
      .add("kernel-us", &o.kernel_us, 1.0, 1000.0, "length of each spin kernel on the free stream, in us (section 2)")
      .add("max-kernels", &o.max_kernels, 1, 10000, "the largest graph, in kernels (section 3)")
      .add("graph-kernels", &o.graph_kernels, 1, 10000, "launches unrolled in the timed graph (section 4)")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed");
}

std::vector<int> kernel_counts(std::int64_t max_kernels) {
  std::vector<int> counts;
  for (std::int64_t k = 1; k < max_kernels; k *= 10) counts.push_back(static_cast<int>(k));
  counts.push_back(static_cast<int>(max_kernels));
  return counts;
}

}  // namespace ch08
