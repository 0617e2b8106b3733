#include "options.hpp"

#include <string>

#include "command_line.hpp"

namespace ch05 {

void add_options(lab::Options& table, Options& o) {
  table.add("mib", &o.mib, 1, 1048576, "MiB copied each way")
      .add("max-chunks", &o.max_chunks, 1, 1024, "largest chunk (= stream) count of the sweep 1, 2, 4, ...")
      .add("chart-chunks", &o.chart_chunks, 1, 64, "chunks of the runs CUPTI records (section 4)")
      .add("heavy-iterations", &o.heavy_iterations, 0, 100000,
           "steps of the heavy kernel (0: chosen so that it takes as long as the copy in)")
      .add("reps", &o.reps, 1, 1000, "timed runs per row (the median is reported)")
      .add("queue-mib", &o.queue_mib, 1, 65536, "MiB each child process of section 3 copies each way")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed")
      .add_rule([&o] { return too_many_chunks("--max-chunks", o.max_chunks, o.mib); })
      .add_rule([&o] { return too_many_chunks("--chart-chunks", o.chart_chunks, o.mib); })
      .add_rule([&o] { return uneven_chunks("--chart-chunks", o.chart_chunks, o.mib); });
}

std::string too_many_chunks(const std::string& option, std::int64_t chunks, std::int64_t mib) {
  const std::int64_t floats = mib * (std::int64_t{1} << 20) / 4;
  if (chunks >= 1 && floats / chunks >= kMinChunkFloats) return "";
  return option + " " + std::to_string(chunks) + " is too many chunks for --mib " + std::to_string(mib) +
         ": each chunk would hold fewer than " + std::to_string(kMinChunkFloats) + " floats (4 KiB)";
}

std::string uneven_chunks(const std::string& option, std::int64_t chunks, std::int64_t mib) {
  const std::int64_t floats = mib * (std::int64_t{1} << 20) / 4;
  if (chunks < 1 || floats % chunks == 0) return "";
  return option + " " + std::to_string(chunks) + " does not divide the " + std::to_string(floats) +
         " floats of --mib " + std::to_string(mib) + " into equal chunks";
}

std::vector<int> chunk_counts(const Options& o) {
  std::vector<int> counts;
  for (std::int64_t c = 1; c <= o.max_chunks; c *= 2) counts.push_back(static_cast<int>(c));
  return counts;
}

std::size_t floats(const Options& o) {
  return static_cast<std::size_t>(o.mib) * (std::size_t{1} << 20) / sizeof(float);
}

lab::MemoryNeed memory_need(const Options& o) {
  const double bytes = static_cast<double>(o.mib) * (1 << 20);
  return {2.0 * bytes, "the array and a second one to measure both copy directions", 6.0 * bytes,
          "pinned input and output, the inputs, two CPU references and a copy of the output",
          "--mib " + std::to_string(o.mib)};
}

}  // namespace ch05
