// Section 3: a graph that decides. The kernels (a Jacobi sweep and a one-thread
// decision), the CPU's solve, and the three controls: a host loop, a one-step
// graph relaunched by the host, one graph with a WHILE conditional node.
#include <algorithm>
#include <cmath>
#include <string>

#include "check.cuh"
#include "cupti_timeline.cuh"
#include "decide.cuh"
#include "stream.cuh"
#include "timers.cuh"

namespace ch10 {

namespace {

constexpr float kSigma = 0.05f;         // the diagonal's excess over 2: the contraction per sweep is 2 / 2.05
constexpr int kThreads = 256;           // per block
constexpr int kMostBlocks = 1024;       // grid-stride beyond this
constexpr std::uint64_t kRhsSeed = 17;  // added to --seed for b

float inverse_diagonal() { return 1.0f / (2.0f + kSigma); }

// x = 0 and the state zeroed: every solve starts from the same point.
__global__ void jacobi_start(float* x0, std::int64_t n, JacobiState* state) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    x0[i] = 0.0f;
  if (blockIdx.x == 0 && threadIdx.x == 0) *state = JacobiState{0, 0u, 0};
}

// One sweep: x_new_i = inv * ((b_i + x_{i-1}) + x_{i+1}) from the buffer the
// iteration's parity names, into the other; the largest |x_new - x_old| goes to
// the state as float bits (non-negative floats order as their bits, so
// atomicMax on them is the maximum, whatever the order the warps arrive in).
__global__ void jacobi_sweep(float* x0, float* x1, const float* b, float inv, std::int64_t n, JacobiState* state) {
  const bool even = (state->iteration & 1) == 0;
  const float* in = even ? x0 : x1;
  float* out = even ? x1 : x0;
  float moved = 0.0f;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const float left = i > 0 ? in[i - 1] : 0.0f;
    const float right = i + 1 < n ? in[i + 1] : 0.0f;
    // Each operation rounded on its own: no fused multiply-add, as on the CPU.
    const float x = __fmul_rn(inv, __fadd_rn(__fadd_rn(b[i], left), right));
    out[i] = x;
    moved = fmaxf(moved, fabsf(__fsub_rn(x, in[i])));
  }
  for (int offset = 16; offset > 0; offset /= 2) moved = fmaxf(moved, __shfl_xor_sync(0xffffffffu, moved, offset));
  if ((threadIdx.x & 31) == 0) atomicMax(&state->residual_bits, __float_as_uint(moved));
}

// The decision, in one thread (concurrent cudaGraphSetConditional calls on one
// handle are undefined behaviour): count the sweep, go on while the residual
// is at least the tolerance and the sweeps are fewer than the most allowed.
__global__ void jacobi_decide(JacobiState* state, float tolerance, std::int64_t max_iterations,
                              cudaGraphConditionalHandle handle, int set_condition) {
  const float moved = __uint_as_float(state->residual_bits);
  const int iteration = state->iteration + 1;
  const int go = moved >= tolerance && iteration < max_iterations ? 1 : 0;
  state->iteration = iteration;
  state->residual_bits = 0u;
  state->keep_going = go;
  if (set_condition) cudaGraphSetConditional(handle, go);  // the WHILE node reads it after the body
}

// Times each CUDA call of one solve on the host; the last one is the final wait.
class CallClock {
 public:
  template <class Call>
  void operator()(Call&& call) {
    lab::HostTimer timer;
    call();
    last_ms_ = timer.elapsed_ms();
    ms_ += last_ms_;
    ++calls_;
  }
  SolveTiming finish(std::int64_t iterations, const lab::HostTimer& total) const {
    return {iterations, total.elapsed_ms(), ms_ - last_ms_, calls_};
  }

 private:
  double ms_ = 0, last_ms_ = 0;
  std::int64_t calls_ = 0;
};

}  // namespace

JacobiCpu jacobi_on_cpu(const std::vector<float>& b, float tolerance, std::int64_t max_iterations) {
  const float inv = inverse_diagonal();
  const std::size_t n = b.size();
  JacobiCpu cpu;
  cpu.x.assign(n, 0.0f);
  std::vector<float> next(n);
  for (;;) {
    float moved = 0.0f;
    for (std::size_t i = 0; i < n; ++i) {
      const float left = i > 0 ? cpu.x[i - 1] : 0.0f;
      const float right = i + 1 < n ? cpu.x[i + 1] : 0.0f;
      next[i] = inv * ((b[i] + left) + right);
      moved = std::max(moved, std::fabs(next[i] - cpu.x[i]));
    }
    cpu.x.swap(next);
    ++cpu.iterations;
    if (!(moved >= tolerance && cpu.iterations < max_iterations)) return cpu;
  }
}

JacobiSolver::JacobiSolver(std::int64_t n, double tolerance, std::int64_t max_iterations, std::uint64_t seed)
    : n_(n),
      tolerance_(tolerance),
      max_iterations_(max_iterations),
      blocks_(static_cast<int>(std::min<std::int64_t>(kMostBlocks, (n + kThreads - 1) / kThreads))),
      b_(static_cast<std::size_t>(n)),
      x0_(static_cast<std::size_t>(n)),
      x1_(static_cast<std::size_t>(n)),
      state_(1),
      decision_(1) {
  const std::vector<float> b = lab::random_floats(static_cast<std::size_t>(n), seed + kRhsSeed, 0.0f, 1.0f);
  cpu_ = jacobi_on_cpu(b, static_cast<float>(tolerance), max_iterations);
  b_.upload(b);
  decision_[0] = 0;
}

void JacobiSolver::queue_start(cudaStream_t stream) {
  jacobi_start<<<blocks_, kThreads, 0, stream>>>(x0_.data(), n_, state_.data());
  LAB_CHECK_LAUNCH();
}

void JacobiSolver::queue_sweep(cudaStream_t stream) {
  jacobi_sweep<<<blocks_, kThreads, 0, stream>>>(x0_.data(), x1_.data(), b_.data(), inverse_diagonal(), n_,
                                                 state_.data());
  LAB_CHECK_LAUNCH();
}

void JacobiSolver::queue_decide(cudaStream_t stream, cudaGraphConditionalHandle handle, bool set_condition) {
  jacobi_decide<<<1, 1, 0, stream>>>(state_.data(), static_cast<float>(tolerance_), max_iterations_, handle,
                                     set_condition ? 1 : 0);
  LAB_CHECK_LAUNCH();
}

void JacobiSolver::queue_read_decision(cudaStream_t stream) {
  LAB_CHECK(cudaMemcpyAsync(decision_.data(), &state_.data()->keep_going, sizeof(int), cudaMemcpyDeviceToHost, stream));
}

void JacobiSolver::poison(cudaStream_t stream) {
  x0_.poison(stream);
  x1_.poison(stream);
}

std::int64_t JacobiSolver::device_iterations() const { return state_.download().at(0).iteration; }

bool JacobiSolver::check(std::string& wrong) const {
  const std::int64_t iterations = device_iterations();
  // After an even number of sweeps the newest x is in x0, after an odd number in x1.
  const lab::Comparison result = lab::compare((iterations % 2 == 0 ? x0_ : x1_).download(), cpu_.x);
  wrong.clear();
  if (iterations != cpu_.iterations)
    wrong = std::to_string(iterations) + " sweeps, the CPU made " + std::to_string(cpu_.iterations);
  else if (!result.passed())
    wrong = result.detail();
  return wrong.empty();
}

// [snippet:host_loop]
SolveTiming solve_host_loop(JacobiSolver& solver, cudaStream_t stream) {
  CallClock call;
  lab::HostTimer total;
  call([&] { solver.queue_start(stream); });
  std::int64_t iterations = 0;
  do {
    call([&] { solver.queue_sweep(stream); });
    call([&] { solver.queue_decide(stream); });
    call([&] { solver.queue_read_decision(stream); });
    call([&] { LAB_CHECK(cudaStreamSynchronize(stream)); });  // the host waits for every decision
    ++iterations;
  } while (solver.keep_going());
  return call.finish(iterations, total);
}
// [snippet:host_loop]

ch08::Graph capture_step_graph(JacobiSolver& solver, cudaStream_t stream) {
  return ch08::capture(stream, cudaStreamCaptureModeThreadLocal, [&] {
    solver.queue_sweep(stream);
    solver.queue_decide(stream);
    solver.queue_read_decision(stream);  // a memcpy node into pinned memory
  });
}

SolveTiming solve_graph_per_step(JacobiSolver& solver, cudaGraphExec_t step, cudaStream_t stream) {
  CallClock call;
  lab::HostTimer total;
  call([&] { solver.queue_start(stream); });
  std::int64_t iterations = 0;
  do {
    call([&] { LAB_CHECK(cudaGraphLaunch(step, stream)); });
    call([&] { LAB_CHECK(cudaStreamSynchronize(stream)); });
    ++iterations;
  } while (solver.keep_going());
  return call.finish(iterations, total);
}

// [snippet:while_graph]
ch08::Graph build_while_graph(JacobiSolver& solver, cudaStream_t stream) {
  cudaGraph_t created = nullptr;
  LAB_CHECK(cudaGraphCreate(&created, 0));
  ch08::Graph graph(created);
  // The condition starts at 1 at every launch of the graph: the body runs at
  // least once, then again as long as the decision sets it to 1.
  cudaGraphConditionalHandle handle = 0;
  LAB_CHECK(cudaGraphConditionalHandleCreate(&handle, graph.get(), 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  LAB_CHECK(cudaGraphAddNode(&node, graph.get(), nullptr, nullptr, 0, &params));
  // cudaGraphAddNode wrote the body's (empty) graph into phGraph_out: capture the two kernels into it.
  cudaGraph_t body = params.conditional.phGraph_out[0];
  LAB_CHECK(cudaStreamBeginCaptureToGraph(stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t captured = nullptr;
  try {
    solver.queue_sweep(stream);
    solver.queue_decide(stream, handle, true);  // sets the condition: 0 ends the loop
  } catch (...) {
    cudaStreamEndCapture(stream, &captured);
    throw;
  }
  LAB_CHECK(cudaStreamEndCapture(stream, &captured));  // the body belongs to the node: nothing to destroy
  return graph;
}
// [snippet:while_graph]

SolveTiming solve_while_node(JacobiSolver& solver, cudaGraphExec_t loop, cudaStream_t stream) {
  CallClock call;
  lab::HostTimer total;
  call([&] { solver.queue_start(stream); });
  call([&] { LAB_CHECK(cudaGraphLaunch(loop, stream)); });  // every sweep, in one call
  call([&] { LAB_CHECK(cudaStreamSynchronize(stream)); });  // the only wait
  SolveTiming timing = call.finish(0, total);
  timing.iterations = solver.device_iterations();  // after the timer: the device counted them
  return timing;
}

namespace {

// CUPTI's durations of one solve's kernels: the sweep and the decision summed
// per sweep, in order; empty with the reason when not every one was recorded.
std::vector<double> per_sweep_us(const std::vector<lab::Interval>& work, std::int64_t iterations, std::size_t dropped,
                                 std::string& missing) {
  const std::vector<lab::Interval> kernels = lab::kernels_named(work, {"jacobi_sweep", "jacobi_decide"});
  if (static_cast<std::int64_t>(kernels.size()) != 2 * iterations || dropped > 0) {
    missing = "CUPTI recorded " + std::to_string(kernels.size()) + " of the solve's " + std::to_string(2 * iterations) +
              " kernels (" + std::to_string(dropped) + " records dropped)";
    return {};
  }
  std::vector<double> sums;
  for (std::size_t i = 0; i + 1 < kernels.size(); i += 2)
    sums.push_back(((kernels[i].end_ns - kernels[i].start_ns) + (kernels[i + 1].end_ns - kernels[i + 1].start_ns)) *
                   1e-3);
  return sums;
}

}  // namespace

JacobiRun run_jacobi(std::int64_t n, double tolerance, std::int64_t max_iterations, int reps, std::uint64_t seed) {
  JacobiRun run;
  run.n = n;
  run.tolerance = tolerance;
  run.max_iterations = max_iterations;
  lab::Stream stream(cudaStreamNonBlocking);  // captured below: not the legacy default stream
  JacobiSolver solver(n, tolerance, max_iterations, seed);
  run.cpu_iterations = solver.cpu_iterations();
  const ch08::GraphExec step = ch08::instantiate(capture_step_graph(solver, stream));
  const ch08::GraphExec loop = ch08::instantiate(build_while_graph(solver, stream));
  const char* const names[] = {"host_loop", "graph_per_step", "while_node"};
  const auto solve = [&](int way) {
    if (way == 0) return solve_host_loop(solver, stream);
    if (way == 1) return solve_graph_per_step(solver, step.get(), stream);
    return solve_while_node(solver, loop.get(), stream);
  };
  for (int way = 0; way < 3; ++way) {
    JacobiWay w;
    w.name = names[way];
    const auto checked_solve = [&] {  // x poisoned first, the result compared bit for bit
      solver.poison(stream);
      LAB_CHECK(cudaStreamSynchronize(stream));
      const SolveTiming t = solve(way);
      std::string wrong;
      ++w.results_checked;
      if (!solver.check(wrong) && w.wrong.empty()) w.wrong = wrong;
      w.iterations.push_back(t.iterations);
      return t;
    };
    checked_solve();  // untimed: loads the kernels, uploads the graphs
    for (int i = 0; i < reps; ++i) {
      const SolveTiming t = checked_solve();
      w.total_ms.push_back(t.total_ms);
      w.host_call_ms.push_back(t.host_call_ms);
      w.host_calls = t.host_calls;
    }
    lab::TimelineRecorder recorder;  // one more solve, with CUPTI: the kernels' own share of a sweep
    std::string why;
    if (recorder.start(&why)) {
      const SolveTiming t = checked_solve();
      const std::vector<lab::Interval> work = recorder.stop();
      w.cupti_kernel_us = per_sweep_us(work, t.iterations, recorder.dropped(), w.cupti_missing);
    } else {
      w.cupti_missing = why;
    }
    run.ways.push_back(std::move(w));
  }
  return run;
}

}  // namespace ch10
