// The check for exercise 08, built twice: against your file in exercises/
// (test ch08_exercise_check, label "exercise") and against solutions/
// (test ch08_solution_check, label "solution", part of the default test run).
// The sequence is chapter 08's chain of additions (ch08::AddChain: c = a + b,
// then c = c + b, ...), checked against the chapter's CPU reference.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "capture_sequence.cuh"
#include "device.cuh"
#include "stream.cuh"

namespace {

constexpr int kKernels = 5;
constexpr std::int64_t kN = 10007;

// The sequence the check hands to capture(): five dependent additions.
exercise08::Sequence additions(ch08::AddChain& chain) {
  return [&chain](cudaStream_t s) {
    for (int k = 0; k < kKernels; ++k) chain.launch(k, s);
  };
}

}  // namespace

TEST_CASE("exercise 08: the sequence is recorded into a graph of 5 kernel nodes, not run") {
  lab::Stream stream(cudaStreamNonBlocking);
  ch08::AddChain chain(kN, 11, lab::query_device(0));
  chain.poison(stream);
  stream.synchronize();
  exercise08::CapturedSequence captured = exercise08::capture(additions(chain), stream);
  stream.synchronize();
  REQUIRE_MESSAGE(captured.graph.get() != nullptr,
                  "capture() returned no graph: begin capturing the stream before the sequence is queued "
                  "(cudaStreamBeginCapture) and end the capture into the graph after it (cudaStreamEndCapture)");
  std::size_t nodes = 0;
  REQUIRE(cudaGraphGetNodes(captured.graph.get(), nullptr, &nodes) == cudaSuccess);
  CHECK_MESSAGE(nodes == static_cast<std::size_t>(kKernels),
                ("the graph has " + std::to_string(nodes) + " nodes; the sequence queued " + std::to_string(kKernels) +
                 " kernels: capture all of them, and only them"));
  const lab::Comparison untouched = chain.check(chain.expected(kKernels));
  CHECK_MESSAGE(untouched.mismatches == untouched.count,
                "c changed during capture(): while a stream is captured its work is recorded, not run; was the "
                "sequence queued before cudaStreamBeginCapture?");
  CHECK_MESSAGE(captured.exec.get() != nullptr,
                "capture() returned no executable graph: instantiate the graph (cudaGraphInstantiate)");
}

TEST_CASE("exercise 08: every replay runs the whole sequence") {
  lab::Stream stream(cudaStreamNonBlocking);
  ch08::AddChain chain(kN, 13, lab::query_device(0));
  exercise08::CapturedSequence captured = exercise08::capture(additions(chain), stream);
  stream.synchronize();
  const std::vector<float> expected = chain.expected(kKernels);
  for (int replay = 1; replay <= 3; ++replay) {
    chain.poison(stream);
    exercise08::replay(captured, stream);
    stream.synchronize();
    const lab::Comparison result = chain.check(expected);
    CHECK_MESSAGE(result.passed(),
                  ("replay " + std::to_string(replay) + ": " + result.detail() +
                   (result.mismatches == result.count
                        ? ": nothing ran; does replay() launch the executable graph on the stream (cudaGraphLaunch)?"
                        : ": expected a + 5 b, the sum of all five additions")));
  }
}
