// The check for exercise 05, built from this file against your schedule_v2.cu
// (test ch05_exercise_check, label "exercise"), against solutions/ (test
// ch05_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch05_pristine_check, label
// "pristine": it must fail). It runs your schedule on chapter 05's data and
// checks the result against the chapter's CPU reference (the output is poisoned
// with NaN first), the order of your calls as CUPTI records them (with every
// chunk on one stream, the GPU runs the work in the order it was queued), and
// that with a stream per chunk it overlaps.
//
// Read from your source before the check is built (exercises/source_rules.cmake):
// a call of chapter 05's own schedules (ch05::queue_v2 and the rest) queues the
// same calls as a right answer, so no run could tell; the build refuses it.
// clang-format off
// source rule: refuse-if [^A-Za-z0-9_](queue_sequential|queue_v1|queue_v2|enqueue_v1|enqueue_v2|time_schedule|record_schedule|record_schedules|sweep_schedules) *\( => your schedule_v2 calls one of chapter 05's own schedules (ch05::queue_v2 and the rest are the chapter's answer, not yours): write the three loops yourself, with cudaMemcpyAsync and ch05::transform on stream[i]
// clang-format on
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "check.cuh"
#include "cupti_timeline.cuh"
#include "overlap.cuh"
#include "schedule_v2.cuh"
#include "stream.cuh"

namespace {

// "chunks = 3: out[0] (chunk 0) is NaN (the poison value): it never came back ..."
std::string explain_result(const lab::Comparison& result, int chunks, std::size_t n) {
  std::ostringstream text;
  text << "chunks = " << chunks << ": ";
  if (result.first.empty()) return text.str() + result.detail();
  const lab::Mismatch& first = result.first.front();
  const std::size_t chunk = n / static_cast<std::size_t>(chunks);
  text << result.mismatches << " of " << result.count << " values are wrong; out[" << first.index << "] (chunk "
       << first.index / chunk << ")";
  if (std::isnan(first.actual)) {
    text << " is NaN (the poison value): it was never copied back; does every chunk get its kernel, "
            "then its copy out (cudaMemcpyDeviceToHost on stream[i])?";
  } else {
    text << " = " << first.actual << ", expected " << first.expected
         << " (input + 1 after one kernel step): did the kernel run on this chunk exactly once, "
            "after its copy in and before its copy out?";
  }
  return text.str();
}

std::string joined(const std::vector<std::string>& calls) {
  std::string text;
  for (const std::string& call : calls) text += (text.empty() ? "" : ", ") + call;
  return text.empty() ? "nothing" : text;
}

}  // namespace

TEST_CASE("exercise 05: V2 gives the right result over 1, 3, 4 and 16 equal chunks") {
  ch05::OverlapProblem problem(std::size_t{96} << 10, 11);  // 98304 floats = 3 x 2^15: every count divides it
  for (int chunks : {1, 3, 4, 16}) {
    CAPTURE(chunks);
    const std::vector<lab::Stream> owned(static_cast<std::size_t>(chunks));
    problem.poison_output();
    exercise05::schedule_v2(problem, ch05::handles(owned), 1);
    LAB_CHECK(cudaDeviceSynchronize());
    const lab::Comparison result = problem.check(1);
    CHECK_MESSAGE(result.passed(), explain_result(result, chunks, problem.size()));
  }
}

TEST_CASE("exercise 05: V2 queues stage by stage: all copies in, all kernels, all copies out") {
  ch05::OverlapProblem problem(std::size_t{3} << 14, 12);  // 3 equal chunks
  const lab::Stream one;
  const std::vector<cudaStream_t> stream(3, one);  // three chunks on one stream: they run in the order queued
  LAB_CHECK(cudaDeviceSynchronize());
  lab::TimelineRecorder recorder;
  std::string why;
  REQUIRE_MESSAGE(recorder.start(&why), "CUPTI could not record ("
                                            << why
                                            << "), and this test reads the order of "
                                               "your calls from its records: run the check outside a profiler");
  exercise05::schedule_v2(problem, stream, 1);
  std::vector<lab::Interval> work = recorder.stop();
  REQUIRE_MESSAGE(recorder.dropped() == 0, "CUPTI dropped " << recorder.dropped() << " records: run the check again");
  std::sort(work.begin(), work.end(),
            [](const lab::Interval& x, const lab::Interval& y) { return x.start_ns < y.start_ns; });
  std::vector<std::string> ran;
  for (const lab::Interval& w : work) {
    const char symbol = lab::chart_symbol(w);
    ran.push_back(symbol == 'H' ? "in" : symbol == 'D' ? "out" : symbol == 'K' ? "kernel" : std::string(1, symbol));
  }
  const std::vector<std::string> expected = {"in", "in", "in", "kernel", "kernel", "kernel", "out", "out", "out"};
  CHECK_MESSAGE(ran == expected, "with 3 chunks all on one stream, CUPTI saw your function's work run as: "
                                     << joined(ran) << "; V2 queues: " << joined(expected)
                                     << " (one cudaMemcpyAsync in, one launch and one cudaMemcpyAsync out per chunk, "
                                        "each stage a loop of its own)");
}

TEST_CASE("exercise 05: V2 with 8 chunks beats the sequential schedule by a wide margin") {
  ch05::OverlapProblem problem(std::size_t{32} << 20, 13);  // 128 MiB each way
  const int steps = 20;                                     // a kernel of about the copies' length
  const std::vector<lab::Stream> owned(8), one(1);
  auto time_yours = [&] {
    LAB_CHECK(cudaDeviceSynchronize());
    lab::Event start, stop;
    LAB_CHECK(cudaEventRecord(start, 0));  // the legacy default stream brackets the blocking streams
    exercise05::schedule_v2(problem, ch05::handles(owned), steps);
    LAB_CHECK(cudaEventRecord(stop, 0));
    LAB_CHECK(cudaEventSynchronize(stop));
    return static_cast<double>(lab::Event::elapsed_ms(start, stop));
  };
  time_yours();  // warm-up
  // The best of three runs each: the link is shared and a single run can be slow.
  double sequential = 1e30, v2 = 1e30;
  for (int run = 0; run < 3; ++run) {
    const ch05::ScheduleRun reference =
        ch05::time_schedule(problem, ch05::Schedule::sequential, ch05::handles(one), steps, 0, 1);
    sequential = std::min(sequential, reference.samples_ms.at(0));
    v2 = std::min(v2, time_yours());
  }
  CAPTURE(sequential);
  CAPTURE(v2);
  CHECK_MESSAGE(v2 < 0.8 * sequential, "your V2 with 8 chunks took "
                                           << v2 << " ms, the sequential schedule " << sequential
                                           << " ms; expected under 0.8 x that, " << 0.8 * sequential
                                           << " ms: does your schedule wait (synchronise) between its loops, or "
                                              "put every chunk on one stream instead of stream[i], so nothing "
                                              "overlaps?");
}
