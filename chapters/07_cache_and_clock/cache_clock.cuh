/// @file cache_clock.cuh
/// @brief Chapter 07's lesson: what the L2 cache and the SM clock do to a
/// timing, and how to tell the L2 flush's two effects apart.
///
/// A flush before a timed kernel does two things at once (the kernel-timing
/// article mixed them up): it evicts the kernel's data from L2 ("cold"), and it
/// keeps the GPU busy while the host launches the kernel, so the kernel starts
/// the moment the flush ends and the launch gap disappears from the events.
/// This library times a kernel with each kind of preceding work (nothing, a
/// spin kernel that touches no memory, a write flush, a read flush), each as a
/// lone launch and behind a blocked stream, so each effect can be read alone.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "memory.cuh"
#include "sample_statistics.hpp"
#include "l2_flush.cuh"
#include "measure.cuh"
#include "stream_blocker.cuh"
#include "timers.cuh"
#include "verify.hpp"

namespace ch07 {

// --- the kernel whose data is or is not in L2 -------------------------------------------

/// y = 2 x over a working set of x and y: every byte is read or written once,
/// so its time is how fast the data comes from where it lives (L2 or memory).
class ScaleProblem {
 public:
  /// x and y of @p working_set_bytes / 2 each (random x, seed @p seed).
  ScaleProblem(std::size_t working_set_bytes, std::uint64_t seed);
  /// Bytes of x plus y.
  std::size_t working_set_bytes() const { return 2 * x_.bytes(); }
  /// Queues the kernel on @p stream.
  void launch(cudaStream_t stream);
  /// Poisons y (NaN), so a kernel that skips an element cannot pass check().
  void poison(cudaStream_t stream) { y_.poison(stream); }
  /// Compares y with 2 x computed on the CPU (exact: doubling is exact in float).
  lab::Comparison check() const;

 private:
  std::vector<float> x_host_;
  lab::DeviceBuffer<float> x_;
  lab::DeviceBuffer<float> y_;
};

// --- what runs before each sample -----------------------------------------------------------

/// Untimed work queued right before each sample's start event.
enum class Preceding {
  nothing,      ///< no preceding work: the L2 keeps the kernel's data from the last sample ("warm")
  spin,         ///< a spin kernel that touches no memory: the GPU is busy, the cache stays warm
  write_flush,  ///< lab::L2Flusher::Method::write (a memset of 2 x L2, as nvbench): cold and busy
  read_flush    ///< lab::L2Flusher::Method::read (a kernel reading 2 x L2): cold and busy, clean lines
};

/// A short name for @p preceding, e.g. "write flush".
const char* preceding_name(Preceding preceding);

/// The preceding work of every kind, created once (the flush buffers are 2 x L2 each).
class PrecedingWork {
 public:
  /// @param spin_ms how long the spin kernel keeps the GPU busy
  explicit PrecedingWork(double spin_ms);
  /// Queues @p preceding on @p stream (resetting persisting L2 lines first for the flushes).
  void queue(Preceding preceding, cudaStream_t stream);

 private:
  double spin_ms_;
  lab::L2Flusher write_;
  lab::L2Flusher read_;
};

/// Times @p problem's kernel @p samples times with @p preceding before each
/// sample, the samples placed by @p mode (isolated: a lone launch into an idle
/// GPU; blocked_stream: queued behind lab::StreamBlocker, no launch gap).
/// Poisons y first and checks it afterwards into @p check.
std::vector<double> time_kernel(ScaleProblem& problem, PrecedingWork& work, Preceding preceding, lab::SampleMode mode,
                                int samples, cudaStream_t stream, lab::Comparison* check);

// --- the SM clock -----------------------------------------------------------------------------

/// A compute-bound kernel (a chain of fused multiply-adds in every thread of
/// every SM) whose first thread stamps the SM's cycle counter and %globaltimer
/// at its start and end: its time goes with the SM clock, and it measures
/// that clock itself.
class ClockedLoad {
 public:
  /// One launch: @p blocks blocks of 256 threads, each thread @p steps FMAs.
  ClockedLoad(int blocks, int steps);
  /// One run of the kernel.
  struct Sample {
    double ms = 0;        ///< the events' time around it
    double clock_mhz = 0; ///< SM cycles / ns inside it (block 0, thread 0), in MHz
    double start_ns = 0;  ///< %globaltimer when it started, for a time axis
  };
  /// Times @p samples lone launches (the host waits for each), each with its clock.
  std::vector<Sample> run(int samples, cudaStream_t stream);
  /// Launches back to back for about @p milliseconds and returns every launch's
  /// in-kernel clock and start time: the clock during a sustained load.
  std::vector<Sample> sustain(double milliseconds, cudaStream_t stream);
  /// Did every thread compute the value the CPU expects (the last run)?
  bool correct() const;

 private:
  void launch(std::size_t slot, cudaStream_t stream);
  int blocks_;
  int steps_;
  lab::DeviceBuffer<float> out_;
  lab::DeviceBuffer<unsigned long long> stamps_;  // per launch slot: cycles, ns, start ns
  std::size_t slots_;
};

}  // namespace ch07
