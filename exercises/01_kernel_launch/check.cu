// The check for exercise 01, built from this file against your grid_stride_add.cu
// (test ch01_exercise_check, label "exercise"), against solutions/ (test
// ch01_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch01_pristine_check, label
// "pristine": it must fail). Three test cases:
//   1. chapter 01's own check (ch01::check_add: random inputs, c poisoned with
//      NaN first, exact comparison with the CPU reference ch01::add_on_cpu);
//   2. nothing written past the end: c is followed by a guard region of 1024
//      poisoned elements that must stay untouched (`i <= n` writes c[n], which
//      otherwise lands unseen in the allocation's padding);
//   3. each element handled by one thread: the kernel's time against chapter
//      01's add_grid_stride with the same 4 x 128 launch in the same run. A
//      stride of blockDim.x makes every block walk the whole array (4 x the
//      work), a stride of gridDim.x every thread 128 x; both write the right
//      values, so only the time shows them (up to 2 x the reference allowed).
// What it prints on failure says what was expected, what happened, and where to look.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "add_kernels.cuh"
#include "check.cuh"
#include "grid_stride_add.cuh"
#include "measure.cuh"
#include "memory.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "verify.hpp"

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

TEST_CASE("exercise 01: nothing is written past the end of c") {
  constexpr std::int64_t kGuard = 1024;  // elements after c that must keep the poison
  for (std::int64_t n : {1LL, 511LL, 512LL, 513LL, 100000LL}) {
    CAPTURE(n);
    const auto count = static_cast<std::size_t>(n + kGuard);
    // a and b are as long as c and its guard, so that a read past the end reads
    // numbers (not a fault) and only the write past the end is judged.
    lab::DeviceBuffer<float> a(count), b(count), c(count);
    a.upload(lab::random_floats(count, 7));
    b.upload(lab::random_floats(count, 8));
    lab::Stream stream;
    c.poison(stream);
    try {
      exercise01::launch_grid_stride_add(a.data(), b.data(), c.data(), n, stream);
      LAB_CHECK(cudaStreamSynchronize(stream));
    } catch (const lab::CudaError& error) {
      FAIL("n = " << n << ": a CUDA error while your kernel ran (" << error.what()
                  << "): does every thread stay inside the arrays (i < n)?");
    }
    const std::vector<float> result = c.download();
    std::int64_t first_written = -1, written = 0;
    for (std::int64_t i = n; i < n + kGuard; ++i) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &result[static_cast<std::size_t>(i)], sizeof bits);
      if (bits != 0xFFFFFFFFu) {
        if (first_written < 0) first_written = i;
        ++written;
      }
    }
    CHECK_MESSAGE(written == 0, "n = " << n << ": your kernel wrote " << written << " element(s) past the end of c"
                                       << " (the first: c[" << first_written << "]"
                                       << std::string(first_written == n ? ", one past the last element" : "")
                                       << "): does your loop stop while i < n (not i <= n)?");
  }
}

TEST_CASE("exercise 01: each element is handled by one thread (the stride is the whole grid)") {
  constexpr std::int64_t n = 1 << 20;
  const auto count = static_cast<std::size_t>(n);
  lab::DeviceBuffer<float> a(count), b(count), c(count);
  a.upload(lab::random_floats(count, 11));
  b.upload(lab::random_floats(count, 12));
  lab::Stream stream;
  lab::MeasureConfig config;
  config.warmup = 2;
  config.samples = 7;
  // The reference: chapter 01's grid-stride kernel with the exercise's launch, 4 blocks of 128 threads.
  const double reference_ms = lab::median(lab::measure_ms(
      [&](cudaStream_t s) {
        ch01::add_grid_stride<<<4, 128, 0, s>>>(a.data(), b.data(), c.data(), n);
        LAB_CHECK_LAUNCH();
      },
      stream, config));
  double yours_ms = 0;
  try {
    yours_ms = lab::median(
        lab::measure_ms([&](cudaStream_t s) { exercise01::launch_grid_stride_add(a.data(), b.data(), c.data(), n, s); },
                        stream, config));
  } catch (const lab::CudaError& error) {
    FAIL("a CUDA error while your kernel ran (" << error.what() << ")");
  }
  const double allowed_ms = 2.0 * reference_ms + 0.05;
  CHECK_MESSAGE(yours_ms <= allowed_ms,
                "n = " << n << ": your kernel took " << yours_ms << " ms (median of 7); chapter 01's add_grid_stride "
                       << "with the same 4 x 128 launch took " << reference_ms << " ms in this run (up to "
                       << allowed_ms << " ms allowed), " << yours_ms / reference_ms
                       << " x as long: the right values, but several threads compute each element; "
                          "is your stride the whole grid, gridDim.x * blockDim.x (not blockDim.x or gridDim.x)?");
}
