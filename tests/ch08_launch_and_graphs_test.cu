// Chapter 08 on the GPU: the lesson's functions give correct results, a
// graph is what it should be, nothing hangs, a fault is reported late, and the
// large effects hold as ratios measured in the same run.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "check.cuh"
#include "device.cuh"
#include "launch_graphs.cuh"
#include "statistics.hpp"
#include "stream.cuh"

namespace {

const lab::DeviceInfo& device() {
  static const lab::DeviceInfo info = lab::query_device(0);
  return info;
}

}  // namespace

TEST_CASE("a captured chain is a graph of K kernel nodes whose replay adds b K times") {
  lab::Stream stream(cudaStreamNonBlocking);
  ch08::AddChain chain(10007, 3, device());
  const ch08::Graph graph = ch08::capture_chain(chain, 7, stream);
  std::size_t nodes = 0;
  REQUIRE(cudaGraphGetNodes(graph.get(), nullptr, &nodes) == cudaSuccess);
  CHECK(nodes == 7);
  const ch08::GraphExec exec = ch08::instantiate(graph);
  chain.poison(stream);
  REQUIRE(cudaGraphLaunch(exec.get(), stream) == cudaSuccess);
  stream.synchronize();
  const lab::Comparison result = chain.check(chain.expected(7));
  CHECK_MESSAGE(result.passed(), result.detail());
  CHECK_FALSE(chain.check(chain.expected(6)).passed());  // every kernel counts
}

TEST_CASE("capture ends the capture when what it queues throws, and the stream works again") {
  lab::Stream stream(cudaStreamNonBlocking);
  ch08::AddChain chain(1000, 4, device());
  CHECK_THROWS_WITH(ch08::capture(stream, cudaStreamCaptureModeThreadLocal,
                                  [&] {
                                    chain.launch(0, stream);
                                    throw std::runtime_error("queue failed");
                                  }),
                    "queue failed");
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  REQUIRE(cudaStreamIsCapturing(stream, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);
  chain.poison(stream);
  for (int k = 0; k < 3; ++k) chain.launch(k, stream);  // run, not recorded
  stream.synchronize();
  CHECK(chain.check(chain.expected(3)).passed());
}

TEST_CASE("a 100-kernel graph costs less per kernel than 100 stream launches, every result correct") {
  const ch08::GraphRun run = ch08::compare_graphs(4096, {1, 100}, 10, 5, device());
  REQUIRE(run.sizes.size() == 2);
  for (const ch08::GraphSize& s : run.sizes) CHECK_MESSAGE(s.wrong.empty(), s.wrong);
  CHECK(run.update.wrong.empty());
  CHECK(run.update.update_failure.empty());
  const ch08::GraphSize& hundred = run.sizes[1];
  CHECK(hundred.results_checked == 20);
  const double stream = lab::median(hundred.stream_us);
  const double graph = lab::median(hundred.graph_us);
  CHECK_MESSAGE(graph < stream, "graph " << graph << " us, stream " << stream << " us for 100 kernels");
}

TEST_CASE("filling the launch queue ends, whether or not a call blocks") {
  lab::Stream stream;
  const ch08::QueueFillRun run = ch08::fill_launch_queue(64, 100.0, stream);
  CHECK(run.call_us.size() == 64);
  CHECK_FALSE(run.holding_kernel_timed_out);
  CHECK(cudaStreamQuery(stream) == cudaSuccess);  // nothing left held
}

TEST_CASE("the four timing methods leave c correct, and a graph / K reads less than an event pair") {
  const ch08::HonestTimingRun run = ch08::time_small_kernel(4096, 20, 10, 9, device());
  REQUIRE(run.results.size() == 3);
  for (const lab::Comparison& c : run.results) CHECK_MESSAGE(c.passed(), c.detail());
  CHECK(lab::median(run.graph_us) < lab::median(run.event_pair_us));
}

TEST_CASE("a faulting kernel's error arrives at the synchronisation, and sticks") {
  const ch08::FaultRun run = ch08::run_fault_child(CH08_FAULT_CHILD, false);
  REQUIRE_MESSAGE(run.normal.measured, run.normal.why_not);
  CHECK(run.normal.launch_error == "cudaSuccess");
  CHECK(run.normal.sync_error != "cudaSuccess");
  CHECK(run.normal.later_malloc == run.normal.sync_error);
  REQUIRE_MESSAGE(run.blocking.measured, run.blocking.why_not);
  CHECK(run.blocking.launch_blocking);
  CHECK(run.blocking.launch_call_us > run.normal.launch_call_us);
}
