/// @file launch_graphs.cuh
/// @brief Chapter 08's lesson: what a launch costs, when it stops being
/// asynchronous, CUDA graphs as the cure, timing microsecond kernels, and
/// kernel errors that arrive later.
///
/// One function per section of the chapter page, in its order; each returns
/// the data of data.hpp and prints nothing. The graph's kernels are chapter
/// 01's `c = a + b` (ch01::launch_add) chained so that every kernel counts:
/// c = a + b, then c = c + b, K times, checked against ch01::add_on_cpu applied
/// K times. The queue's kernels are an empty kernel and lab::launch_spin; the
/// held stream is chapter 03's lab::StreamBlocker.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "data.hpp"
#include "device.cuh"
#include "memory.cuh"
#include "vector_add.cuh"

namespace ch08 {

/// A CUDA graph (cudaGraphDestroy when it goes), move-only.
using Graph = lab::detail::UniqueHandle<cudaGraph_t, cudaGraphDestroy>;
/// An executable graph (cudaGraphExecDestroy when it goes), move-only.
using GraphExec = lab::detail::UniqueHandle<cudaGraphExec_t, cudaGraphExecDestroy>;

/// Queues a kernel that does nothing on @p stream and checks the launch: what a launch costs with no work in it.
void launch_empty(cudaStream_t stream);

/// K dependent additions on the device: kernel 0 writes c = a + b, kernel k > 0
/// writes c = c + b, so the result a + K b shows that every one of them ran.
class AddChain {
 public:
  /// @p n random floats per vector (seeded by @p seed), chapter 01's grid-stride launch configuration for @p device.
  AddChain(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device);
  /// Queues kernel @p k of the chain on @p stream (ch01::launch_add).
  void launch(int k, cudaStream_t stream);
  /// The CPU's c after @p kernels kernels: ch01::add_on_cpu, @p kernels times.
  std::vector<float> expected(int kernels) const;
  /// Fills c with NaN on @p stream.
  void poison(cudaStream_t stream) { c_.poison(stream); }
  /// Downloads c (call once the stream that wrote it is idle) and compares it exactly with @p expected.
  lab::Comparison check(const std::vector<float>& expected) const;
  std::int64_t n() const { return n_; }  ///< floats per vector

 private:
  std::int64_t n_;
  ch01::LaunchConfig config_;
  std::vector<float> a_host_, b_host_;
  lab::DeviceBuffer<float> a_, b_, c_;
};

/// The CPU's result of K = @p kernels chained additions: c = a + b, then c = c + b
/// (ch01::add_on_cpu, @p kernels times), the same float additions in the same order.
std::vector<float> chain_on_cpu(const std::vector<float>& a, const std::vector<float>& b, int kernels);

/// Records what @p queue queues on @p stream into a graph: cudaStreamBeginCapture
/// in @p mode, @p queue (recorded, not run), cudaStreamEndCapture. If @p queue
/// throws, the capture is ended and its graph destroyed before the error goes on.
Graph capture(cudaStream_t stream, cudaStreamCaptureMode mode, const std::function<void()>& queue);

/// An executable graph of @p graph (cudaGraphInstantiate, no flags).
GraphExec instantiate(const Graph& graph);

/// Records the first @p kernels kernels of @p chain, queued on @p stream, into
/// a graph: cudaStreamBeginCapture, the launches (recorded, not run),
/// cudaStreamEndCapture. @p stream must not be the legacy default stream.
Graph capture_chain(AddChain& chain, int kernels, cudaStream_t stream);

/// 1. The launch call of an empty kernel (host time), the GPU's pace for
/// @p back_to_back empty kernels queued behind a held stream, and a launch +
/// cudaStreamSynchronize round trip, @p samples each; CUPTI records the
/// back-to-back kernels' own durations.
LaunchCostRun measure_launch_cost(int samples, int back_to_back, cudaStream_t stream);

/// 2a. Holds @p stream and launches up to @p max_launches empty kernels into
/// it, timing each call. Another thread releases the stream once a call has
/// been running for @p stall_ms (the queue is full: the call waits for room),
/// or once every launch is queued, so nothing hangs.
QueueFillRun fill_launch_queue(std::int64_t max_launches, double stall_ms, cudaStream_t stream);

/// 2b. On a free stream: @p few, then @p many spin kernels of @p kernel_us
/// each, a host timer around the launch loop, CPU work as long as the GPU's
/// work after it, then the wait.
QueuePaceRun pace_launches(std::int64_t few, std::int64_t many, double kernel_us, cudaStream_t stream);

/// 3. For each K of @p kernel_counts: capture and instantiate a graph of K
/// chained additions on @p n floats, then @p samples times K stream launches
/// against one cudaGraphLaunch, every result checked; then, at the largest K,
/// cudaGraphExecUpdate onto the same launches on other arrays against a new
/// cudaGraphInstantiate.
GraphRun compare_graphs(std::int64_t n, const std::vector<int>& kernel_counts, int samples, std::uint64_t seed,
                        const lab::DeviceInfo& device);

/// 4. Chapter 01's c = a + b on @p n floats timed by an event pair per launch,
/// behind a held stream, and as a graph of @p graph_kernels launches divided by
/// their number, @p samples each, with CUPTI recording every timed kernel.
HonestTimingRun time_small_kernel(std::int64_t n, int graph_kernels, int samples, std::uint64_t seed,
                                  const lab::DeviceInfo& device);

/// 5, in ch08_fault_child: times @p launch_samples launch calls of an empty
/// kernel, then launches a kernel that stores outside every allocation and
/// records what the launch, cudaDeviceSynchronize and the calls after them
/// return. Leaves this process's context unusable: run it in a process of its own.
FaultReport provoke_kernel_fault(int launch_samples);

/// 5. Runs @p child_program twice, with CUDA_LAUNCH_BLOCKING=0 and =1, and
/// reads back its reports; skipped (with the reason) when @p instrumented.
FaultRun run_fault_child(const std::string& child_program, bool instrumented);

/// Where ch08_fault_child is: beside the running executable.
std::string fault_child_program();

}  // namespace ch08
