// The check for exercise 10, built from this file against your pdl_chain.cu
// (test ch10_exercise_check, label "exercise"), against solutions/ (test
// ch10_solution_check, label "solution") and against the exercise as handed
// out (test ch10_pristine_check, label "pristine": it must fail). It captures
// a chain of your launches into a graph and asks for a programmatic edge
// between every two of them (cudaGraphGetEdges), then runs your kernel behind
// chapter 10's late-writing primary (ch10::launch_late_writer: it lets its
// dependents start at once and writes 100 us later) and compares with the CPU.
// In the second part both kernels are run once first (a lazily loaded kernel's
// first launch may wait for the GPU), then queued behind a held stream
// (lab::StreamBlocker) and released together, so your kernel is queued before
// the primary starts: a read before the wait can see the poison. A correct
// kernel gives the right answer whatever the timing.
// It needs compute capability 9.0: below that it says why and exits 77 (not checked).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.cuh"
#include "dependent_chain.cuh"
#include "device.cuh"
#include "memory.cuh"
#include "pdl_chain.cuh"
#include "program.hpp"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "verify.hpp"

namespace {

constexpr int kKernels = 6;

void exit_77_below_9_0() {
  std::string why;
  if (ch10::pdl_supported(&why)) return;
  std::printf("skipped: %s\n", why.c_str());
  std::fflush(stdout);
  std::exit(lab::exit_code::no_device);
}

}  // namespace

TEST_CASE("exercise 10: every launch is a programmatic dependent launch, and the chain adds up") {
  exit_77_below_9_0();
  const std::int64_t n = 10007;
  const std::vector<float> a = lab::random_floats(n, 21), b = lab::random_floats(n, 22);
  lab::DeviceBuffer<float> a_d(n), b_d(n), x[2] = {lab::DeviceBuffer<float>(n), lab::DeviceBuffer<float>(n)};
  a_d.upload(a);
  b_d.upload(b);
  lab::Stream stream(cudaStreamNonBlocking);
  const ch08::Graph graph = ch08::capture(stream, cudaStreamCaptureModeThreadLocal, [&] {
    for (int k = 0; k < kKernels; ++k)  // x[0] = a + b, x[1] = x[0] + b, ...: each reads the one before's output
      exercise10::launch_dependent(k == 0 ? a_d.data() : x[(k + 1) % 2].data(), b_d.data(), x[k % 2].data(), n, stream);
  });
  int edges = 0, programmatic = 0;
  ch10::count_edges(graph.get(), edges, programmatic);
  REQUIRE_MESSAGE(edges == kKernels - 1, "the " << kKernels << " launches, captured, have " << edges
                                                << " edges; expected one between every two: launch exactly one "
                                                   "kernel, on the stream you are given");
  CHECK_MESSAGE(programmatic == kKernels - 1,
                programmatic << " of the " << edges << " edges between your launches are programmatic "
                             << "(cudaGraphDependencyTypeProgrammatic): launch with cudaLaunchKernelEx and the "
                                "attribute cudaLaunchAttributeProgrammaticStreamSerialization set to 1");

  const ch08::GraphExec exec = ch08::instantiate(graph);
  x[0].poison(stream);
  x[1].poison(stream);
  LAB_CHECK(cudaGraphLaunch(exec.get(), stream));
  stream.synchronize();
  const std::vector<float> expected = ch08::chain_on_cpu(a, b, kKernels);  // a + 6 b, added in the kernels' order
  const lab::Comparison result = lab::compare(x[(kKernels - 1) % 2].download(), expected);
  CHECK_MESSAGE(result.passed(), "the chain of " << kKernels << " kernels: " << result.detail()
                                                 << ": expected a + 6 b, each kernel adding b to the one before's");
}

TEST_CASE("exercise 10: behind a primary that writes late, your kernel reads what it wrote") {
  exit_77_below_9_0();
  const lab::DeviceInfo device = lab::query_device(0);
  const std::int64_t n = static_cast<std::int64_t>(device.sm_count) * 256;  // one block per SM: all resident
  const std::vector<float> a = lab::random_floats(n, 31), b = lab::random_floats(n, 32);
  const std::vector<float> expected = ch08::chain_on_cpu(a, b, 2);  // (a + b) + b
  lab::DeviceBuffer<float> a_d(n), b_d(n), mid(n), out(n);
  lab::DeviceBuffer<unsigned long long> stored_at(1);
  a_d.upload(a);
  b_d.upload(b);
  lab::Stream stream(cudaStreamNonBlocking);
  const auto queue_pair = [&] {
    ch10::launch_late_writer(a_d.data(), b_d.data(), mid.data(), n, device.sm_count, 100'000, stored_at.data(), stream);
    exercise10::launch_dependent(mid.data(), b_d.data(), out.data(), n, stream);
  };
  queue_pair();  // both kernels loaded and run once, nothing held
  stream.synchronize();
  lab::StreamBlocker blocker;  // gives up after 5 s: a launch that waits for the held stream cannot hang the check
  for (int run = 1; run <= 5; ++run) {
    CAPTURE(run);
    mid.poison(stream);
    out.poison(stream);
    blocker.block(stream);
    queue_pair();  // both queued before the primary starts
    blocker.release();
    stream.synchronize();
    REQUIRE_MESSAGE(!blocker.timed_out(), "run " << run << " of 5: the held stream gave up waiting (5 s) before "
                                                 << "both launches were queued: does launch_dependent wait for the "
                                                    "GPU (a synchronize)? It should only queue the kernel");
    const lab::Comparison result = lab::compare(out.download(), expected);
    REQUIRE_MESSAGE(result.passed(), "run " << run << " of 5: " << result.detail()
                                            << ": your kernel read in before the primary wrote it (NaN: the "
                                               "poison); read in only after cudaGridDependencySynchronize()");
  }
}
