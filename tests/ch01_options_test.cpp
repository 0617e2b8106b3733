// Chapter 01's option checks, on the CPU: the table's ranges and the checks
// that need the GPU's limits (given here as numbers).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "launch_options.hpp"
#include "program.hpp"

namespace {
std::string usage_error(std::vector<const char*> args) {
  ch01::LaunchOptions options;
  lab::Options table("ch01_kernel_launch", "test");
  ch01::add_launch_options(table, options);
  args.insert(args.begin(), "ch01_kernel_launch");
  try {
    table.parse(static_cast<int>(args.size()), args.data());
  } catch (const lab::UsageError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("n must be positive; block must be 1..1024") {
  CHECK(usage_error({"--n", "0"}).find("--n must be in 1..") == 0);
  CHECK(usage_error({"--n", "-5"}).find("--n must be in 1..") == 0);
  CHECK(usage_error({"--block", "0"}).find("--block must be in 1..1Ki") == 0);
  CHECK(usage_error({"--block", "2048"}).find("--block must be in 1..1Ki") == 0);
  CHECK(usage_error({"--reps", "0"}).find("--reps must be in 1..") == 0);
  CHECK(usage_error({"--n", "64Mi", "--block", "1024", "--reps", "3"}).empty());
}

TEST_CASE("the block must be a whole number of warps") {
  CHECK(ch01::check_block_size(32).empty());
  CHECK(ch01::check_block_size(1024).empty());
  CHECK(ch01::check_block_size(100).find("multiple of 32") != std::string::npos);
  CHECK(ch01::check_block_size(1).find("multiple of 32") != std::string::npos);
}

TEST_CASE("checks against the machine: the block limit, device memory and host memory") {
  constexpr std::size_t kPlenty = std::size_t{1} << 40;
  ch01::LaunchOptions options;
  options.n = 1000;
  options.block = 1024;
  CHECK(ch01::check_against_machine(options, 1024, kPlenty, kPlenty).empty());
  CHECK(ch01::check_against_machine(options, 512, kPlenty, kPlenty).find("exceeds this GPU's limit of 512") !=
        std::string::npos);
  options.block = 256;
  // device: a, b and c, 3 x 4 bytes per element
  CHECK(ch01::check_against_machine(options, 1024, 12000, kPlenty).empty());
  CHECK(ch01::check_against_machine(options, 1024, 11999, kPlenty).find("of device memory") != std::string::npos);
  // host: a, b, the reference and one result, 4 x 4 bytes per element
  CHECK(ch01::check_against_machine(options, 1024, kPlenty, 16000).empty());
  CHECK(ch01::check_against_machine(options, 1024, kPlenty, 15999).find("of host memory") != std::string::npos);
}

TEST_CASE("the block rule is part of the option table") {
  CHECK(usage_error({"--block", "100"}).find("multiple of 32") != std::string::npos);
  CHECK(usage_error({"--block", "96"}).empty());
}
