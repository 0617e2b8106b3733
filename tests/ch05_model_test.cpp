// Chapter 05's model on hand-worked inputs (no GPU needed).
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "overlap_model.hpp"

namespace {

// Copies of 6 ms in and out, 8 ms both at once, a 3 ms kernel, two copy engines.
ch05::LinkAndKernel copy_bound() {
  ch05::LinkAndKernel m;
  m.bytes = 256.0 * (1 << 20);
  m.h2d_ms = 6;
  m.d2h_ms = 6;
  m.both_ms = 8;
  m.kernel_ms = 3;
  m.copy_engines = 2;
  return m;
}

}  // namespace

TEST_CASE("sequential time and bounds with two copy engines") {
  const ch05::LinkAndKernel m = copy_bound();
  CHECK(ch05::sequential_ms(m) == doctest::Approx(15.0));     // 6 + 3 + 6
  CHECK(ch05::transfer_bound_ms(m) == doctest::Approx(8.0));  // the shared link: both directions take 8
  CHECK(ch05::overlap_bound_ms(m) == doctest::Approx(8.0));
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
  CHECK(ch05::transfer_bound_ms(m) == doctest::Approx(8.0));
  // 2 chunks: 3 + 6 + 3 fill and drain, then one step of k = 6.
  CHECK(ch05::pipelined_ms(m, 2) == doctest::Approx(12.0 + 6.0));
}

TEST_CASE("with one copy engine the two directions take turns") {
  ch05::LinkAndKernel m = copy_bound();
  m.copy_engines = 1;
  CHECK(ch05::transfer_bound_ms(m) == doctest::Approx(12.0));  // 6 + 6
  CHECK(ch05::overlap_bound_ms(m) == doctest::Approx(12.0));
  // 4 chunks: 3.75 + 3 * max(1.5 + 1.5, 0.75) = 12.75.
  CHECK(ch05::pipelined_ms(m, 4) == doctest::Approx(12.75));
  CHECK(ch05::pipelined_ms(m, 1) == doctest::Approx(ch05::sequential_ms(m)));
}

TEST_CASE("a link that carries both directions at full speed: the slower direction is the bound") {
  ch05::LinkAndKernel m = copy_bound();
  m.d2h_ms = 7;
  m.both_ms = 7;
  CHECK(ch05::transfer_bound_ms(m) == doctest::Approx(7.0));
}

TEST_CASE("zero or negative chunks are refused") {
  CHECK_THROWS_AS(ch05::pipelined_ms(copy_bound(), 0), std::invalid_argument);
  CHECK_THROWS_AS(ch05::pipelined_ms(copy_bound(), -3), std::invalid_argument);
}

TEST_CASE("two kernels per stream, depth first: streams sharing a connection wait for each other") {
  CHECK(ch05::depth_first_kernel_lengths(4, 8) == 2);   // a connection each: every first kernel at once
  CHECK(ch05::depth_first_kernel_lengths(8, 8) == 2);
  CHECK(ch05::depth_first_kernel_lengths(16, 8) == 3);  // two streams per connection
  CHECK(ch05::depth_first_kernel_lengths(32, 8) == 5);
  CHECK(ch05::depth_first_kernel_lengths(4, 1) == 5);   // one connection: one more length per stream
  CHECK(ch05::depth_first_kernel_lengths(9, 8) == 3);   // one connection holds two streams
  CHECK_THROWS_AS(ch05::depth_first_kernel_lengths(0, 8), std::invalid_argument);
  CHECK_THROWS_AS(ch05::depth_first_kernel_lengths(4, 0), std::invalid_argument);
}

TEST_CASE("chunks of fewer than 1024 floats are refused, with the option's name") {
  CHECK(ch05::too_many_chunks("--max-chunks", 256, 1).empty());  // 1 MiB = 262144 floats: 1024 each
  const std::string error = ch05::too_many_chunks("--max-chunks", 512, 1);
  CHECK(error.find("--max-chunks 512 is too many chunks for --mib 1") != std::string::npos);
  CHECK_FALSE(ch05::too_many_chunks("--chart-chunks", 0, 1).empty());
}
