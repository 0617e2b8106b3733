#include "launch_options.hpp"

#include <cstdio>

#include "memory_fit.hpp"
#include "program.hpp"

namespace ch01 {

void add_launch_options(lab::Options& table, LaunchOptions& options) {
  table.add("n", &options.n, 1, std::int64_t{1} << 40, "floats per vector (a, b and c each hold n)")
      .add("block", &options.block, 1, 1024, "threads per block, a multiple of 32")
      .add("reps", &options.reps, 1, 10000, "timed samples per variant")
      .add("seed", &options.seed, 0, 4294967295LL, "seed of the random inputs")
      .add_rule([&options] { return check_block_size(options.block); });
}

std::string check_block_size(std::int64_t block) {
  if (block % 32 != 0) {
    return "--block must be a multiple of 32 (the warp size), got " + std::to_string(block) +
           ": a partial warp still occupies a whole warp's slot";
  }
  return "";
}

std::string check_against_machine(const LaunchOptions& options, int max_threads_per_block,
                                  std::size_t free_device_bytes, std::size_t available_host_bytes) {
  if (options.block > max_threads_per_block) {
    return "--block " + std::to_string(options.block) + " exceeds this GPU's limit of " +
           std::to_string(max_threads_per_block) + " threads per block";
  }
  return check_vectors_fit("--n " + std::to_string(options.n), options.n, free_device_bytes, available_host_bytes);
}

void require_fits_machine(const LaunchOptions& options, const lab::DeviceInfo& device) {
  const std::string problem = check_against_machine(options, device.max_threads_per_block, device.free_memory_bytes,
                                                    lab::available_host_memory_bytes());
  if (!problem.empty()) throw lab::UsageError(problem);
}

std::string check_vectors_fit(const std::string& what, std::int64_t n, std::size_t free_device_bytes,
                              std::size_t available_host_bytes) {
  const double floats = static_cast<double>(n);
  // On the GPU: a, b and c. On the host: a, b, the CPU reference and one result copied back.
  return lab::check_memory_fits(what, {3.0 * 4.0 * floats, "a, b and c: 3 x n floats", 4.0 * 4.0 * floats, "4 x n floats"},
                                free_device_bytes, available_host_bytes);
}

}  // namespace ch01
