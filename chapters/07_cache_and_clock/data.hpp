/// @file data.hpp
/// @brief Chapter 07's data: the structs cache_clock.cuh's experiments return, one per section. checks.hpp judges
/// them, tables.hpp prints them; tests/ch07_checks_test.cpp tests both on hand-made data.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ch07 {

// --- 1. Warm and cold L2, and the flush's two effects --------------------------

/// Untimed work queued right before each sample's start event.
enum class Preceding {
  nothing,      ///< no preceding work: the L2 keeps the kernel's data from the last sample ("warm")
  spin,         ///< a spin kernel that touches no memory: the GPU is busy, the cache stays warm
  write_flush,  ///< lab::L2Flusher (cudaMemsetAsync of 2 x L2): cold and busy
  read_flush    ///< PrecedingWork's read flush (a kernel reading 2 x L2): cold and busy
};
/// How a sample reaches the GPU.
enum class Placement {
  isolated,       ///< a lone launch into an idle GPU: the events include the launch gap
  blocked_stream  ///< queued behind a held stream (chapter 03): no launch gap
};
/// A short name, e.g. "write flush".
inline const char* preceding_name(Preceding preceding) {
  constexpr const char* kNames[] = {"nothing", "spin kernel", "write flush", "read flush"};  // in the enum's order
  return kNames[static_cast<int>(preceding)];
}
/// A short name, e.g. "blocked stream".
inline const char* placement_name(Placement placement) {
  return placement == Placement::isolated ? "isolated" : "blocked stream";
}

/// One row: the kernel timed with one kind of preceding work, placed one way.
struct CacheCase {
  Preceding preceding = Preceding::nothing;   ///< what ran just before the kernel
  Placement placement = Placement::isolated;  ///< a lone launch, or behind a held stream
  std::vector<double> ms;                     ///< the event time of each sample
  bool correct = false;                       ///< y = 2x matched the CPU after the samples
  std::string detail;                         ///< what the comparison found (the first mismatches)
};

/// One working set (x and y of y = 2x) with every case.
struct WorkingSetRun {
  std::string role;              ///< "small" or "large": names its tables and findings (ids)
  std::size_t bytes = 0;         ///< bytes of x plus y
  std::size_t l2_bytes = 0;      ///< the L2's size (cudaDevAttrL2CacheSize)
  std::vector<CacheCase> cases;  ///< every Preceding x Placement
};

/// Section 1: a working set that fits in L2 and one several times its size.
struct CacheRun {
  WorkingSetRun small;  ///< --small-mib (by default half the L2)
  WorkingSetRun large;  ///< --large-factor x the L2
};

// --- 2. The SM clock ------------------------------------------------------------

/// What NVML reported at one moment of the load.
struct NvmlSample {
  double at_ms = 0;                      ///< host time since the load was queued
  double sm_clock_mhz = 0;               ///< NVML's SM clock
  double power_watts = 0;                ///< the board's power draw, as nvmlDeviceGetPowerUsage returns it
  bool reasons_known = false;            ///< clock_reasons was read
  unsigned long long clock_reasons = 0;  ///< NVML's clock event reasons (bit mask)
};

/// Section 2: the clock inside kernels at idle, under a heavy load and after, beside NVML's clock and power.
struct ClockRun {
  double nominal_mhz = 0;               ///< cudaDevAttrClockRate
  double power_limit_watts = 0;         ///< the enforced power limit (NVML)
  double probe_ms = 0;                  ///< how long each in-kernel clock probe spun
  std::vector<double> idle_kernel_mhz;  ///< in-kernel probes at idle, one after the other
  std::vector<double> idle_nvml_mhz;    ///< NVML's SM clock right after each probe
  double idle_power_watts = 0;          ///< NVML's power before the load
  bool power_averaged = false;          ///< NVML's power is a 1 s average (Ampere except GA100, and newer)
  double timer_step_ns = 0;             ///< the smallest step %globaltimer advanced by (measured in a kernel)
  double timer_mean_step_ns = 0;        ///< its mean step over the measurement
  double load_ms = 0;                   ///< how long the load ran (events)
  double load_tflops = 0;               ///< tensor-core throughput the load reached
  double load_copy_gbps = 0;            ///< bytes read + written per second by the copy beside it
  std::vector<double> load_kernel_mhz;  ///< in-kernel clock of each launch of the load, in order
  std::vector<NvmlSample> load_nvml;    ///< NVML during the load
  double after_kernel_mhz = 0;          ///< a probe right after the load
  double after_nvml_mhz = 0;            ///< NVML right after that
  bool nvml_whole_gpu = false;          ///< MIG is on: NVML's clock and power are the whole board's, shared
  bool load_correct = false;            ///< the load's results matched the CPU
  std::string load_detail;              ///< what the check found
};

/// nvbench discards a sample whose SM clock was under this share of the nominal clock (--throttle-threshold 75).
constexpr double kNvbenchThreshold = 0.75;

// --- 3. Many samples ------------------------------------------------------------

/// Section 3: lone launches of one kernel, each with its in-kernel clock.
struct SamplesRun {
  long long steps = 0;            ///< FMAs per thread of the kernel
  double nominal_mhz = 0;         ///< cudaDevAttrClockRate
  std::vector<double> ms;         ///< event time of each launch, in order
  std::vector<double> clock_mhz;  ///< in-kernel clock of each launch
  bool correct = false;           ///< every thread's result matched the CPU
};

}  // namespace ch07
