#include "options.hpp"

#include <algorithm>
#include <string>

#include "command_line.hpp"

namespace ch06 {

void add_options(lab::Options& table, Options& o) {
  table
      .add("max-mib", &o.max_mib, 1, 1048576,
           "largest size of the bandwidth sweep, in MiB (4 KiB, 16 KiB, ... up to it)")
      .add("mib", &o.mib, 1, 1048576, "size of the other experiments, in MiB")
      .add("reps", &o.reps, 1, 1000, "samples per measurement (the median is reported)")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "seed of the random bytes copied")
      .add_rule([&o] {
        return o.mib <= o.max_mib
                   ? std::string()
                   : "--mib " + std::to_string(o.mib) + " must not exceed --max-mib " + std::to_string(o.max_mib);
      });
}

std::size_t sweep_bytes(const Options& o) { return static_cast<std::size_t>(o.max_mib) << 20; }

std::size_t experiment_bytes(const Options& o) { return static_cast<std::size_t>(o.mib) << 20; }

lab::MemoryNeed memory_need(const Options& o) {
  const double largest = static_cast<double>(sweep_bytes(o));
  const double size = static_cast<double>(experiment_bytes(o));
  return {2.0 * largest, "two device arrays of --max-mib (the sweep's copies in and out)",
          std::max(4.0 * largest, 5.0 * size),
          "pageable and pinned source and destination of --max-mib (the sweep), or five buffers of --mib (the upload)",
          "--max-mib " + std::to_string(o.max_mib) + " with --mib " + std::to_string(o.mib)};
}

}  // namespace ch06
