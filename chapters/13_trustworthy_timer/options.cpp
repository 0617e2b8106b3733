#include "options.hpp"

#include <string>

#include "command_line.hpp"

namespace ch13 {

void add_options(lab::Options& table, Options& o) {
  table.add("n", &o.sizes.n, 1, std::int64_t{1} << 30, "floats per array of the short kernels")
      .add("n-large", &o.sizes.n_large, 1, std::int64_t{1} << 40, "floats per array of the late copy")
      .add("long-ms", &o.sizes.long_ms, 0.05, 100.0, "length of the long kernels, in ms")
      .add("cpu-ms", &o.sizes.cpu_ms, 0.1, 100.0, "CPU work inside the CPU-bound call, in ms")
      .add("samples", &o.samples, 1, 1000, "calls per workload and timer")
      .add("sequence", &o.sequence, 2, 500, "K, the calls of a sequence (section 3)")
      .add("seed", &o.seed, 0, std::int64_t{1} << 40, "input seed");
}

lab::MemoryNeed memory_need(const Options& o, std::size_t l2_bytes) {
  const double floats = static_cast<double>(sizeof(float));
  const auto n = static_cast<double>(o.sizes.n);
  const auto n_large = static_cast<double>(o.sizes.n_large);
  lab::MemoryNeed need;
  need.device_bytes = floats * (9 * 3 * n + 3 * n_large + n_large + n) + 2.0 * static_cast<double>(l2_bytes);
  need.device_parts = "a, b and c of ten workloads, the late copy's scratch, the cache, the L2 flush buffer";
  need.host_bytes = floats * (9 * n + 2 * n_large);
  need.host_parts = "the CPU's answer of every workload, one output read back";
  need.what = "--n " + lab::format_count(o.sizes.n) + ", --n-large " + lab::format_count(o.sizes.n_large);
  return need;
}

}  // namespace ch13
