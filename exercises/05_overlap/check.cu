// The check for exercise 05, built twice: against your file in exercises/
// (test ch05_exercise_check, label "exercise") and against solutions/
// (test ch05_solution_check, label "solution", part of the default test run).
// It runs your schedule on chapter 05's pipeline and checks the result against
// the chapter's CPU reference, the order of the operations, and that it overlaps.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "overlap.cuh"
#include "schedule_v2.cuh"
#include "stream.cuh"

TEST_CASE("exercise 05: V2 gives the right result for chunk counts that do and do not divide the data") {
  ch05::OverlapProblem problem((std::size_t{1} << 20) + 7, 11);
  for (int chunks : {1, 3, 4, 16}) {
    CAPTURE(chunks);
    problem.poison_output();
    ch05::Pipeline pipeline(problem, chunks, 1);
    exercise05::schedule_v2(pipeline);
    LAB_CHECK(cudaDeviceSynchronize());
    const lab::Comparison result = problem.check(1);
    CHECK_MESSAGE(result.passed(), result.detail());
  }
}

TEST_CASE("exercise 05: V2 queues stage by stage: all copies in, all kernels, all copies out") {
  ch05::OverlapProblem problem(1 << 16, 12);
  ch05::Pipeline pipeline(problem, 3, 1);
  exercise05::schedule_v2(pipeline);
  LAB_CHECK(cudaDeviceSynchronize());
  const std::vector<std::string> expected = {"in 0",     "in 1",  "in 2",  "kernel 0", "kernel 1",
                                             "kernel 2", "out 0", "out 1", "out 2"};
  CHECK(pipeline.log() == expected);
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
  CHECK(v2 < 0.8 * sequential);
}
