/// @file multi_gpu.cuh
/// @brief Chapter 09's lesson: more than one GPU in one process. What belongs
/// to a device (the current device, memory, streams, events), peer access and
/// copies between GPUs, ordering work across GPUs with an event, and a chunked
/// copy-in / kernel / copy-out pipeline dealt over several GPUs.
///
/// Every function takes the DeviceSet it may use. A section that needs two
/// GPUs and finds one returns its struct with `skipped` set (data.hpp).
/// Functions leave GPU 0 current when they return.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"

namespace ch09 {

// --- Kernels and their CPU references -------------------------------------------------

/// y[i] = x[i] after @p iterations steps of v = 0.999 v + 0.001 (a dependent
/// chain of fused multiply-adds: arithmetic the GPU cannot skip), on @p stream.
void launch_iterate(const float* x, float* y, std::int64_t n, int iterations, cudaStream_t stream);
/// launch_iterate's result on the CPU, in closed form (in double).
std::vector<float> iterate_reference(const float* x, std::int64_t n, int iterations);
/// The absolute tolerance launch_iterate is checked with: each step rounds once
/// (at most 2^-24 for values near 1) and the chain shrinks earlier errors by
/// 0.999, so they add up to at most 2^-24 / 0.001, about 6e-5, for any number of steps.
constexpr double kIterateTolerance = 1e-3;

// --- Which devices -------------------------------------------------------------------

/// The first @p requested devices (0: all of them). Throws lab::UsageError when
/// @p requested is more than the machine shows.
DeviceSet choose_devices(std::int64_t requested);

// --- 1. What belongs to a device -------------------------------------------------------

/// cudaSetDevice of a missing device (any machine); with two GPUs, the current
/// device of a new thread, the device of memory allocated on GPU 1, and each
/// call of the Programming Guide's list made from the wrong current device or
/// across devices, its return code read and cleared with cudaGetLastError.
OwnershipRun probe_ownership(const DeviceSet& devices, std::int64_t n, std::uint64_t seed);

// --- 2. Peer access --------------------------------------------------------------------

/// cudaDeviceCanAccessPeer for every ordered pair, and the links as NVML reports them.
PeerMatrix read_peer_matrix(const DeviceSet& devices);
/// GPU 0 -> GPU 1 with cudaMemcpyPeerAsync, peer access on (enabled both
/// ways), both directions at once, a kernel on GPU 1 reading GPU 0's memory,
/// then peer access off (cudaDeviceDisablePeerAccess) and the same bytes
/// through pinned host memory. Each way @p reps times after one warm-up.
PeerCopyRun measure_peer_copies(const DeviceSet& devices, std::size_t bytes, int reps, std::uint64_t seed);

// --- 3. Ordering across devices --------------------------------------------------------

/// A producer on GPU 0 and a consumer on GPU 1 that reads the producer's
/// buffer directly (peer access from GPU 1 to GPU 0, enabled while it lives).
/// Each resource is made with the device it belongs to current.
struct ProducerConsumer {
  /// Allocates @p n floats on each GPU, a stream on each, the producer's event
  /// on GPU 0, and enables GPU 1's access to GPU 0's memory. Requires two GPUs
  /// with cudaDeviceCanAccessPeer(1, 0).
  explicit ProducerConsumer(std::int64_t n);
  ~ProducerConsumer();
  ProducerConsumer(const ProducerConsumer&) = delete;
  ProducerConsumer& operator=(const ProducerConsumer&) = delete;

  std::int64_t n = 0;                      ///< floats on each side
  float* produced = nullptr;               ///< on GPU 0: what the producer writes
  float* seen = nullptr;                   ///< on GPU 1: what the consumer read
  cudaStream_t producer_stream = nullptr;  ///< a stream of GPU 0
  cudaStream_t consumer_stream = nullptr;  ///< a stream of GPU 1
  cudaEvent_t produced_event = nullptr;    ///< an event of GPU 0 (cudaEventDisableTiming)

 private:
  bool enabled_peer_access_ = false;
};

/// "" when GPUs 0 and 1 exist and GPU 1 can access GPU 0's memory; else why not.
std::string producer_consumer_reason(const DeviceSet& devices);
/// For the two-GPU tests and exercise 09's check: when producer_consumer_reason()
/// gives a reason (one GPU, or no peer access), prints "skipped: <reason>" and
/// ends the process with exit code 77, which ctest and scripts/progress report as not checked.
void exit_77_without_two_gpus();
/// On GPU 0's stream: spin for @p producer_ms, then write @p value into every element of produced.
void queue_producer(ProducerConsumer& pc, double producer_ms, float value);
/// On GPU 1's stream: a kernel copies produced (GPU 0's memory) into seen. No ordering of its own.
void queue_consumer(ProducerConsumer& pc);
/// Waits for both streams, then counts the elements of seen that are not @p value.
std::int64_t count_stale(ProducerConsumer& pc, float value);
/// @p runs times: producer, then the consumer queued right after it; then
/// producer, event, cudaStreamWaitEvent, consumer. Counts stale elements each time.
OrderingRun race_across_devices(const DeviceSet& devices, std::int64_t n, double producer_ms, int runs);

// --- 4. Splitting work over GPUs -------------------------------------------------------

/// Each GPU's host link alone and all at once, the kernel on one GPU, then
/// the pipeline (chunk k on GPU k mod D, two streams per GPU) on one GPU and
/// on all of them, each checked against the CPU.
PipelineRun split_pipeline(const DeviceSet& devices, std::int64_t n, int chunks, int iterations, int reps,
                           std::uint64_t seed);

}  // namespace ch09
