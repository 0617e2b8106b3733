// Chapter 08's lesson, one function per section of the chapter page.
//
// The kernels: an empty one (what a launch costs with nothing in it), chapter
// 01's c = a + b chained K times (ch01::launch_add), lab::launch_spin (a
// kernel that spins for a set time) and, for section 5 only, a kernel that
// stores outside every allocation.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <thread>

#include "check.cuh"
#include "checks.hpp"
#include "child_process.hpp"
#include "clock.cuh"
#include "cpu_work.hpp"
#include "cupti_timeline.cuh"
#include "launch_graphs.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "timers.cuh"

namespace ch08 {

namespace {

__global__ void empty_kernel() {}

// Stores to @p address. Given the address 64 (the first page of the address
// space, where no allocation ever lies and which neither the GPU nor the host
// maps), the store is certain to fault.
__global__ void store_outside_every_allocation(int* address) { *address = 1; }

double microseconds(const lab::HostTimer& timer) { return timer.elapsed_ms() * 1e3; }

// The durations (us) of the recorded kernels that bear the name of the first
// one recorded, the first left out: the lesson launches its kernel once, untimed,
// right after the recording starts, so the name is the one CUPTI gives it.
std::vector<double> durations_named_like_first(const std::vector<lab::Interval>& work) {
  const std::vector<lab::Interval> kernels = lab::kernels_named(work);  // every kernel, in the order they started
  std::vector<double> durations;
  for (std::size_t i = 1; i < kernels.size(); ++i) {
    if (kernels[i].name == kernels.front().name) durations.push_back((kernels[i].end_ns - kernels[i].start_ns) * 1e-3);
  }
  return durations;
}

// Stops @p recorder and keeps the durations of the @p expected timed kernels,
// or says why there are none.
void read_cupti(lab::TimelineRecorder& recorder, bool recording, const std::string& why, std::size_t expected,
                std::vector<double>& durations, std::string& missing) {
  if (!recording) {
    missing = why;
    return;
  }
  std::vector<double> found = durations_named_like_first(recorder.stop());
  if (found.size() != expected || recorder.dropped() > 0) {
    missing = "CUPTI recorded " + std::to_string(found.size()) + " timed kernels for " + std::to_string(expected) +
              " launches (" + std::to_string(recorder.dropped()) + " records dropped)";
    return;
  }
  durations = std::move(found);
}

constexpr char kHeldTooLong[] =
    "the held stream timed out before its sample was queued (is a profiler serialising kernels?)";

}  // namespace

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  LAB_CHECK_LAUNCH();
}

// --- the chain of additions -----------------------------------------------------

AddChain::AddChain(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device)
    : n_(n),
      config_(ch01::choose_config(ch01::AddVariant::grid_stride, n, 256, device)),
      a_host_(lab::random_floats(static_cast<std::size_t>(n), seed)),
      b_host_(lab::random_floats(static_cast<std::size_t>(n), seed + 1)),
      a_(static_cast<std::size_t>(n)),
      b_(static_cast<std::size_t>(n)),
      c_(static_cast<std::size_t>(n)) {
  a_.upload(a_host_);
  b_.upload(b_host_);
}

void AddChain::launch(int k, cudaStream_t stream) {
  // Kernel 0 reads a; every later one reads the c its predecessor wrote
  // (in place: each thread reads, then writes, its own element).
  ch01::launch_add(ch01::AddVariant::grid_stride, k == 0 ? a_.data() : c_.data(), b_.data(), c_.data(), n_, config_,
                   stream);
}

std::vector<float> AddChain::expected(int kernels) const { return chain_on_cpu(a_host_, b_host_, kernels); }

std::vector<float> chain_on_cpu(const std::vector<float>& a, const std::vector<float>& b, int kernels) {
  std::vector<float> c = ch01::add_on_cpu(a, b);
  for (int k = 1; k < kernels; ++k) c = ch01::add_on_cpu(c, b);
  return c;
}

lab::Comparison AddChain::check(const std::vector<float>& expected) const {
  return lab::compare(c_.download(), expected);  // exact: the same IEEE additions in the same order
}

// [snippet:capture_chain]
Graph capture(cudaStream_t stream, cudaStreamCaptureMode mode, const std::function<void()>& queue) {
  cudaGraph_t graph = nullptr;
  LAB_CHECK(cudaStreamBeginCapture(stream, mode));
  try {
    queue();  // what it queues on the stream is recorded into the graph, not run
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);  // leave capture mode before the error goes on
    if (graph != nullptr) cudaGraphDestroy(graph);
    throw;
  }
  LAB_CHECK(cudaStreamEndCapture(stream, &graph));
  return Graph(graph);
}

Graph capture_chain(AddChain& chain, int kernels, cudaStream_t stream) {
  return capture(stream, cudaStreamCaptureModeGlobal, [&] {
    for (int k = 0; k < kernels; ++k) chain.launch(k, stream);
  });
}
// [snippet:capture_chain]

GraphExec instantiate(const Graph& graph) {
  cudaGraphExec_t exec = nullptr;
  LAB_CHECK(cudaGraphInstantiate(&exec, graph.get(), 0));
  return GraphExec(exec);
}

// --- 1. What a launch costs ----------------------------------------------------

LaunchCostRun measure_launch_cost(int samples, int back_to_back, cudaStream_t stream) {
  LaunchCostRun run;
  run.back_to_back_kernels = back_to_back;
  lab::StreamBlocker blocker;
  launch_empty(stream);  // loads the module: a one-off cost, and nothing may load lazily behind a held stream
  blocker.block(stream);
  blocker.release();
  LAB_CHECK(cudaStreamSynchronize(stream));

  // The launch call alone: the host's cost of queueing one kernel.
  for (int i = 0; i < samples; ++i) {
    lab::HostTimer call;
    empty_kernel<<<1, 1, 0, stream>>>();
    run.launch_call_us.push_back(microseconds(call));
    LAB_CHECK_LAUNCH();
  }
  LAB_CHECK(cudaStreamSynchronize(stream));

  // The GPU's pace: every kernel is queued behind the held stream first, so
  // they run back to back without waiting for the host; CUPTI records them.
  lab::TimelineRecorder recorder;
  std::string why;
  const bool recording = recorder.start(&why);
  launch_empty(stream);  // the first recorded kernel names the timed ones
  LAB_CHECK(cudaStreamSynchronize(stream));
  lab::Event start, stop;
  for (int i = 0; i < samples; ++i) {
    blocker.block(stream);
    LAB_CHECK(cudaEventRecord(start, stream));
    for (int k = 0; k < back_to_back; ++k) empty_kernel<<<1, 1, 0, stream>>>();
    LAB_CHECK_LAUNCH();
    LAB_CHECK(cudaEventRecord(stop, stream));
    blocker.release();
    LAB_CHECK(cudaEventSynchronize(stop));
    run.back_to_back_us.push_back(lab::Event::elapsed_us(start, stop) / back_to_back);
    if (blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
  }
  read_cupti(recorder, recording, why, static_cast<std::size_t>(samples) * back_to_back, run.cupti_kernel_us,
             run.cupti_missing);

  // The round trip: launch, then wait until the kernel is done.
  for (int i = 0; i < samples; ++i) {
    lab::HostTimer trip;
    empty_kernel<<<1, 1, 0, stream>>>();
    LAB_CHECK(cudaStreamSynchronize(stream));
    run.round_trip_us.push_back(microseconds(trip));
    LAB_CHECK_LAUNCH();
  }
  return run;
}

// --- 2. The launch queue -------------------------------------------------------

namespace {

// Watches the launching thread from a thread of its own and releases the held
// stream when a launch call has been running for longer than the stall time
// (the queue is full, and the call waits for room the held stream never
// frees), or when the launching thread is done. The destructor makes sure the
// stream is released and the thread has ended, whatever happened in between.
class Releaser {
 public:
  Releaser(lab::StreamBlocker& blocker, double stall_ms)
      : blocker_(blocker), stall_ns_(static_cast<std::int64_t>(stall_ms * 1e6)), thread_([this] { watch(); }) {}
  ~Releaser() {
    done_.store(true);
    thread_.join();
  }
  Releaser(const Releaser&) = delete;
  Releaser& operator=(const Releaser&) = delete;

  // The launching thread: call @p index starts now / has returned.
  void call_starts(std::int64_t index) {
    current_.store(index);
    since_ns_.store(now_ns());
  }
  void call_returned() { since_ns_.store(-1); }
  // The call that was blocked when the stream was released, or -1 (call after the destructor).
  std::int64_t stalled_call() const { return stalled_.load(); }

 private:
  static std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void watch() {
    while (!done_.load()) {
      const std::int64_t since = since_ns_.load();
      if (since >= 0 && now_ns() - since > stall_ns_) {
        stalled_.store(current_.load());
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    blocker_.release();  // in every case: nothing may stay held
  }

  lab::StreamBlocker& blocker_;
  std::int64_t stall_ns_;
  std::atomic<bool> done_{false};
  std::atomic<std::int64_t> since_ns_{-1};
  std::atomic<std::int64_t> current_{-1};
  std::atomic<std::int64_t> stalled_{-1};
  std::thread thread_;  // last: it starts once every member above exists
};

}  // namespace

QueueFillRun fill_launch_queue(std::int64_t max_launches, double stall_ms, cudaStream_t stream) {
  QueueFillRun run;
  run.stall_ms = stall_ms;
  run.call_us.reserve(static_cast<std::size_t>(max_launches));
  lab::StreamBlocker blocker(60000.0);  // the releaser lets go, long before this timeout
  launch_empty(stream);
  blocker.block(stream);
  blocker.release();
  LAB_CHECK(cudaStreamSynchronize(stream));

  blocker.block(stream);
  {
    Releaser releaser(blocker, stall_ms);
    for (std::int64_t i = 0; i < max_launches; ++i) {
      releaser.call_starts(i);
      lab::HostTimer call;
      empty_kernel<<<1, 1, 0, stream>>>();  // returns at once while the queue has room
      run.call_us.push_back(microseconds(call));
      releaser.call_returned();
      LAB_CHECK_LAUNCH();
    }
    // ~Releaser: released now if no call stalled, then the thread ends.
    run.stalled_call = -1;
    const std::int64_t stalled = releaser.stalled_call();
    if (stalled >= 0) run.stalled_call = stalled;
  }
  LAB_CHECK(cudaStreamSynchronize(stream));
  run.holding_kernel_timed_out = blocker.timed_out();
  return run;
}

namespace {

PaceCase pace_case(std::int64_t launches, double kernel_us, cudaStream_t stream) {
  PaceCase c;
  c.launches = launches;
  lab::Event start, stop;
  LAB_CHECK(cudaStreamSynchronize(stream));
  LAB_CHECK(cudaEventRecord(start, stream));
  lab::HostTimer total;  // from the first launch, as the loop's timer
  lab::HostTimer loop;   // chapter 02's host timer without a sync: it times the launch calls
  for (std::int64_t i = 0; i < launches; ++i) lab::launch_spin(stream, kernel_us * 1e-3);
  c.launch_loop_ms = loop.elapsed_ms();
  LAB_CHECK(cudaEventRecord(stop, stream));
  lab::HostTimer cpu;
  lab::do_cpu_work(static_cast<double>(launches) * kernel_us * 1e-3);  // as long as the GPU's work
  c.cpu_work_ms = cpu.elapsed_ms();
  lab::HostTimer wait;
  LAB_CHECK(cudaEventSynchronize(stop));
  c.wait_ms = wait.elapsed_ms();
  c.total_ms = total.elapsed_ms();
  c.gpu_ms = lab::Event::elapsed_ms(start, stop);
  return c;
}

}  // namespace

QueuePaceRun pace_launches(std::int64_t few, std::int64_t many, double kernel_us, cudaStream_t stream) {
  QueuePaceRun run;
  run.kernel_us = kernel_us;
  lab::launch_spin(stream, 0.001);  // loads the module
  run.below = pace_case(few, kernel_us, stream);
  run.past = pace_case(many, kernel_us, stream);
  return run;
}

// --- 3. CUDA graphs ------------------------------------------------------------

namespace {

// One sample of K stream launches and one of the graph, each into a poisoned c, each checked.
void stream_and_graph_sample(AddChain& chain, GraphSize& size, cudaGraphExec_t exec, const std::vector<float>& expected,
                             cudaStream_t stream) {
  lab::Event start, stop;
  auto note_result = [&](const lab::Comparison& result) {
    ++size.results_checked;
    if (!result.passed() && size.wrong.empty()) size.wrong = result.detail();
  };

  chain.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  LAB_CHECK(cudaEventRecord(start, stream));
  lab::HostTimer streamed;  // from the first launch: the start event's record is not part of it
  for (int k = 0; k < size.kernels; ++k) chain.launch(k, stream);  // K launches, K trips through the driver
  LAB_CHECK(cudaEventRecord(stop, stream));
  LAB_CHECK(cudaStreamSynchronize(stream));
  size.stream_us.push_back(microseconds(streamed));
  size.stream_gpu_us.push_back(lab::Event::elapsed_us(start, stop));  // both events are done: the stream is idle
  note_result(chain.check(expected));

  chain.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  LAB_CHECK(cudaEventRecord(start, stream));
  lab::HostTimer replayed;                   // from cudaGraphLaunch
  LAB_CHECK(cudaGraphLaunch(exec, stream));  // the same K kernels, one call
  LAB_CHECK(cudaEventRecord(stop, stream));
  LAB_CHECK(cudaStreamSynchronize(stream));
  size.graph_us.push_back(microseconds(replayed));
  size.graph_gpu_us.push_back(lab::Event::elapsed_us(start, stop));  // both events are done: the stream is idle
  note_result(chain.check(expected));
}

GraphUpdateRun update_graph(AddChain& first, AddChain& second, int kernels, int samples, cudaStream_t stream) {
  GraphUpdateRun run;
  run.kernels = kernels;
  const std::vector<float> expected[] = {first.expected(kernels), second.expected(kernels)};
  AddChain* chains[] = {&first, &second};
  GraphExec exec = instantiate(capture_chain(first, kernels, stream));
  for (int i = 0; i < samples; ++i) {
    const int target = (i + 1) % 2;  // alternate: first -> second -> first ...
    lab::HostTimer recapture;
    Graph graph = capture_chain(*chains[target], kernels, stream);  // the same launches on the other arrays
    run.recapture_us.push_back(microseconds(recapture));

    lab::HostTimer update;
    cudaGraphExecUpdateResultInfo info{};
    const cudaError_t updated = cudaGraphExecUpdate(exec.get(), graph.get(), &info);
    run.update_us.push_back(microseconds(update));

    cudaGraphExec_t instantiated = nullptr;
    lab::HostTimer again;
    LAB_CHECK(cudaGraphInstantiate(&instantiated, graph.get(), 0));  // a new executable graph instead
    run.instantiate_us.push_back(microseconds(again));
    GraphExec fresh(instantiated);
    if (updated != cudaSuccess) {
      (void)cudaGetLastError();  // the refusal is the result: report it, and go on with the new instantiation
      if (run.update_failure.empty())
        run.update_failure =
            std::string(cudaGetErrorName(updated)) + ", result " + std::to_string(static_cast<int>(info.result));
      exec = std::move(fresh);
    }

    chains[target]->poison(stream);
    LAB_CHECK(cudaGraphLaunch(exec.get(), stream));
    LAB_CHECK(cudaStreamSynchronize(stream));
    const lab::Comparison result = chains[target]->check(expected[target]);
    ++run.results_checked;
    if (!result.passed() && run.wrong.empty()) run.wrong = result.detail();
  }
  return run;
}

}  // namespace

GraphRun compare_graphs(std::int64_t n, const std::vector<int>& kernel_counts, int samples, std::uint64_t seed,
                        const lab::DeviceInfo& device) {
  GraphRun run;
  run.n = n;
  lab::Stream stream(cudaStreamNonBlocking);  // capture needs a stream other than the legacy default one
  AddChain chain(n, seed, device);
  chain.launch(0, stream);  // loads the module
  LAB_CHECK(cudaStreamSynchronize(stream));

  for (int kernels : kernel_counts) {
    GraphSize size;
    size.kernels = kernels;
    const std::vector<float> expected = chain.expected(kernels);
    GraphExec exec;
    for (int i = 0; i < samples; ++i) {
      lab::HostTimer capture;
      Graph graph = capture_chain(chain, kernels, stream);
      size.capture_us.push_back(microseconds(capture));
      cudaGraphExec_t instantiated = nullptr;
      lab::HostTimer instantiation;
      LAB_CHECK(cudaGraphInstantiate(&instantiated, graph.get(), 0));  // the graph made executable
      size.instantiate_us.push_back(microseconds(instantiation));
      exec = GraphExec(instantiated);
    }
    LAB_CHECK(cudaGraphLaunch(exec.get(), stream));  // the first launch of an executable graph uploads it
    LAB_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < samples; ++i) stream_and_graph_sample(chain, size, exec.get(), expected, stream);
    run.sizes.push_back(std::move(size));
  }

  AddChain other(n, seed + 100, device);
  run.update = update_graph(chain, other, kernel_counts.empty() ? 1 : kernel_counts.back(), samples, stream);
  return run;
}

// --- 4. Timing microsecond kernels honestly -------------------------------------

HonestTimingRun time_small_kernel(std::int64_t n, int graph_kernels, int samples, std::uint64_t seed,
                                  const lab::DeviceInfo& device) {
  HonestTimingRun run;
  run.n = n;
  run.graph_kernels = graph_kernels;
  lab::Stream stream(cudaStreamNonBlocking);
  ch01::AddProblem add(n, seed, device);
  lab::StreamBlocker blocker;
  add.launch(stream);  // every kernel loaded before a stream is held
  blocker.block(stream);
  blocker.release();
  LAB_CHECK(cudaStreamSynchronize(stream));

  // triton's do_bench_cudagraph: the launch unrolled K times in one graph.
  const Graph graph = capture(stream, cudaStreamCaptureModeGlobal, [&] {
    for (int k = 0; k < graph_kernels; ++k) add.launch(stream);
  });
  const GraphExec exec = instantiate(graph);
  LAB_CHECK(cudaGraphLaunch(exec.get(), stream));  // uploads it
  LAB_CHECK(cudaStreamSynchronize(stream));

  lab::TimelineRecorder recorder;  // CUPTI, from outside the loops
  std::string why;
  const bool recording = recorder.start(&why);
  add.launch(stream);  // the first recorded kernel names the timed ones
  add.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  lab::Event start, stop;

  // An event pair around each lone launch: the events include the launch gap.
  for (int i = 0; i < samples; ++i) {
    LAB_CHECK(cudaEventRecord(start, stream));
    add.launch(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    LAB_CHECK(cudaEventSynchronize(stop));
    run.event_pair_us.push_back(lab::Event::elapsed_us(start, stop));
  }
  run.results.push_back(add.check());  // the stream is idle: the last stop event was waited for
  add.poison(stream);

  // Behind a held stream (chapter 03): start, kernel and stop reach the GPU together.
  for (int i = 0; i < samples; ++i) {
    blocker.block(stream);
    LAB_CHECK(cudaEventRecord(start, stream));
    add.launch(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    blocker.release();
    LAB_CHECK(cudaEventSynchronize(stop));
    run.blocked_us.push_back(lab::Event::elapsed_us(start, stop));
    if (blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
  }
  run.results.push_back(add.check());
  add.poison(stream);

  // The graph of K launches between two events, divided by K.
  for (int i = 0; i < samples; ++i) {
    LAB_CHECK(cudaEventRecord(start, stream));
    LAB_CHECK(cudaGraphLaunch(exec.get(), stream));
    LAB_CHECK(cudaEventRecord(stop, stream));
    LAB_CHECK(cudaEventSynchronize(stop));
    run.graph_us.push_back(lab::Event::elapsed_us(start, stop) / graph_kernels);
  }
  run.results.push_back(add.check());

  read_cupti(recorder, recording, why, static_cast<std::size_t>(samples) * (2 + graph_kernels), run.cupti_us,
             run.cupti_missing);
  return run;
}

// --- 5. Kernel errors arrive later ----------------------------------------------

FaultReport provoke_kernel_fault(int launch_samples) {
  FaultReport report;
  const char* blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
  report.launch_blocking = blocking != nullptr && std::string(blocking) == "1";
  LAB_CHECK(cudaFree(nullptr));  // the context, before anything is timed
  launch_empty(nullptr);         // loads the module (the faulting kernel is in it too)
  LAB_CHECK(cudaDeviceSynchronize());
  std::vector<double> calls;
  for (int i = 0; i < launch_samples; ++i) {
    lab::HostTimer call;
    empty_kernel<<<1, 1>>>();
    calls.push_back(microseconds(call));
    LAB_CHECK_LAUNCH();
  }
  LAB_CHECK(cudaDeviceSynchronize());
  report.launch_call_us = lab::median(calls);

  // The faulting kernel. Its launch is checked like any other...
  store_outside_every_allocation<<<1, 1>>>(reinterpret_cast<int*>(64));
  report.launch_error = cudaGetErrorName(cudaGetLastError());
  // ...and the fault arrives at the next call that waits for the GPU.
  report.sync_error = cudaGetErrorName(cudaDeviceSynchronize());
  // Afterwards: does anything still work?
  report.later_last_error = cudaGetErrorName(cudaGetLastError());
  void* memory = nullptr;
  const cudaError_t allocated = cudaMalloc(&memory, 256);
  report.later_malloc = cudaGetErrorName(allocated);
  if (allocated == cudaSuccess) cudaFree(memory);
  empty_kernel<<<1, 1>>>();
  const cudaError_t launched = cudaGetLastError();
  report.later_kernel = cudaGetErrorName(launched != cudaSuccess ? launched : cudaDeviceSynchronize());
  report.measured = true;
  return report;
}

namespace {

FaultReport fault_in_child(const std::string& program, bool launch_blocking) {
  FaultReport report;
  report.launch_blocking = launch_blocking;
  const lab::ChildOutput out =
      lab::run_child(program, {}, 60.0, {std::string("CUDA_LAUNCH_BLOCKING=") + (launch_blocking ? "1" : "0")});
  if (!out.error.empty()) {
    report.why_not = out.error;
  } else if (out.exit_code != 0 || !read_fault_line(out.text, report)) {
    report.why_not = lab::child_failure("ch08_fault_child", out);
  }
  return report;
}

}  // namespace

FaultRun run_fault_child(const std::string& child_program, bool instrumented) {
  FaultRun run;
  if (instrumented) {
    run.skip_reason =
        "the run is instrumented (compute-sanitizer or a profiler): the faulting child is left out by design, "
        "since a sanitizer would report its fault as an error";
    return run;
  }
  run.normal = fault_in_child(child_program, false);
  run.blocking = fault_in_child(child_program, true);
  return run;
}

std::string fault_child_program() { return lab::program_beside_this_one("ch08_fault_child"); }

}  // namespace ch08
