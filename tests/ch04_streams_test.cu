// Chapter 04 on the GPU: the lesson's own functions (normalize.cuh, streams.cuh),
// checked with large effects measured in the same run.
#include <doctest/doctest.h>

#include <vector>

#include "checks.hpp"
#include "device.cuh"
#include "normalize.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "streams.cuh"
#include "tables.hpp"

TEST_CASE("the three-kernel normalisation matches the double-precision CPU reference") {
  lab::require_device();
  lab::Stream stream;
  // 1, 3: no whole float4; 255/256: one partial block, just under and at a
  // full block; 1027: a float4 part and a tail of 3; 10^7 + 1: more blocks than
  // kMaxPartials and a ragged tail.
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{255}, std::size_t{256}, std::size_t{1027},
                        std::size_t{10'000'001}}) {
    CAPTURE(n);
    ch04::NormalizeProblem problem(n, 42 + n);
    const ch04::FirstRun run = ch04::normalize_once(problem, stream);
    CHECK_MESSAGE(ch04::normalisation_passed(run.result), ch04::normalisation_detail(run.result));
    CHECK(run.result.max_relative_error < ch04::kNormalizeTolerance);
  }
}

TEST_CASE("the normalisation is correct with stream-ordered and with cudaMalloc temporaries") {
  lab::require_device();
  lab::Stream stream;
  ch04::NormalizeProblem problem(1'000'003, 7);
  for (ch04::Temporaries kind : {ch04::Temporaries::cuda_malloc, ch04::Temporaries::stream_ordered}) {
    CAPTURE(ch04::temporaries_name(kind));
    const ch04::TemporariesRun run = ch04::time_temporaries(problem, kind, 20.0, stream);
    CHECK_MESSAGE(ch04::normalisation_passed(run.result), ch04::normalisation_detail(run.result));
    CAPTURE(run.call_ms);
    if (kind == ch04::Temporaries::cuda_malloc) {
      CHECK(run.call_ms > 10.0);  // it waits for its kernels, behind the 20 ms queued, before cudaFree
    } else {
      CHECK(run.call_ms < 5.0);  // cudaFreeAsync did not
    }
  }
}

TEST_CASE("cudaFree waits for queued work, cudaFreeAsync does not; the pool's attributes come back as they were") {
  lab::require_device();
  lab::Stream stream;
  const ch04::AllocationTimes times = ch04::time_allocation_calls(2048, 20.0, 20, 2, stream);
  CAPTURE(lab::median(times.free_queued_us));
  CAPTURE(lab::median(times.free_async_queued_us));
  CHECK(lab::median(times.free_queued_us) > 10'000.0);       // waited for most of the 20 ms spin
  CHECK(lab::median(times.free_async_queued_us) < 5'000.0);  // queued the free and went on
  const ch04::ThresholdRun threshold = ch04::measure_release_threshold(64 << 20, 3, stream);
  CHECK(threshold.restored);
  CAPTURE(threshold.keep_all.reserved_after_sync);
  CHECK(threshold.keep_all.reserved_after_sync >= (64u << 20));  // UINT64_MAX: the pool kept the block
  const ch04::ReuseRun reuse = ch04::observe_reuse(2048);
  CHECK(reuse.restored);
  CHECK(reuse.same_stream.measured);
  CHECK(reuse.other_stream.measured);
}

TEST_CASE("without ordering the slow producer's consumer is wrong; with an event it never is") {
  lab::require_device();
  ch04::ProducerConsumer race(1 << 20, 3);
  int raced_wrong = 0;
  for (int r = 0; r < 5; ++r) raced_wrong += race.run(ch04::no_ordering, 5.0).passed() ? 0 : 1;
  CHECK(raced_wrong == 5);  // a 5 ms head start for the consumer: it reads the poison every time
  for (int r = 0; r < 50; ++r) {
    const lab::Comparison fixed = race.run(ch04::wait_for_producer, 2.0);
    REQUIRE_MESSAGE(fixed.passed(), fixed.detail());
  }
}

TEST_CASE("the legacy default stream serialises with blocking streams; the other cases run at once") {
  lab::require_device();
  const ch04::DefaultStreamRun legacy = ch04::default_stream_legacy_build(cudaStreamDefault, 10.0);
  const ch04::DefaultStreamRun non_blocking = ch04::default_stream_legacy_build(cudaStreamNonBlocking, 10.0);
  const ch04::DefaultStreamRun per_thread = ch04::default_stream_per_thread_build(cudaStreamDefault, 10.0, false);
  const ch04::DefaultStreamRun legacy_by_name = ch04::default_stream_per_thread_build(cudaStreamDefault, 10.0, true);
  for (const auto* run : {&legacy, &non_blocking, &per_thread, &legacy_by_name}) {
    CAPTURE(ch04::case_name(*run));
    CAPTURE(run->wall_ms);
    CHECK(run->all_ran);
  }
  CHECK(ch04::serialised(legacy));
  CHECK(legacy.wall_ms > 25.0);  // three 10 ms kernels one after another
  CHECK(ch04::serialised(legacy_by_name));
  CHECK(ch04::concurrent(non_blocking));
  CHECK(non_blocking.wall_ms < 20.0);
  CHECK(ch04::concurrent(per_thread));
  CHECK(per_thread.wall_ms < 20.0);
}

TEST_CASE("ten arrays in ten streams are not slower than in one stream, and all are correct") {
  lab::require_device();
  std::vector<ch04::NormalizeProblem> arrays;
  for (int i = 0; i < 10; ++i) arrays.emplace_back(10'000'000, 100 + i);
  ch04::run_arrays(arrays, 10);  // warm-up
  const ch04::ArraysRun one = ch04::run_arrays(arrays, 1);
  const ch04::ArraysRun ten = ch04::run_arrays(arrays, 10);
  CHECK(ch04::all_arrays_correct(one));
  CHECK(ch04::all_arrays_correct(ten));
  CAPTURE(one.total_ms);
  CAPTURE(ten.total_ms);
  CHECK(ten.total_ms <= one.total_ms);
  // In one stream nothing can overlap; the per-array times add up to the total.
  double sum = 0;
  for (double t : one.per_array_ms) sum += t;
  CHECK(sum <= one.total_ms * 1.01);
  // CUPTI's record of one stream: no copy in beside a copy out.
  const ch04::ArraysRecording recorded = ch04::record_arrays(arrays, 1);
  if (recorded.recorded) {
    CHECK(recorded.all_correct);
    CHECK(lab::overlap_ms(recorded.work, "H", "D") < 0.01 * lab::busy_ms(recorded.work, "HD"));
  }
}
