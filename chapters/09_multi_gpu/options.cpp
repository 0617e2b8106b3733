#include "options.hpp"

#include <algorithm>
#include <string>

#include "command_line.hpp"

namespace ch09 {

void add_options(lab::Options& table, Options& o) {
  table.add("devices", &o.devices, 0, 64, "use the first N GPUs (0: all of them)")
      .add("mib", &o.mib, 1, 8192, "MiB per copy between GPUs (section 2)")
      .add("n", &o.n, 1, std::int64_t{1} << 30, "floats through the pipeline (section 4)")
      .add("chunks", &o.chunks, 1, 1024, "chunks the pipeline cuts the data into")
      .add("iterations", &o.iterations, 1, 100000, "steps of the pipeline's kernel per element")
      .add("reps", &o.reps, 1, 1000, "timed samples of each measurement (after one warm-up)")
      .add("runs", &o.runs, 1, 1000, "producer/consumer runs of each kind (section 3)")
      .add("producer-ms", &o.producer_ms, 1.0, 1000.0, "how long the producer spins before it writes")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random inputs")
      .add_rule([&o] { return o.chunks > o.n ? "--chunks must be at most --n" : ""; });
}

std::size_t copy_bytes(const Options& o) { return static_cast<std::size_t>(o.mib) << 20; }

lab::MemoryNeed memory_need(const Options& o) {
  const double copy = static_cast<double>(copy_bytes(o));
  const double floats = static_cast<double>(o.n) * sizeof(float);
  const bool copies_larger = 3 * copy >= 2 * floats;
  return {std::max(3 * copy, 2 * floats),
          copies_larger ? "section 2 on GPU 1: 3 x --mib" : "section 4 on each GPU: x and y, 2 x n floats",
          std::max(4 * copy, 5 * floats),
          4 * copy >= 5 * floats ? "section 2: 4 x --mib (pinned staging, what was sent, expected, arrived)"
                                 : "section 4: 5 x n floats (pinned x and y, input, expected, output)",
          "--mib " + lab::format_count(o.mib) + " --n " + lab::format_count(o.n)};
}

}  // namespace ch09
