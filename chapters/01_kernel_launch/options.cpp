#include "options.hpp"

#include "command_line.hpp"
#include "program.hpp"

namespace ch01 {

void add_options(lab::Options& table, Options& o) {
  table.add("n", &o.n, 1, std::int64_t{1} << 40, "floats per vector (a, b and c each hold n)")
      .add("block", &o.block, 1, 1024, "threads per block, a multiple of 32")
      .add("reps", &o.reps, 1, 10000, "timed samples per variant")
      .add("seed", &o.seed, 0, 4294967295LL, "seed of the random inputs")
      .add_rule([&o] { return check_block_size(o.block); });
}

std::string check_block_size(std::int64_t block) {
  if (block % 32 == 0) return "";
  return "--block must be a multiple of 32 (the warp size), got " + std::to_string(block) +
         ": a partial warp still occupies a whole warp's slot";
}

std::string check_block_fits(const Options& o, int max_threads_per_block) {
  if (o.block <= max_threads_per_block) return "";
  return "--block " + std::to_string(o.block) + " exceeds this GPU's limit of " +
         std::to_string(max_threads_per_block) + " threads per block";
}

void require_block_fits(const Options& o, int max_threads_per_block) {
  if (const std::string problem = check_block_fits(o, max_threads_per_block); !problem.empty()) {
    throw lab::UsageError(problem);
  }
}

lab::MemoryNeed memory_need(const Options& o) {
  const double bytes = 4.0 * static_cast<double>(o.n);  // one vector of n floats
  return {3 * bytes, "a, b and c: 3 x n floats", 4 * bytes, "4 x n floats", "--n " + lab::format_count(o.n)};
}

}  // namespace ch01
