/// @file decide.cuh
/// @brief Section 3's lesson: a graph that decides when to stop. A Jacobi
/// solve on a 1-D diagonally dominant system stops when no unknown moved more
/// than a tolerance in a sweep. The same two kernels (a sweep, and a one-thread
/// kernel that decides) run under three controls: a host loop that reads the
/// decision back after every sweep, a one-step graph the host relaunches, and
/// one graph whose WHILE conditional node repeats the sweep on the device.
///
/// The system: x_i = inv * ((b_i + x_{i-1}) + x_{i+1}), inv = 1 / (2 + sigma),
/// sigma = 0.05, x_{-1} = x_n = 0, b random in [0, 1), x = 0 at the start: a
/// contraction of 2 / 2.05 per sweep, about 440 sweeps to 1e-5. The kernels
/// round every operation on its own (__fadd_rn, __fmul_rn, __fsub_rn: never a
/// fused multiply-add), so the CPU's solve is bit for bit the GPU's.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "data.hpp"
#include "launch_graphs.cuh"
#include "memory.cuh"
#include "verify.hpp"

namespace ch10 {

/// What the device keeps between sweeps (zeroed at the start of every solve).
struct JacobiState {
  int iteration;           ///< sweeps done; its parity says which of x0, x1 holds the newest x
  unsigned residual_bits;  ///< the largest |x_new - x_old| of the sweep, as float bits (atomicMax)
  int keep_going;          ///< the decision: 1 while another sweep is needed
};

/// The CPU's solve.
struct JacobiCpu {
  std::vector<float> x;         ///< the solution after the last sweep
  std::int64_t iterations = 0;  ///< sweeps made
};

/// The solve on the CPU, every operation in the kernels' order (the reference).
JacobiCpu jacobi_on_cpu(const std::vector<float>& b, float tolerance, std::int64_t max_iterations);

/// One Jacobi system on the device: b, the two x buffers, the state, and the
/// pinned word the host loop reads the decision into.
class JacobiSolver {
 public:
  /// @p n unknowns with b random in [0, 1) (seeded by @p seed); the CPU's solve is made here.
  JacobiSolver(std::int64_t n, double tolerance, std::int64_t max_iterations, std::uint64_t seed);
  /// Queues the start of a solve: x0 = 0 and the state zeroed (one kernel).
  void queue_start(cudaStream_t stream);
  /// Queues one sweep: the buffer the iteration's parity names in, the other out, the residual into the state.
  void queue_sweep(cudaStream_t stream);
  /// Queues the decision (one thread): counts the sweep, keep_going = residual >= tolerance and
  /// sweeps < max; with @p set_condition it also sets @p handle's value (cudaGraphSetConditional).
  void queue_decide(cudaStream_t stream, cudaGraphConditionalHandle handle = 0, bool set_condition = false);
  /// Queues the copy of keep_going into pinned host memory (cudaMemcpyAsync).
  void queue_read_decision(cudaStream_t stream);
  /// The decision read by the last queue_read_decision (read it after the stream is idle).
  bool keep_going() const { return decision_[0] != 0; }
  /// Fills both x buffers with NaN on @p stream.
  void poison(cudaStream_t stream);
  /// Sweeps the device made in its last solve (download: call with the device idle).
  std::int64_t device_iterations() const;
  /// The device's x after its last solve compared with the CPU's, exactly ("" in @p wrong when
  /// right); also wrong when its sweeps differ from the CPU's.
  bool check(std::string& wrong) const;
  std::int64_t cpu_iterations() const { return cpu_.iterations; }  ///< sweeps the CPU made

 private:
  std::int64_t n_;
  double tolerance_;
  std::int64_t max_iterations_;
  int blocks_;
  JacobiCpu cpu_;  ///< the CPU's solve of the same system
  lab::DeviceBuffer<float> b_, x0_, x1_;
  lab::DeviceBuffer<JacobiState> state_;
  lab::PinnedBuffer<int> decision_;
};

/// What one solve cost the host.
struct SolveTiming {
  std::int64_t iterations = 0;  ///< sweeps (counted by the host where it decides, else read from the device)
  double total_ms = 0;          ///< first call to the end of the last wait
  double host_call_ms = 0;      ///< inside CUDA calls, the final wait left out
  std::int64_t host_calls = 0;  ///< CUDA calls made
};

/// 3a. The host decides: per sweep, two launches, a copy of the decision and cudaStreamSynchronize.
SolveTiming solve_host_loop(JacobiSolver& solver, cudaStream_t stream);

/// One sweep, the decision and its copy to the host, captured into a graph.
ch08::Graph capture_step_graph(JacobiSolver& solver, cudaStream_t stream);
/// 3b. The host relaunches @p step (capture_step_graph, instantiated) until the decision says stop.
SolveTiming solve_graph_per_step(JacobiSolver& solver, cudaGraphExec_t step, cudaStream_t stream);

/// One graph holding one WHILE conditional node (handle default 1, cudaGraphCondAssignDefault)
/// whose body is a sweep and the decision, which sets the condition: the device loops.
ch08::Graph build_while_graph(JacobiSolver& solver, cudaStream_t stream);
/// 3c. One cudaGraphLaunch of @p loop (build_while_graph, instantiated), one wait.
SolveTiming solve_while_node(JacobiSolver& solver, cudaGraphExec_t loop, cudaStream_t stream);

/// Section 3: the three ways, @p reps timed solves each (x poisoned before each, every
/// result checked), then one more with CUPTI recording the kernels.
JacobiRun run_jacobi(std::int64_t n, double tolerance, std::int64_t max_iterations, int reps, std::uint64_t seed);

}  // namespace ch10
