// Chapter 07's options on the CPU: the table's ranges, the working sets they
// choose and the memory a run needs (the GPU's L2 given here as a number).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../chapters/07_cache_and_clock/options.hpp"
#include "command_line.hpp"
#include "program.hpp"
#include "support/options_support.hpp"

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// The message ch07's options give @p args, or "" when they are valid.
std::string usage_error(std::vector<const char*> args) {
  return lab_test::usage_error<ch07::Options>(ch07::add_options, std::move(args));
}

}  // namespace

TEST_CASE("every option refuses a value outside its range, naming the option") {
  CHECK(usage_error({"--samples", "2"}).find("--samples") != std::string::npos);
  CHECK(usage_error({"--probes", "1"}).find("--probes") != std::string::npos);
  CHECK(usage_error({"--large-factor", "1"}).find("--large-factor") != std::string::npos);
  CHECK(usage_error({"--spin-ms", "-1"}).find("--spin-ms") != std::string::npos);
  CHECK(usage_error({"--load-ms", "fast"}).find("--load-ms") != std::string::npos);
  CHECK(usage_error({"--stat-samples", "9"}).find("--stat-samples") != std::string::npos);
  CHECK(usage_error({"--samples", "3", "--probes", "2", "--large-factor", "2", "--small-mib", "12"}).empty());
}

TEST_CASE("the working sets: half the L2 and 8 x the L2 by default, or as chosen") {
  ch07::Options o;
  CHECK(ch07::small_working_set_bytes(o, 50 * kMiB) == 25 * kMiB);
  CHECK(ch07::large_working_set_bytes(o, 50 * kMiB) == 400 * kMiB);
  o.small_mib = 12;
  o.large_factor = 2;
  CHECK(ch07::small_working_set_bytes(o, 50 * kMiB) == 12 * kMiB);
  CHECK(ch07::large_working_set_bytes(o, 50 * kMiB) == 100 * kMiB);
}

TEST_CASE("memory_need: the larger working set, two flushes and the load's copy; named by its options") {
  ch07::Options o;
  const lab::MemoryNeed need = ch07::memory_need(o, 50 * kMiB);
  CHECK(need.device_bytes == doctest::Approx(400.0 * kMiB + 8 * 50.0 * kMiB));
  CHECK(need.host_bytes == doctest::Approx(400.0 * kMiB + 2 * 50.0 * kMiB));
  CHECK(need.what == "--large-factor 8, --small-mib 0");
  o.small_mib = 1000;  // a "small" set larger than 8 x the L2 sets the need
  CHECK(ch07::memory_need(o, 50 * kMiB).device_bytes == doctest::Approx(1000.0 * kMiB + 8 * 50.0 * kMiB));
  // It fits an 80 GiB GPU, and not one with 500 MiB free.
  CHECK(lab::check_memory_fits(need, std::size_t{80} << 30, std::size_t{64} << 30).empty());
  CHECK_FALSE(lab::check_memory_fits(need, 500 * kMiB, std::size_t{64} << 30).empty());
}
