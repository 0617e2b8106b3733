// The check for exercise 01, built twice: against your file in exercises/
// (test ch01_exercise_check, label "exercise") and against solutions/
// (test ch01_solution_check, label "solution", part of the default test run).
// It compares with chapter 01's own CPU reference (ch01::add_on_cpu).
#include <doctest/doctest.h>

#include "grid_stride_add.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "vector_add.cuh"
#include "verify.hpp"

TEST_CASE("exercise 01: every element of c = a + b, for sizes below, at and far above the grid") {
  for (std::int64_t n : {1LL, 511LL, 512LL, 513LL, 100000LL, (1LL << 20) + 3}) {
    CAPTURE(n);
    const auto count = static_cast<std::size_t>(n);
    const auto a_host = lab::random_floats(count, 101);
    const auto b_host = lab::random_floats(count, 102);
    lab::DeviceBuffer<float> a(count), b(count), c(count);
    a.upload(a_host);
    b.upload(b_host);
    c.poison();  // every element the kernel misses stays NaN
    lab::Stream stream;
    exercise01::launch_grid_stride_add(a.data(), b.data(), c.data(), n, stream);
    stream.synchronize();
    const lab::Comparison result = lab::compare(c.download(), ch01::add_on_cpu(a_host, b_host));
    CHECK_MESSAGE(result.passed(), result.detail());
  }
}
