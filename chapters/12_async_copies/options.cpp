#include "options.hpp"

#include <algorithm>
#include <string>

#include "command_line.hpp"

namespace ch12 {

void add_options(lab::Options& table, Options& o) {
  table.add("mib", &o.mib, 0, std::int64_t{1} << 20, "MiB per buffer, input and output (0: 8 x the L2)")
      .add("reps", &o.reps, 1, 10000, "timed samples per configuration")
      .add("work", &o.work, 0, 4096, "FMAs per element (sections 1, 3, 4 and the stage sweep)")
      .add("max-work", &o.max_work, 0, 4096, "the work sweep runs 0, 1, 4, 16, ... FMAs per element up to this")
      .add("tile-kib", &o.tile_kib, 1, 64, "KiB per tile when many blocks share an SM")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed")
      .add_flag("no-pipeline", &o.no_pipeline,
                "leave out the cuda::pipeline versions (for compute-sanitizer's synccheck: see the page)");
}

std::int64_t buffer_floats(const Options& o, std::size_t l2_bytes) {
  const double bytes = o.mib > 0 ? static_cast<double>(o.mib) * 1024.0 * 1024.0
                                 : static_cast<double>(kL2Multiple) * static_cast<double>(l2_bytes);
  const auto floats = static_cast<std::int64_t>(bytes / sizeof(float));
  return std::max<std::int64_t>(1024, floats / 1024 * 1024);
}

int small_tile_floats(const Options& o) { return static_cast<int>(o.tile_kib * 1024 / sizeof(float)); }

std::vector<int> work_values(const Options& o) {
  std::vector<int> values{0};
  for (std::int64_t w = 1; w <= o.max_work; w *= 4) values.push_back(static_cast<int>(w));
  return values;
}

lab::MemoryNeed memory_need(const Options& o, std::size_t l2_bytes) {
  const double floats = static_cast<double>(buffer_floats(o, l2_bytes));
  const double device = 2.0 * floats * sizeof(float);
  return {device, "input and output: 2 x the buffer", floats * sizeof(float), "the input, for the CPU's check windows",
          o.mib > 0 ? "--mib " + std::to_string(o.mib) : std::string("--mib 0 (8 x the L2)")};
}

}  // namespace ch12
