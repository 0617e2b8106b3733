// Chapter 05's model and options on hand-worked inputs (no GPU needed).
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../chapters/05_overlap/options.hpp"  // chapter 05's: two files are named options.hpp
#include "command_line.hpp"
#include "overlap_model.hpp"
#include "program.hpp"  // lab::UsageError
#include "support/options_support.hpp"

namespace {

// Copies of 6 ms in and out, 8 ms both at once, a 3 ms kernel, two copy engines.
ch05::LinkAndKernel copy_bound() {
  ch05::LinkAndKernel m;
  m.h2d_ms = 6;
  m.d2h_ms = 6;
  m.both_ms = 8;
  m.kernel_ms = 3;
  m.copy_engines = 2;
  return m;
}

}  // namespace

TEST_CASE("the bound with two copy engines: the slowest of H, D, B and K") {
  ch05::LinkAndKernel m = copy_bound();
  CHECK(ch05::overlap_bound_ms(m) == doctest::Approx(8.0));  // the shared link: both directions take 8
  m.d2h_ms = 9;
  CHECK(ch05::overlap_bound_ms(m) == doctest::Approx(9.0));  // a copy
  m.kernel_ms = 12;
  CHECK(ch05::overlap_bound_ms(m) == doctest::Approx(12.0));  // the kernel
}

TEST_CASE("the pipeline: one chunk is sequential, more chunks approach the bound") {
  const ch05::LinkAndKernel m = copy_bound();
  CHECK(ch05::pipelined_ms(m, 1) == doctest::Approx(15.0));
  // 4 chunks: h = d = 1.5, k = 0.75, b = 2: fill + drain 3.75, then 3 steps of 2.
  CHECK(ch05::pipelined_ms(m, 4) == doctest::Approx(3.75 + 3 * 2.0));
  // 8 chunks: 15/8 + 7 * 1 = 8.875; never below the bound.
  CHECK(ch05::pipelined_ms(m, 8) == doctest::Approx(15.0 / 8 + 7.0));
  double previous = ch05::pipelined_ms(m, 1);
  for (int chunks = 2; chunks <= 1024; chunks *= 2) {
    const double t = ch05::pipelined_ms(m, chunks);
    CHECK(t < previous);
    CHECK(t > ch05::overlap_bound_ms(m));
    previous = t;
  }
  CHECK(ch05::pipelined_ms(m, 1 << 20) == doctest::Approx(8.0).epsilon(0.001));
}

TEST_CASE("a kernel longer than the copies sets the pace") {
  ch05::LinkAndKernel m = copy_bound();
  m.kernel_ms = 12;
  CHECK(ch05::overlap_bound_ms(m) == doctest::Approx(12.0));
  // 2 chunks: 3 + 6 + 3 fill and drain, then one step of k = 6.
  CHECK(ch05::pipelined_ms(m, 2) == doctest::Approx(12.0 + 6.0));
}

TEST_CASE("with one copy engine the two directions take turns") {
  ch05::LinkAndKernel m = copy_bound();
  m.copy_engines = 1;
  CHECK(ch05::overlap_bound_ms(m) == doctest::Approx(12.0));  // 6 + 6
  m.kernel_ms = 13;
  CHECK(ch05::overlap_bound_ms(m) == doctest::Approx(13.0));
  m.kernel_ms = 3;
  // 4 chunks: 3.75 + 3 * max(1.5 + 1.5, 0.75) = 12.75.
  CHECK(ch05::pipelined_ms(m, 4) == doctest::Approx(12.75));
  CHECK(ch05::pipelined_ms(m, 1) == doctest::Approx(15.0));  // H + K + D
}

TEST_CASE("zero or negative chunks are refused") {
  CHECK_THROWS_AS(ch05::pipelined_ms(copy_bound(), 0), std::invalid_argument);
  CHECK_THROWS_AS(ch05::pipelined_ms(copy_bound(), -3), std::invalid_argument);
}

TEST_CASE("two kernels per stream, depth first: streams sharing a connection wait for each other") {
  CHECK(ch05::depth_first_kernel_lengths(4, 8) == 2);  // a connection each: every first kernel at once
  CHECK(ch05::depth_first_kernel_lengths(8, 8) == 2);
  CHECK(ch05::depth_first_kernel_lengths(16, 8) == 3);  // two streams per connection
  CHECK(ch05::depth_first_kernel_lengths(32, 8) == 5);
  CHECK(ch05::depth_first_kernel_lengths(4, 1) == 5);  // one connection: one more length per stream
  CHECK(ch05::depth_first_kernel_lengths(9, 8) == 3);  // one connection holds two streams
  CHECK_THROWS_AS(ch05::depth_first_kernel_lengths(0, 8), std::invalid_argument);
  CHECK_THROWS_AS(ch05::depth_first_kernel_lengths(4, 0), std::invalid_argument);
}

TEST_CASE("chunks of fewer than 1024 floats are refused, with the option's name") {
  CHECK(ch05::too_many_chunks("--max-chunks", 256, 1).empty());  // 1 MiB = 262144 floats: 1024 each
  const std::string error = ch05::too_many_chunks("--max-chunks", 512, 1);
  CHECK(error.find("--max-chunks 512") != std::string::npos);
  CHECK_FALSE(ch05::too_many_chunks("--chart-chunks", 0, 1).empty());
}

TEST_CASE("chart chunks that do not divide the data are refused, with the option's name") {
  CHECK(ch05::uneven_chunks("--chart-chunks", 64, 1).empty());  // 262144 floats: 4096 each
  CHECK(ch05::uneven_chunks("--chart-chunks", 3, 3).empty());   // 786432 floats: 262144 each
  const std::string error = ch05::uneven_chunks("--chart-chunks", 3, 1);
  CHECK(error.find("--chart-chunks 3 does not divide") != std::string::npos);
}

TEST_CASE("schedule names") {
  CHECK(std::string(ch05::schedule_name(ch05::Schedule::sequential)) == "sequential");
  CHECK(std::string(ch05::schedule_name(ch05::Schedule::v1_per_chunk)) == "V1");
  CHECK(std::string(ch05::schedule_name(ch05::Schedule::v2_per_stage)) == "V2");
}

// --- the options file: the rules, the chunk counts and the memory need --------------

namespace {

// Parses @p args (after the program name) into a fresh ch05::Options.
ch05::Options parsed(std::vector<const char*> args) {
  return lab_test::parsed<ch05::Options>(ch05::add_options, std::move(args));
}

}  // namespace

TEST_CASE("options: defaults, and chunk counts too many for --mib refused") {
  const ch05::Options o = parsed({});
  CHECK(o.mib == 256);
  CHECK(o.max_chunks == 32);
  CHECK(o.chart_chunks == 4);
  CHECK(o.reps == 5);
  CHECK(ch05::floats(o) == std::size_t{64} << 20);
  CHECK(parsed({"--mib", "1", "--max-chunks", "256"}).max_chunks == 256);
  CHECK_THROWS_AS(parsed({"--mib", "1", "--max-chunks", "512"}), lab::UsageError);
  CHECK(parsed({"--mib", "1", "--chart-chunks", "64", "--max-chunks", "1"}).chart_chunks == 64);  // 4096 floats each
  CHECK_THROWS_AS(parsed({"--chart-chunks", "3"}), lab::UsageError);  // 64 Mi floats: not in 3 equal chunks
  CHECK(parsed({"--max-chunks", "12"}).max_chunks == 12);             // the sweep: powers of two up to it
  CHECK_THROWS_AS(parsed({"--reps", "0"}), lab::UsageError);
  CHECK_THROWS_AS(parsed({"--heavy-iterations", "-1"}), lab::UsageError);
}

TEST_CASE("options: the sweep's chunk counts are the powers of two up to --max-chunks") {
  ch05::Options o;
  CHECK(ch05::chunk_counts(o) == std::vector<int>{1, 2, 4, 8, 16, 32});
  o.max_chunks = 1;
  CHECK(ch05::chunk_counts(o) == std::vector<int>{1});
  o.max_chunks = 12;  // not a power of two: up to 8
  CHECK(ch05::chunk_counts(o) == std::vector<int>{1, 2, 4, 8});
}

TEST_CASE("options: the memory need is 2 x --mib on the device and 6 x --mib on the host") {
  ch05::Options o;
  o.mib = 64;
  const lab::MemoryNeed need = ch05::memory_need(o);
  CHECK(need.device_bytes == doctest::Approx(2.0 * 64 * (1 << 20)));
  CHECK(need.host_bytes == doctest::Approx(6.0 * 64 * (1 << 20)));
  CHECK(need.what == "--mib 64");
}
