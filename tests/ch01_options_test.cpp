// Chapter 01's options on the CPU: the table's ranges and rules, the block
// limit of the GPU and the memory a run needs (given here as numbers).
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "../chapters/01_kernel_launch/options.hpp"
#include "command_line.hpp"
#include "program.hpp"
#include "support/options_support.hpp"

namespace {
// The message ch01's options give @p args, or "" when they are valid.
std::string usage_error(std::vector<const char*> args) {
  return lab_test::usage_error<ch01::Options>(ch01::add_options, std::move(args));
}
}  // namespace

// A bad value is a usage error whose message names the option.
bool refused(std::vector<const char*> args, const std::string& option) {
  const std::string message = usage_error(std::move(args));
  CAPTURE(message);
  return message.find(option) != std::string::npos;
}

TEST_CASE("n must be positive; block must be 1..1024") {
  CHECK(refused({"--n", "0"}, "--n"));
  CHECK(refused({"--n", "-5"}, "--n"));
  CHECK(refused({"--block", "0"}, "--block"));
  CHECK(refused({"--block", "2048"}, "--block"));
  CHECK(refused({"--reps", "0"}, "--reps"));
  CHECK(usage_error({"--n", "64Mi", "--block", "1024", "--reps", "3"}).empty());
}

TEST_CASE("the block must be a whole number of warps, and the rule is part of the option table") {
  CHECK(ch01::check_block_size(32).empty());
  CHECK(ch01::check_block_size(1024).empty());
  CHECK_FALSE(ch01::check_block_size(100).empty());
  CHECK_FALSE(ch01::check_block_size(1).empty());
  CHECK(refused({"--block", "100"}, "--block"));
  CHECK(usage_error({"--block", "96"}).empty());
}

TEST_CASE("the block must fit the GPU's limit") {
  ch01::Options options;
  options.block = 1024;
  CHECK(ch01::check_block_fits(options, 1024).empty());
  CHECK_FALSE(ch01::check_block_fits(options, 512).empty());
  CHECK_THROWS_AS(ch01::require_block_fits(options, 512), lab::UsageError);
  CHECK_NOTHROW(ch01::require_block_fits(options, 1024));
}

TEST_CASE("the memory a run needs: a, b and c on the device, four vectors on the host") {
  ch01::Options options;
  CHECK(options.n == ch01::kDefaultN);
  options.n = 1000;
  const lab::MemoryNeed need = ch01::memory_need(options);
  CHECK(need.device_bytes == doctest::Approx(12000.0));  // 3 x 4 bytes per element
  CHECK(need.host_bytes == doctest::Approx(16000.0));    // 4 x 4 bytes per element
  CHECK(need.what == "--n 1000");
  CHECK(lab::check_memory_fits(need, 12000, 16000).empty());
  CHECK_FALSE(lab::check_memory_fits(need, 11999, 16000).empty());
  CHECK_FALSE(lab::check_memory_fits(need, 12000, 15999).empty());
  options.n = std::int64_t{64} << 20;
  CHECK(ch01::memory_need(options).what == "--n 64Mi");
}
