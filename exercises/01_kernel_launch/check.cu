// The check for exercise 01, built twice: against your file in exercises/
// (test ch01_exercise_check, label "exercise") and against solutions/
// (test ch01_solution_check, label "solution", part of the default test run).
// It calls chapter 01's own check (ch01::check_add: random inputs, poisoned
// output, exact comparison with the CPU reference ch01::add_on_cpu).
#include <doctest/doctest.h>

#include "grid_stride_add.cuh"
#include "vector_add.cuh"

TEST_CASE("exercise 01: every element of c = a + b, for sizes below, at and far above the grid") {
  for (std::int64_t n : {1LL, 511LL, 512LL, 513LL, 100000LL, (1LL << 20) + 3}) {
    CAPTURE(n);
    const lab::Comparison result = ch01::check_add(exercise01::launch_grid_stride_add, n, 101);
    CHECK_MESSAGE(result.passed(), result.detail());
  }
}
