// Chapter 01 on the GPU: the lesson's own functions (vector_add.cuh), checked.
#include <doctest/doctest.h>

#include <vector>

#include "check.cuh"
#include "checks.hpp"
#include "device.cuh"
#include "stream.cuh"
#include "vector_add.cuh"
#include "verify.hpp"

namespace {

lab::Comparison run_variant(ch01::AddVariant variant, std::int64_t n, int block, const lab::DeviceInfo& device) {
  const ch01::LaunchConfig config = ch01::choose_config(variant, n, block, device);
  return ch01::check_add([&](const float* a, const float* b, float* c, std::int64_t count,
                             cudaStream_t stream) { ch01::launch_add(variant, a, b, c, count, config, stream); },
                         n, 11);
}

}  // namespace

TEST_CASE("every variant is exact at awkward sizes and block sizes") {
  const lab::DeviceInfo device = lab::require_device();
  for (ch01::AddVariant variant : ch01::kAllVariants) {
    for (std::int64_t n : {1LL, 3LL, 1023LL, 1024LL, 1025LL, (1LL << 20) + 3}) {
      for (int block : {32, 256, 1024}) {
        CAPTURE(ch01::variant_name(variant));
        CAPTURE(n);
        CAPTURE(block);
        const lab::Comparison result = run_variant(variant, n, block, device);
        CHECK_MESSAGE(result.passed(), result.detail());
      }
    }
  }
}

TEST_CASE("grid-stride grids fill the GPU once and never exceed the work") {
  const lab::DeviceInfo device = lab::require_device();
  const auto big = ch01::choose_config(ch01::AddVariant::grid_stride, 1LL << 26, 256, device);
  CHECK(big.grid >= device.sm_count);
  CHECK(big.grid * 256 < (1LL << 26));  // fewer threads than elements: each thread loops
  CHECK(ch01::choose_config(ch01::AddVariant::grid_stride, 100, 256, device).grid == 1);
  CHECK(ch01::choose_config(ch01::AddVariant::one_thread_per_element, 1025, 256, device).grid == 5);
}

TEST_CASE("a launch returns before a long kernel ends") {
  lab::Stream stream;
  const ch01::LaunchReturnTiming t = ch01::time_launch_return(20.0, stream);
  CAPTURE(t.launch_call_ms);
  CAPTURE(t.kernel_ms);
  CHECK(t.kernel_ms >= 10.0);                    // the kernel really ran that long
  CHECK(t.launch_call_ms < t.kernel_ms / 10.0);  // but the launch did not wait for it
  CHECK(t.until_sync_ms >= t.kernel_ms * 0.9);   // the synchronisation did
}

TEST_CASE("too many threads per block is reported, and the program carries on") {
  const lab::DeviceInfo device = lab::require_device();
  const ch01::LaunchErrorDemo demo = ch01::launch_with_bad_config(2 * device.max_threads_per_block);
  // The Runtime API's cudaErrorInvalidConfiguration says "requesting too many
  // threads or blocks" gives that error; CUDA 13.0 on the H100 we ran said
  // cudaErrorInvalidValue. Either way the launch must be refused.
  CHECK((demo.error_code == cudaErrorInvalidConfiguration || demo.error_code == cudaErrorInvalidValue));
  CHECK(demo.later_launch_ok);
  CHECK(cudaGetLastError() == cudaSuccess);  // the error was consumed, not left behind
  // A valid configuration reports no error.
  CHECK(ch01::launch_with_bad_config(256).error_code == cudaSuccess);
}

TEST_CASE("the variants experiment checks every variant, and a NaN left in the output would fail it") {
  const lab::DeviceInfo device = lab::require_device();
  lab::Stream stream;
  const ch01::VariantsRun run = ch01::compare_variants((1 << 20) + 3, 256, 3, 5, device, stream);
  REQUIRE(run.variants.size() == 3);
  CHECK(run.copy_samples.size() == 3);
  for (const ch01::VariantRun& v : run.variants) {
    CAPTURE(v.name);
    CHECK(v.first.passed());
    CHECK(v.after.passed());
    CHECK(v.samples.size() == 3);
  }
  // The checks turn these into passing correctness checks.
  for (const lab::Finding& f : ch01::variants_checks(run)) CHECK(f.passed);
}

TEST_CASE("still correct after timing: a timed launch that writes nothing fails it") {
  lab::require_device();
  lab::Stream stream;
  constexpr std::int64_t n = 4099;
  const std::vector<float> expected(n, 3.0f);
  lab::DeviceBuffer<float> c(n), answer(n);
  answer.upload(expected);
  c.upload(expected);  // c already holds the right answer, as after the untimed first run
  lab::MeasureConfig measure;
  measure.samples = 3;
  const ch01::TimedCheck nothing = ch01::time_then_check([](cudaStream_t) {}, c, expected, stream, measure);
  CHECK(nothing.samples.size() == 3);
  CHECK_FALSE(nothing.after.passed());
  const ch01::TimedCheck writes = ch01::time_then_check(
      [&](cudaStream_t s) {
        LAB_CHECK(cudaMemcpyAsync(c.data(), answer.data(), c.bytes(), cudaMemcpyDeviceToDevice, s));
      },
      c, expected, stream, measure);
  CHECK(writes.after.passed());
  // The finding fails on it.
  ch01::VariantsRun run;
  run.n = n;
  run.l2_bytes = 50e6;
  run.copy_samples = {0.01};
  ch01::VariantRun v;
  v.name = "writes nothing";
  v.samples = nothing.samples;
  v.first = writes.after;
  v.after = nothing.after;
  run.variants.push_back(v);
  bool found = false;
  for (const lab::Finding& f : ch01::variants_checks(run)) {
    if (f.id != "correct_after_timing.writes_nothing") continue;
    found = true;
    CHECK_FALSE(f.passed);
  }
  CHECK(found);
}
