#include "options.hpp"

#include <algorithm>
#include <string>

#include "command_line.hpp"

namespace ch07 {

void add_options(lab::Options& table, Options& o) {
  table.add("small-mib", &o.small_mib, 0, std::int64_t{1} << 20, "working set that fits in L2, in MiB (0: half the L2)")
      .add("large-factor", &o.large_factor, 2, 64, "the large working set, in multiples of the L2 size")
      .add("samples", &o.samples, 3, 100000, "samples per cache case (section 1)")
      .add("spin-ms", &o.spin_ms, 0.001, 100.0, "how long the spin kernel before a sample keeps the GPU busy")
      .add("probes", &o.probes, 2, 1000, "in-kernel clock probes at idle, 2 ms each (section 2)")
      .add("load-ms", &o.load_ms, 1.0, 60000.0, "length of the heavy load (section 2)")
      .add("stat-samples", &o.stat_samples, 10, 1000000, "samples of the clocked kernel (section 3)")
      .add("load-steps", &o.load_steps, 1, 100000000, "FMAs per thread of the clocked kernel (section 3)")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed");
}

std::size_t small_working_set_bytes(const Options& o, std::size_t l2_bytes) {
  return o.small_mib > 0 ? static_cast<std::size_t>(o.small_mib) << 20 : l2_bytes / 2;
}

std::size_t large_working_set_bytes(const Options& o, std::size_t l2_bytes) {
  return static_cast<std::size_t>(o.large_factor) * l2_bytes;
}

lab::MemoryNeed memory_need(const Options& o, std::size_t l2_bytes) {
  const double larger =
      static_cast<double>(std::max(small_working_set_bytes(o, l2_bytes), large_working_set_bytes(o, l2_bytes)));
  const double l2 = static_cast<double>(l2_bytes);
  lab::MemoryNeed need;
  need.device_bytes = larger + 8 * l2;
  need.device_parts = "a working set, two flush buffers of 2 x L2, the load's copy of 2 x 2 x L2";
  need.host_bytes = larger + 2 * l2;
  need.host_parts = "x and the CPU's answer of a working set, the load's copy source";
  need.what = "--large-factor " + std::to_string(o.large_factor) + ", --small-mib " + std::to_string(o.small_mib);
  return need;
}

}  // namespace ch07
