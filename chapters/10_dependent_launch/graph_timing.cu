// Section 4: timing one kernel node inside a replayed graph, with events
// recorded by cudaEventRecordWithFlags(..., cudaEventRecordExternal) during
// capture, against CUPTI's duration of the node and a pair around nothing.
#include <algorithm>
#include <string>
#include <vector>

#include "check.cuh"
#include "cupti_timeline.cuh"
#include "graph_timing.cuh"
#include "launch_graphs.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "verify.hpp"

namespace ch10 {

namespace {

constexpr int kThreads = 256;
constexpr int kMostBlocks = 1024;
constexpr int kBefore = 3;  // kernels before the timed one
constexpr int kAfter = 3;   // kernels after it (the floor pair sits after the first of them)

__device__ void add_into(const float* in, const float* b, float* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = in[i] + b[i];
}

// The same addition under two names: CUPTI's records name the kernel, so the
// timed node is the only `timed_add` of the graph.
__global__ void pass_add(const float* in, const float* b, float* out, std::int64_t n) { add_into(in, b, out, n); }
__global__ void timed_add(const float* in, const float* b, float* out, std::int64_t n) { add_into(in, b, out, n); }

// x = a + b, then x += b, kBefore + 1 + kAfter kernels in all, on the device and on the CPU.
class AddSeven {
 public:
  AddSeven(std::int64_t n, std::uint64_t seed)
      : n_(n),
        blocks_(static_cast<int>(std::min<std::int64_t>(kMostBlocks, (n + kThreads - 1) / kThreads))),
        a_(static_cast<std::size_t>(n)),
        b_(static_cast<std::size_t>(n)),
        x_(static_cast<std::size_t>(n)) {
    const std::vector<float> a = lab::random_floats(static_cast<std::size_t>(n), seed);
    const std::vector<float> b = lab::random_floats(static_cast<std::size_t>(n), seed + 1);
    a_.upload(a);
    b_.upload(b);
    expected_ = ch08::chain_on_cpu(a, b, kBefore + 1 + kAfter);
  }
  // Kernel k of the chain (k == kBefore is the timed one).
  void queue(int k, cudaStream_t stream) {
    const float* in = k == 0 ? a_.data() : x_.data();
    if (k == kBefore)
      timed_add<<<blocks_, kThreads, 0, stream>>>(in, b_.data(), x_.data(), n_);
    else
      pass_add<<<blocks_, kThreads, 0, stream>>>(in, b_.data(), x_.data(), n_);
    LAB_CHECK_LAUNCH();
  }
  void poison(cudaStream_t stream) { x_.poison(stream); }
  lab::Comparison check() const { return lab::compare(x_.download(), expected_); }

 private:
  std::int64_t n_;
  int blocks_;
  std::vector<float> expected_;
  lab::DeviceBuffer<float> a_, b_, x_;
};

// The events one graph records: a pair around the timed kernel and, when
// given, a floor pair with nothing between.
struct Marks {
  cudaEvent_t start, stop, floor_start, floor_stop;
};

// [snippet:external_events]
// Records @p event into the capture: with cudaEventRecordExternal it becomes an
// event record node that timestamps the event at each replay; without it, the
// record is a captured event, a dependency marker inside the graph.
void record(cudaEvent_t event, cudaStream_t stream, bool external) {
  if (external)
    LAB_CHECK(cudaEventRecordWithFlags(event, stream, cudaEventRecordExternal));
  else
    LAB_CHECK(cudaEventRecord(event, stream));
}

ch08::Graph capture_timed_graph(AddSeven& adds, const Marks& marks, bool external, cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  LAB_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    for (int k = 0; k < kBefore; ++k) adds.queue(k, stream);
    record(marks.start, stream, external);
    adds.queue(kBefore, stream);  // timed_add
    record(marks.stop, stream, external);
    adds.queue(kBefore + 1, stream);
    if (marks.floor_start != nullptr) {  // a pair around nothing: what a pair reads with no work inside
      record(marks.floor_start, stream, external);
      record(marks.floor_stop, stream, external);
    }
    for (int k = kBefore + 2; k < kBefore + 1 + kAfter; ++k) adds.queue(k, stream);
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);  // leave capture mode before the error goes on
    if (graph != nullptr) cudaGraphDestroy(graph);
    throw;
  }
  LAB_CHECK(cudaStreamEndCapture(stream, &graph));
  return ch08::Graph(graph);
}
// [snippet:external_events]

// cudaEventElapsedTime between two events, in us, or its error: appends the
// time to @p us on success, keeps the first error's name in @p returned.
void read_pair(cudaEvent_t start, cudaEvent_t stop, std::vector<double>& us, std::string& returned) {
  float ms = 0.0f;
  const cudaError_t result = cudaEventElapsedTime(&ms, start, stop);
  if (result == cudaSuccess) {
    us.push_back(static_cast<double>(ms) * 1e3);
    if (returned.empty()) returned = cudaGetErrorName(result);
    return;
  }
  (void)cudaGetLastError();  // the refusal is the result: report it, and clear it
  if (returned.empty() || returned == "cudaSuccess") returned = cudaGetErrorName(result);
}

// CUPTI's durations (us) of the kernels named timed_add, in order; empty with the reason when not all were recorded.
std::vector<double> timed_durations(const std::vector<lab::Interval>& work, int expected, std::size_t dropped,
                                    std::string& missing) {
  const std::vector<lab::Interval> timed = lab::kernels_named(work, {"timed_add"});
  if (static_cast<int>(timed.size()) != expected || dropped > 0) {
    missing = "CUPTI recorded " + std::to_string(timed.size()) + " timed_add kernels for " + std::to_string(expected) +
              " replays (" + std::to_string(dropped) + " records dropped)";
    return {};
  }
  std::vector<double> us;
  for (const lab::Interval& t : timed) us.push_back((t.end_ns - t.start_ns) * 1e-3);
  return us;
}

}  // namespace

GraphTimingRun time_node_in_graph(std::int64_t n, int reps, std::uint64_t seed) {
  GraphTimingRun run;
  run.n = n;
  lab::Stream stream(cudaStreamNonBlocking);  // captured: not the legacy default stream
  AddSeven adds(n, seed);
  lab::Event start, stop, floor_start, floor_stop, plain_start, plain_stop;  // timing events (the default flags)
  const ch08::GraphExec external =
      ch08::instantiate(capture_timed_graph(adds, {start, stop, floor_start, floor_stop}, true, stream));
  const ch08::GraphExec plain =
      ch08::instantiate(capture_timed_graph(adds, {plain_start, plain_stop, nullptr, nullptr}, false, stream));
  const auto replay = [&](cudaGraphExec_t exec) {  // x poisoned first, the result checked
    adds.poison(stream);
    LAB_CHECK(cudaGraphLaunch(exec, stream));
    LAB_CHECK(cudaStreamSynchronize(stream));
    const lab::Comparison result = adds.check();
    ++run.results_checked;
    if (!result.passed() && run.wrong.empty()) run.wrong = result.detail();
  };
  replay(external.get());  // untimed: loads the kernels, uploads the graphs
  replay(plain.get());

  lab::TimelineRecorder recorder;
  std::string why;
  const bool recording = recorder.start(&why);
  for (int i = 0; i < reps; ++i) {
    replay(external.get());
    read_pair(start, stop, run.external_us, run.external_returned);
    read_pair(floor_start, floor_stop, run.floor_us, run.floor_returned);
  }
  if (recording) {
    const std::vector<lab::Interval> work = recorder.stop();
    run.cupti_us = timed_durations(work, reps, recorder.dropped(), run.cupti_missing);
  } else {
    run.cupti_missing = why;
  }

  for (int i = 0; i < reps; ++i) {  // the same pair recorded without the flag
    replay(plain.get());
    read_pair(plain_start, plain_stop, run.default_us, run.default_returned);
  }
  return run;
}

}  // namespace ch10
