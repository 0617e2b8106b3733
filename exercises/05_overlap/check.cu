// The check for exercise 05, built from this file against your schedule_v2.cu
// (test ch05_exercise_check, label "exercise"), against solutions/ (test
// ch05_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch05_pristine_check, label
// "pristine": it must fail). It runs your schedule on chapter 05's pipeline and
// checks the result against the chapter's CPU reference (the output is poisoned
// with NaN first), the order of the operations, and that it overlaps.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

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
  const std::size_t chunk = (n + static_cast<std::size_t>(chunks) - 1) / static_cast<std::size_t>(chunks);
  text << result.mismatches << " of " << result.count << " values are wrong; out[" << first.index << "] (chunk "
       << first.index / chunk << ")";
  if (std::isnan(first.actual)) {
    text << " is NaN (the poison value): it was never copied back; does every chunk get its kernel, "
            "then its copy out?";
  } else {
    text << " = " << first.actual << ", expected " << first.expected
         << " (input + 1 after one kernel step): did the kernel run on this chunk exactly once, "
            "before its copy out?";
  }
  return text.str();
}

std::string joined(const std::vector<std::string>& calls) {
  std::string text;
  for (const std::string& call : calls) text += (text.empty() ? "" : ", ") + call;
  return text.empty() ? "nothing" : text;
}

}  // namespace

TEST_CASE("exercise 05: V2 gives the right result for chunk counts that do and do not divide the data") {
  ch05::OverlapProblem problem((std::size_t{1} << 20) + 7, 11);
  for (int chunks : {1, 3, 4, 16}) {
    CAPTURE(chunks);
    problem.poison_output();
    ch05::Pipeline pipeline(problem, chunks, 1);
    exercise05::schedule_v2(pipeline);
    LAB_CHECK(cudaDeviceSynchronize());
    const lab::Comparison result = problem.check(1);
    CHECK_MESSAGE(result.passed(), explain_result(result, chunks, problem.size()));
  }
}

TEST_CASE("exercise 05: V2 queues stage by stage: all copies in, all kernels, all copies out") {
  ch05::OverlapProblem problem(1 << 16, 12);
  ch05::Pipeline pipeline(problem, 3, 1);
  exercise05::schedule_v2(pipeline);
  LAB_CHECK(cudaDeviceSynchronize());
  const std::vector<std::string> expected = {"in 0",     "in 1",  "in 2",  "kernel 0", "kernel 1",
                                             "kernel 2", "out 0", "out 1", "out 2"};
  CHECK_MESSAGE(pipeline.log() == expected, "with 3 chunks your schedule queued: " << joined(pipeline.log())
                                                << "; V2 queues: " << joined(expected));
}

TEST_CASE("exercise 05: V2 with 8 chunks beats the sequential schedule by a wide margin") {
  ch05::OverlapProblem problem(std::size_t{32} << 20, 13);  // 128 MiB each way
  auto time = [&](int chunks, bool yours) {
    ch05::Pipeline pipeline(problem, chunks, 20);  // a kernel of about the copies' length
    LAB_CHECK(cudaDeviceSynchronize());
    lab::Event start, stop;
    start.record(0);
    if (yours) {
      exercise05::schedule_v2(pipeline);
    } else {
      ch05::enqueue_v1(pipeline);  // one chunk: the sequential schedule
    }
    stop.record(0);
    stop.synchronize();
    return lab::Event::elapsed_ms(start, stop);
  };
  time(8, true);  // warm-up
  // The best of three runs each: the link is shared and a single run can be slow.
  double sequential = 1e30, v2 = 1e30;
  for (int run = 0; run < 3; ++run) {
    sequential = std::min(sequential, static_cast<double>(time(1, false)));
    v2 = std::min(v2, static_cast<double>(time(8, true)));
  }
  CAPTURE(sequential);
  CAPTURE(v2);
  CHECK_MESSAGE(v2 < 0.8 * sequential, "your V2 with 8 chunks took " << v2 << " ms, the sequential schedule "
                                           << sequential << " ms; expected under 0.8 x that, "
                                           << 0.8 * sequential << " ms: does your schedule wait "
                                              "(synchronise) between its loops, so nothing overlaps?");
}
