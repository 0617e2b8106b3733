#include "options.hpp"

#include <string>

#include "command_line.hpp"

namespace ch04 {

void add_options(lab::Options& table, Options& o) {
  table.add("n", &o.n, 1, std::int64_t{1} << 31, "floats per array")
      .add("arrays", &o.arrays, 1, 64, "independent arrays to normalise")
      .add("streams", &o.streams, 1, 64, "streams for the many-streams case (at most --arrays)")
      .add("reps", &o.reps, 1, 1000, "runs of each case (the median is reported)")
      .add("spin-ms", &o.spin_ms, 1.0, 1000.0, "length of each kernel in the default-stream experiment")
      .add("race-delay-ms", &o.race_delay_ms, 0.5, 1000.0, "how long the slow producer holds its stream")
      .add("race-n", &o.race_n, 1, std::int64_t{1} << 28, "floats the producer writes")
      .add("race-reps", &o.race_reps, 1, 10000, "runs of the race and of its fix")
      .add("queued-ms", &o.queued_ms, 1.0, 1000.0, "GPU work queued before the allocation calls")
      .add("pool-mib", &o.pool_mib, 1, 65536, "MiB of the block in the release-threshold experiment")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed")
      .add_rule([&o] { return streams_rule(o); });
}

std::string streams_rule(const Options& o) {
  if (o.streams <= o.arrays) return "";
  return "--streams " + std::to_string(o.streams) + " is more than --arrays " + std::to_string(o.arrays) +
         ": some streams would have no work";
}

lab::MemoryNeed memory_need(const Options& o) {
  const double floats = 4.0 * static_cast<double>(o.n) * static_cast<double>(o.arrays);  // bytes of all arrays
  const double race = 4.0 * static_cast<double>(o.race_n);                               // bytes of one race buffer
  lab::MemoryNeed need;
  need.device_bytes = floats + static_cast<double>(o.pool_mib) * 1024.0 * 1024.0 + 3.0 * race;
  need.device_parts = "one copy per array, the pool's block, the race's 3 buffers";
  need.host_bytes = 4.0 * floats + 3.0 * race;
  need.host_parts = "4 floats per array element (pinned in and out, reference, random values), the race's 3";
  need.what = "--arrays " + std::to_string(o.arrays) + " x --n " + lab::format_count(o.n) + ", --pool-mib " +
              std::to_string(o.pool_mib) + " and --race-n " + lab::format_count(o.race_n);
  return need;
}

}  // namespace ch04
