// The check for exercise 04b, built from this file against your
// time_across_streams.cu (test ch04b_exercise_check, label "exercise"), against
// solutions/ (test ch04b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch04b_pristine_check,
// label "pristine": it must fail). The work is chapter 04's: ten arrays, each
// copied in, normalised by three kernels and copied out
// (ch04::NormalizeProblem::enqueue), array i on stream i. Array 0 is the
// smallest (512Ki floats, the others 4Mi), so a timing that ends with streams[0]'s
// own work reads far less than the whole, however the GPU shares its copy
// engines. The reference is the chapter's own timing of the same ten arrays,
// ch04::run_arrays (an event pair per array, from the earliest begin event to the
// latest end event), in the same run.
// Last, streams[4]'s work is made to end last (a spin kernel of at least
// 30 ms after its array): an end event that waits only for the last stream's
// done event reads about the ten arrays' time, far less than that spin.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "checks.hpp"
#include "clock.cuh"
#include "device.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "streams.cuh"
#include "time_across_streams.cuh"

namespace {

constexpr std::size_t kStreams = 10;
constexpr std::size_t kSmallN = std::size_t{1} << 19;  // array 0
constexpr std::size_t kN = std::size_t{1} << 22;       // arrays 1..9
constexpr int kReps = 3;
constexpr double kBacklogMs = 20.0;
constexpr double kLowest = 0.7;     // of the chapter's reading: far above array 0's own time
constexpr double kHighest = 1.4;    // far below the backlog's 20 ms plus the arrays
constexpr std::size_t kLate = 4;    // section 3: the stream whose work ends last (neither the first nor the last)
constexpr double kTailMs = 30.0;    // section 3: a spin kernel after array kLate's work, at least 3 x the ten arrays
constexpr double kTailFloor = 0.9;  // of the tail: a right end event cannot read less

// The ten arrays, the check's streams and the work on them, and the chapter's timing of it.
struct TenArrays {
  std::vector<ch04::NormalizeProblem> arrays;
  std::vector<lab::Stream> owned;
  std::vector<cudaStream_t> streams;
  std::size_t calls = 0;
  bool right_streams = true;
  double reference_ms = 0;
  double tail_ms = 0;  // > 0: a spin kernel that long follows array kLate's work on its stream (section 3)

  TenArrays() {
    for (std::size_t i = 0; i < kStreams; ++i) arrays.emplace_back(i == 0 ? kSmallN : kN, 40 + i);
    for (std::size_t i = 0; i < kStreams; ++i) {
      owned.emplace_back();
      streams.push_back(owned.back().get());
    }
    ch04::run_arrays(arrays, static_cast<int>(kStreams));  // warm-up: modules, pinned pages, clocks
    lab::launch_spin(streams[0], 0.01);                    // the backlog's kernel, loaded before any timing
    LAB_CHECK(cudaDeviceSynchronize());
    std::vector<double> totals;
    for (int rep = 0; rep < kReps; ++rep)
      totals.push_back(ch04::run_arrays(arrays, static_cast<int>(kStreams)).total_ms);
    reference_ms = lab::median(totals);
  }

  exercise04b::WorkOnStream work() {
    return [this](std::size_t i, cudaStream_t s) {
      ++calls;
      right_streams = right_streams && i < streams.size() && s == streams[i];
      arrays.at(i).enqueue(s);
      if (i == kLate && tail_ms > 0) lab::launch_spin(s, tail_ms);
    };
  }

  // kReps calls of the function, each behind a spin kernel of @p backlog_ms on streams[0] (none for 0);
  // the median reading. Every array is checked after every call, once the check has waited for the device.
  double median_reading(double backlog_ms, int* wrong_arrays) {
    std::vector<double> readings;
    for (int rep = 0; rep < kReps; ++rep) {
      for (ch04::NormalizeProblem& array : arrays) array.poison_output();
      if (backlog_ms > 0) lab::launch_spin(streams[0], backlog_ms);
      readings.push_back(exercise04b::time_across_streams(work(), streams));
      LAB_CHECK(cudaDeviceSynchronize());
      for (const ch04::NormalizeProblem& array : arrays)
        *wrong_arrays += ch04::normalisation_passed(array.check()) ? 0 : 1;
    }
    return lab::median(readings);
  }
};

}  // namespace

TEST_CASE("exercise 04b: one pair of events times the work of all ten streams, and only it") {
  lab::require_device();
  TenArrays ten;
  CAPTURE(ten.reference_ms);

  // 1. Every stream idle: the end event must come after every stream's work.
  int wrong = 0;
  const double idle_ms = ten.median_reading(0.0, &wrong);
  CAPTURE(idle_ms);
  REQUIRE_MESSAGE(ten.calls == kStreams * kReps, "the work was queued " << ten.calls << " times in " << kReps
                                                                        << " calls of your function with " << kStreams
                                                                        << " streams: queue work(i, streams[i]) "
                                                                           "once for every stream in every call");
  CHECK_MESSAGE(ten.right_streams,
                "work(i, s) was called with a stream other than streams[i]: give array i its own "
                "stream, streams[i]");
  CHECK_MESSAGE(wrong == 0, wrong << " arrays were wrong after your function returned (and the check waited for "
                                     "the device): is every array's work queued once, on its own stream?");
  CHECK_MESSAGE(
      idle_ms > kLowest * ten.reference_ms,
      "with every stream idle, your events read "
          << idle_ms << " ms for the ten arrays; the chapter's "
          << "timing of the same ten arrays (ch04::run_arrays: from the earliest begin event to the latest end "
          << "event) read " << ten.reference_ms << " ms; expected at least " << kLowest << " x that, "
          << kLowest * ten.reference_ms << " ms: your end event does not wait for every stream; after the work, "
          << "record each other stream's done event on it and make streams[0] wait for it "
          << "(cudaStreamWaitEvent) before recording the end event");
  CHECK_MESSAGE(idle_ms < kHighest * ten.reference_ms,
                "with every stream idle, your events read "
                    << idle_ms << " ms for the ten arrays; the chapter's "
                    << "timing of the same ten arrays read " << ten.reference_ms << " ms; expected under " << kHighest
                    << " x that, " << kHighest * ten.reference_ms
                    << " ms: is something besides the ten arrays between your events?");

  // 2. streams[0] still busy with 20 ms of earlier work: no stream may begin before the start event.
  wrong = 0;
  const double backlog_ms = ten.median_reading(kBacklogMs, &wrong);
  CAPTURE(backlog_ms);
  CHECK_MESSAGE(wrong == 0, wrong << " arrays were wrong after your function returned behind earlier work (and the "
                                     "check waited for the device): is every array's work queued once?");
  CHECK_MESSAGE(
      backlog_ms > kLowest * ten.reference_ms,
      "with " << kBacklogMs << " ms of earlier work still queued on streams[0], your events read " << backlog_ms
              << " ms for ten arrays that take " << ten.reference_ms << " ms (expected at least " << kLowest
              << " x that, " << kLowest * ten.reference_ms << " ms): the other streams began their arrays while "
              << "streams[0] was still busy, before it reached your start event; make every other stream wait for "
              << "the start event (cudaStreamWaitEvent) before its work is queued");
  CHECK_MESSAGE(backlog_ms < kHighest * ten.reference_ms,
                "with " << kBacklogMs << " ms of earlier work still queued on streams[0], your events read "
                        << backlog_ms << " ms for ten arrays that take " << ten.reference_ms << " ms (expected under "
                        << kHighest << " x that, " << kHighest * ten.reference_ms
                        << " ms): the earlier work landed between your events; record "
                        << "the start event on streams[0], behind it, and let the other streams wait for that event");

  // 3. streams[kLate]'s work made to end last (a spin kernel after its array): the last stream ending last is
  //    no promise (on the H100 measured it did), so an end event that waits only for the last stream's is wrong.
  const double tail_ms = std::max(kTailMs, 3.0 * ten.reference_ms);
  CAPTURE(tail_ms);
  ten.tail_ms = tail_ms;
  wrong = 0;
  const double tail_reading_ms = ten.median_reading(0.0, &wrong);
  ten.tail_ms = 0;
  CAPTURE(tail_reading_ms);
  CHECK_MESSAGE(wrong == 0, wrong << " arrays were wrong after your function returned (and the check waited for "
                                     "the device): is every array's work queued once, on its own stream?");
  CHECK_MESSAGE(tail_reading_ms > kTailFloor * tail_ms,
                "with streams[" << kLate << "]'s work made to end last (a spin kernel of " << tail_ms
                                << " ms after its array), your events read " << tail_reading_ms
                                << " ms; expected at least " << kTailFloor << " x that spin: "
                                << "your end event did not wait for streams[" << kLate << "]; the last stream "
                                << "need not end last: make streams[0] wait for every other stream's done event "
                                << "(cudaStreamWaitEvent), not only the last one's, before recording the end event");
}
