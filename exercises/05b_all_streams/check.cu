// The check for exercise 05b, built from this file against your
// time_all_streams.cu (test ch05b_exercise_check, label "exercise"), against
// solutions/ (test ch05b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch05b_pristine_check,
// label "pristine": it must fail). It runs chapter 05's data on blocking
// streams under two schedules written out below: V2, where the last chunk
// tends to finish last, and V1 with the chunks queued last to first, where
// chunk 0 finishes last. Each is timed by your function and, in the same run,
// as the chapter times its schedules (ch05::time_schedule): between two events
// on the legacy default stream, which waits for every blocking stream and they
// for it. Your reading must match that one.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "check.cuh"
#include "overlap.cuh"
#include "stream.cuh"
#include "time_all_streams.cuh"

namespace {

// Chapter 05's V2 (ch05::queue_v2): every copy in, every kernel, every copy out.
exercise05b::Schedule v2(ch05::OverlapProblem& p, int steps) {
  return [&p, steps](const std::vector<cudaStream_t>& stream) { ch05::queue_v2(p, stream, steps); };
}

// Chapter 05's V1 (ch05::queue_v1's loop body) with the chunks queued last to first: chunk 0's
// stream, queued last, ends last. The chunks are equal, as in ch05::queue_v1.
exercise05b::Schedule v1_last_to_first(ch05::OverlapProblem& p, int steps) {
  return [&p, steps](const std::vector<cudaStream_t>& stream) {
    const std::size_t chunk = p.size() / stream.size(), chunk_bytes = chunk * sizeof(float);
    const float* a = p.host_input();
    float *d_a = p.device_data(), *out = p.host_output();
    for (std::size_t i = stream.size(); i-- > 0;) {
      const std::size_t offset = i * chunk;
      LAB_CHECK(cudaMemcpyAsync(&d_a[offset], &a[offset], chunk_bytes, cudaMemcpyHostToDevice, stream[i]));
      ch05::transform<<<ch05::grid_for(chunk), ch05::kBlock, 0, stream[i]>>>(&d_a[offset], chunk, steps);
      LAB_CHECK_LAUNCH();
      LAB_CHECK(cudaMemcpyAsync(&out[offset], &d_a[offset], chunk_bytes, cudaMemcpyDeviceToHost, stream[i]));
    }
  };
}

// The chapter's method: two events on the legacy default stream (stream 0 in this
// build, which is not built with --default-stream per-thread) bracket every blocking stream.
double legacy_stream_ms(const std::vector<cudaStream_t>& stream, const exercise05b::Schedule& schedule) {
  lab::Event start, stop;
  LAB_CHECK(cudaEventRecord(start, 0));
  schedule(stream);
  LAB_CHECK(cudaEventRecord(stop, 0));
  LAB_CHECK(cudaEventSynchronize(stop));
  return lab::Event::elapsed_ms(start, stop);
}

// The first chunk whose stream still has work queued, or -1 when every stream is idle.
int busy_chunk(const std::vector<cudaStream_t>& stream) {
  for (int i = 0; i < static_cast<int>(stream.size()); ++i) {
    const cudaError_t state = cudaStreamQuery(stream[i]);
    if (state == cudaErrorNotReady) return i;
    LAB_CHECK(state);
  }
  return -1;
}

}  // namespace

TEST_CASE("exercise 05b: the function runs the schedule once, and every chunk's work is done when it returns") {
  ch05::OverlapProblem problem(std::size_t{96} << 10, 21);  // 98304 floats: 3 equal chunks
  const std::vector<lab::Stream> owned(3);
  const std::vector<cudaStream_t> stream = ch05::handles(owned);
  problem.poison_output();
  int calls = 0;
  const exercise05b::Schedule once = v1_last_to_first(problem, 1);
  const double ms = exercise05b::time_all_streams_ms(stream, [&](const std::vector<cudaStream_t>& s) {
    calls += 1;
    once(s);
  });
  const int busy = busy_chunk(stream);
  LAB_CHECK(cudaDeviceSynchronize());
  CHECK_MESSAGE(ms > 0.0, "time_all_streams_ms returned " << ms << " ms: expected the time between your two events");
  CHECK_MESSAGE(calls == 1, "your function called the schedule " << calls << " times; expected once");
  const lab::Comparison result = problem.check(1);
  CHECK_MESSAGE(result.passed(), "the output is wrong after your function ("
                                     << result.detail()
                                     << "): call the schedule once, with the streams you were given");
  CHECK_MESSAGE(busy < 0, "when time_all_streams_ms returned, chunk "
                              << busy << "'s stream was still working (cudaStreamQuery answered cudaErrorNotReady): "
                              << "the stop event completed before that chunk's work, so it did not wait for it; "
                              << "make the stop event's stream wait for every chunk's stream before you record it");
}

TEST_CASE("exercise 05b: the events bracket every chunk's stream, whichever chunk ends last") {
  ch05::OverlapProblem problem(std::size_t{16} << 20, 22);  // 64 MiB each way
  const std::vector<lab::Stream> owned(4);
  const std::vector<cudaStream_t> stream = ch05::handles(owned);
  const int steps = 20;  // a kernel of about the copies' length
  struct Case {
    const char* name;
    exercise05b::Schedule schedule;
  };
  const Case cases[] = {
      {"V2", v2(problem, steps)},
      {"V1 with the chunks queued last to first (chunk 3 first, chunk 0 last)", v1_last_to_first(problem, steps)}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    (void)exercise05b::time_all_streams_ms(stream, c.schedule);  // warm-up
    LAB_CHECK(cudaDeviceSynchronize());
    // The best of three each, interleaved: the link is shared and a single run can be slow.
    double yours = 1e30, reference = 1e30;
    int busy = -1;
    for (int run = 0; run < 3; ++run) {
      reference = std::min(reference, legacy_stream_ms(stream, c.schedule));
      yours = std::min(yours, exercise05b::time_all_streams_ms(stream, c.schedule));
      if (busy < 0) busy = busy_chunk(stream);
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
