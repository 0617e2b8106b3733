/// @file cache_clock.cuh
/// @brief Chapter 07's lesson: what the L2 cache and the SM clock do to a
/// timing, and how to tell the L2 flush's two effects apart.
///
/// A flush before a timed kernel does two things at once (the kernel-timing
/// article mixed them up): it evicts the kernel's data from L2 ("cold"), and it
/// keeps the GPU busy while the host launches the kernel, so the kernel starts
/// the moment the flush ends and the launch gap disappears from the events.
/// Section 1 times a kernel with each kind of preceding work (nothing, a spin
/// kernel that touches no memory, a write flush, a read flush), each as a lone
/// launch and behind a blocked stream, so each effect can be read alone.
/// Section 2 reads the SM clock inside kernels at idle, under a heavy load
/// (tensor cores on every SM beside a copy) and after, beside NVML's clock and
/// power. Section 3 takes many samples of one kernel.
///
/// File order: the kernels' CPU checks -> kernels (cache_clock.cu) -> the
/// experiments, one per section, each returning the data of data.hpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "device.cuh"
#include "l2_flush.cuh"
#include "memory.cuh"
#include "options.hpp"
#include "verify.hpp"

namespace ch07 {

// --- 1. the kernel whose data is or is not in L2 ----------------------------------------

/// y = 2 x over a working set of x and y: every byte is read or written once,
/// so its time is how fast the data comes from where it lives (L2 or memory).
class ScaleProblem {
 public:
  /// x and y of @p working_set_bytes / 2 each (random x, seed @p seed).
  ScaleProblem(std::size_t working_set_bytes, std::uint64_t seed);
  /// Bytes of x plus y.
  std::size_t working_set_bytes() const { return 2 * x_.bytes(); }
  const float* x() const { return x_.data(); }    ///< the input, on the device
  float* y() { return y_.data(); }                ///< the output, on the device
  std::size_t size() const { return x_.size(); }  ///< elements of x (and of y)
  /// Queues the kernel on @p stream (as time_kernel() launches it).
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

/// The preceding work of every kind, created once (the flush buffers are 2 x L2 each).
class PrecedingWork {
 public:
  /// @param spin_ms how long the spin kernel keeps the GPU busy
  explicit PrecedingWork(double spin_ms);
  /// How long the spin kernel keeps the GPU busy.
  double spin_ms() const { return spin_ms_; }
  /// The write flush: lab::L2Flusher, a cudaMemsetAsync over 2 x L2.
  lab::L2Flusher& write_flusher() { return write_flusher_; }
  /// The read flush: resets persisting lines as lab::L2Flusher does, then a
  /// kernel reads a buffer of 2 x L2, which leaves lines that were only read.
  void flush_by_reading(cudaStream_t stream);

 private:
  double spin_ms_;
  lab::L2Flusher write_flusher_;
  lab::DeviceBuffer<unsigned char> read_buffer_;
  lab::DeviceBuffer<unsigned> read_sink_;  // the read flush writes here only if its sum is impossible
};

/// Times @p problem's kernel @p samples times with @p preceding queued before
/// each sample's start event, placed by @p placement (llm.c's benchmark_kernel
/// loop, written out). Poisons y first and checks it afterwards into @p check.
std::vector<double> time_kernel(ScaleProblem& problem, PrecedingWork& work, Preceding preceding, Placement placement,
                                int samples, cudaStream_t stream, lab::Comparison* check);

/// One working set of @p bytes, known as @p role ("small", "large"): every
/// Preceding x Placement, @p samples each.
WorkingSetRun compare_cache_states(const std::string& role, std::size_t bytes, std::uint64_t seed, PrecedingWork& work,
                                   int samples, cudaStream_t stream);

/// Section 1: the small and the large working set of @p o on @p device.
CacheRun compare_cache(const Options& o, const lab::DeviceInfo& device, cudaStream_t stream);

// --- 2. the SM clock ------------------------------------------------------------------------

/// What NVML reports now for a device; zeros where it cannot answer.
struct NvmlReading {
  double sm_clock_mhz = 0;               ///< the SM clock now (nvmlDeviceGetClockInfo)
  double power_watts = 0;                ///< the board's power draw now (nvmlDeviceGetPowerUsage)
  double power_limit_watts = 0;          ///< the limit the driver enforces (nvmlDeviceGetEnforcedPowerLimit)
  bool clock_reasons_known = false;      ///< clock_reasons was read
  unsigned long long clock_reasons = 0;  ///< why the clocks are below their maximum now, NVML's bit mask
                                         ///< (nvmlDeviceGetCurrentClocksEventReasons: 0x1 idle, 0x4 software
                                         ///< power cap, 0x8 hardware slowdown, 0x20 software thermal, ...)
};

/// Reads NVML for CUDA device @p ordinal. Never throws.
NvmlReading read_nvml(int ordinal) noexcept;

/// Section 2 on @p device: @p probes in-kernel clock probes at idle (each beside NVML), the
/// smallest step of %globaltimer, then @p load_ms of tensor-core work on every
/// SM beside a copy (NVML read meanwhile, the clock stamped in every launch),
/// then one probe right after.
ClockRun measure_clock(const lab::DeviceInfo& device, int probes, double load_ms, cudaStream_t stream);

// --- 3. many samples ---------------------------------------------------------------------

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
    double ms = 0;         ///< the events' time around it
    double clock_mhz = 0;  ///< SM cycles / ns inside it (block 0, thread 0), in MHz
  };
  /// Times @p samples lone launches (the host waits for each), each with its clock.
  std::vector<Sample> run(int samples, cudaStream_t stream);
  /// Did every thread compute the value the CPU expects (the last run)?
  bool correct() const;

 private:
  int blocks_;
  int steps_;
  lab::DeviceBuffer<float> out_;
  lab::DeviceBuffer<unsigned long long> stamps_;  // per sample: cycles, ns
};

/// Section 3: @p samples lone launches of a ClockedLoad of @p steps FMAs per thread.
SamplesRun sample_many(int samples, int steps, double nominal_mhz, cudaStream_t stream);

}  // namespace ch07
