// The check for exercise 01, built from this file against your grid_stride_add.cu
// (test ch01_exercise_check, label "exercise"), against solutions/ (test
// ch01_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch01_pristine_check, label
// "pristine": it must fail). It calls chapter 01's own check (ch01::check_add:
// random inputs, c poisoned with NaN first, exact comparison with the CPU
// reference ch01::add_on_cpu); what it prints on failure says what was
// expected, what happened, and where to look.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "add_kernels.cuh"
#include "check.cuh"
#include "grid_stride_add.cuh"

namespace {

// "n = 513: 1 of 513 elements of c are wrong; c[512] is NaN (the poison value): ..."
std::string explain(const lab::Comparison& result, std::int64_t n) {
  std::ostringstream text;
  text << "n = " << n << ": ";
  if (result.first.empty()) return text.str() + result.detail();
  const lab::Mismatch& first = result.first.front();
  text << result.mismatches << " of " << n << " elements of c are wrong; ";
  if (std::isnan(first.actual)) {
    text << "c[" << first.index << "] is NaN (the poison value): no thread wrote it; ";
    if (first.index == 0) {
      text << "does your kernel write c at all?";
    } else {
      text << "the launch has 4 x 128 = 512 threads: does your loop step by the whole grid "
              "(gridDim.x * blockDim.x) until i reaches n?";
    }
  } else {
    text << "c[" << first.index << "] = " << first.actual << ", expected a + b = " << first.expected
         << ": does each thread add a[i] + b[i] at the same i it writes?";
  }
  return text.str();
}

}  // namespace

TEST_CASE("exercise 01: every element of c = a + b, for sizes below, at and far above the grid") {
  for (std::int64_t n : {1LL, 511LL, 512LL, 513LL, 100000LL, (1LL << 20) + 3}) {
    CAPTURE(n);
    lab::Comparison result;
    try {
      result = ch01::check_add(exercise01::launch_grid_stride_add, n, 101);
    } catch (const lab::CudaError& error) {
      // After an error inside a kernel the GPU context is lost: stop here.
      FAIL("n = " << n << ": a CUDA error while your kernel ran (" << error.what()
                  << "): does every thread stay inside the arrays (i < n)?");
    }
    CHECK_MESSAGE(result.passed(), explain(result, n));
  }
}
