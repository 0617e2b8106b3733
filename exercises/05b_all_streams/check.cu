// The check for exercise 05b, built from this file against your
// time_all_streams.cu (test ch05b_exercise_check, label "exercise"), against
// solutions/ (test ch05b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch05b_pristine_check,
// label "pristine": it must fail). It runs chapter 05's pipeline (ch05::Pipeline,
// blocking streams) under two schedules: V2 (ch05::enqueue_v2), where the last
// chunk tends to finish last, and V1 with the chunks queued last to first, where
// chunk 0 finishes last. Each is timed by your function and, in the same run,
// as the chapter times its schedules (ch05::time_schedule): between two events
// on the legacy default stream, which waits for every blocking stream and they
// for it. Your reading must match that one.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "overlap.cuh"
#include "stream.cuh"
#include "time_all_streams.cuh"

namespace {

// V1 with the chunks queued last to first: chunk 0's stream, queued last, ends last.
void v1_last_to_first(ch05::Pipeline& pipeline) {
  for (int i = pipeline.chunks() - 1; i >= 0; --i) {
    pipeline.copy_in(i);
    pipeline.run_kernel(i);
    pipeline.copy_out(i);
  }
}

// The chapter's method: two events on the legacy default stream (stream 0 in this
// build, which is not built with --default-stream per-thread) bracket every blocking stream.
double legacy_stream_ms(ch05::Pipeline& pipeline, const exercise05b::Schedule& schedule) {
  lab::Event start, stop;
  start.record(0);
  schedule(pipeline);
  stop.record(0);
  stop.synchronize();
  return lab::Event::elapsed_ms(start, stop);
}

// The first chunk whose stream still has work queued, or -1 when every stream is idle.
int busy_chunk(const ch05::Pipeline& pipeline) {
  for (int i = 0; i < pipeline.chunks(); ++i) {
    const cudaError_t state = cudaStreamQuery(pipeline.stream(i));
    if (state == cudaErrorNotReady) return i;
    LAB_CHECK(state);
  }
  return -1;
}

}  // namespace

TEST_CASE("exercise 05b: the function runs the schedule once, and every chunk's work is done when it returns") {
  ch05::OverlapProblem problem((std::size_t{1} << 20) + 7, 21);
  ch05::Pipeline pipeline(problem, 3, 1);
  problem.poison_output();
  const double ms = exercise05b::time_all_streams_ms(pipeline, v1_last_to_first);
  const int busy = busy_chunk(pipeline);
  LAB_CHECK(cudaDeviceSynchronize());
  CHECK_MESSAGE(ms > 0.0, "time_all_streams_ms returned " << ms << " ms: expected the time between your two events");
  CHECK_MESSAGE(pipeline.log().size() == 9u, "the schedule queued "
                                                 << pipeline.log().size()
                                                 << " operations for 3 chunks; expected 9: call the schedule once");
  const lab::Comparison result = problem.check(1);
  CHECK_MESSAGE(result.passed(), "the pipeline's output is wrong after your function ("
                                     << result.detail()
                                     << "): call the schedule once, "
                                        "on the pipeline you were given");
  CHECK_MESSAGE(busy < 0, "when time_all_streams_ms returned, chunk "
                              << busy << "'s stream was still working (cudaStreamQuery answered cudaErrorNotReady): "
                              << "the stop event completed before that chunk's work, so it did not wait for it; "
                              << "make the stop event's stream wait for every chunk's stream before you record it");
}

TEST_CASE("exercise 05b: the events bracket every chunk's stream, whichever chunk ends last") {
  ch05::OverlapProblem problem(std::size_t{16} << 20, 22);  // 64 MiB each way
  ch05::Pipeline pipeline(problem, 4, 20);                  // a kernel of about the copies' length
  struct Case {
    const char* name;
    exercise05b::Schedule schedule;
  };
  const Case cases[] = {{"V2 (ch05::enqueue_v2)", ch05::enqueue_v2},
                        {"V1 with the chunks queued last to first (chunk 3 first, chunk 0 last)", v1_last_to_first}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    (void)exercise05b::time_all_streams_ms(pipeline, c.schedule);  // warm-up
    LAB_CHECK(cudaDeviceSynchronize());
    // The best of three each, interleaved: the link is shared and a single run can be slow.
    double yours = 1e30, reference = 1e30;
    int busy = -1;
    for (int run = 0; run < 3; ++run) {
      reference = std::min(reference, legacy_stream_ms(pipeline, c.schedule));
      yours = std::min(yours, exercise05b::time_all_streams_ms(pipeline, c.schedule));
      if (busy < 0) busy = busy_chunk(pipeline);
      LAB_CHECK(cudaDeviceSynchronize());
    }
    CAPTURE(yours);
    CAPTURE(reference);
    CHECK_MESSAGE(yours >= 0.85 * reference,
                  c.name << ": your events read " << yours << " ms; the same schedule between two events on the "
                         << "legacy default stream, which waits for every chunk's stream, read " << reference
                         << " ms in this run; expected at least 0.85 x that, " << 0.85 * reference
                         << " ms: your stop event did not wait for every chunk's stream"
                         << (busy >= 0 ? " (chunk " + std::to_string(busy) + "'s was still working when you returned)"
                                       : std::string())
                         << "; record an event on each chunk's stream and make the stop event's stream wait for all "
                            "of them (cudaStreamWaitEvent) before you record it");
    CHECK_MESSAGE(yours <= 1.3 * reference + 0.05,
                  c.name << ": your events read " << yours << " ms; the same schedule between two events on the "
                         << "legacy default stream read " << reference
                         << " ms in this run; expected at most 1.3 x that + 0.05 ms: do your events bracket more "
                            "than one run of the schedule?");
  }
}
