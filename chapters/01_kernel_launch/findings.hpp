/// @file findings.hpp
/// @brief Chapter 01's data and what it concludes from it: what each experiment
/// returns (plain structs), and the pure functions that turn that data into the
/// tables and findings the chapter prints and writes to JSON.
///
/// Plain C++: no GPU is needed to build or test this file (tests/ch01_findings_test.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device.cuh"
#include "report.hpp"
#include "verify.hpp"

namespace ch01 {

// --- section 1: what one launch may ask for ----------------------------------

/// The limits of one launch on @p device, beside those of compute capability
/// 1.x that older articles still quote (CUDA C++ Programming Guide, "Features
/// and Technical Specifications").
lab::ResultTable limits_table(const lab::DeviceInfo& device);

// --- section 2: three ways to cover n elements --------------------------------

/// One variant of `c = a + b`, measured.
struct VariantRun {
  std::string name;             ///< e.g. "grid-stride float4"
  std::int64_t grid = 0;        ///< blocks
  int block = 0;                ///< threads per block
  std::vector<double> samples;  ///< event-timed samples, ms
  lab::Comparison first;        ///< the first run against the CPU
  lab::Comparison after;        ///< the last timed run against the CPU
};

/// The copy and the three variants, measured in one run.
struct VariantsRun {
  std::int64_t n = 0;                ///< floats per vector
  double l2_bytes = 0;               ///< the device's L2, to tell cache from DRAM figures
  std::vector<double> copy_samples;  ///< device-to-device copy of n floats, ms
  std::vector<VariantRun> variants;  ///< in the order they ran
};

/// Bytes a device-to-device copy of @p n floats moves: n read, n written.
double copy_bytes(std::int64_t n);
/// Bytes `c = a + b` must move: a and b read, c written (3 x 4 bytes per element).
double add_bytes(std::int64_t n);

/// One row per variant (and the copy): grid, block, median, min, max,
/// bandwidth and percentage of the copy's bandwidth; the note gives a, b and c
/// as a multiple of the device's L2.
lab::ResultTable variants_table(const VariantsRun& run);
/// Each variant matched the CPU on its first run and after timing
/// (correctness); at the default n (kDefaultN, 64Mi), the page's benchmark:
/// the best variant at 90 % of the copy or more (an observation, met or not).
std::vector<lab::Finding> variants_findings(const VariantsRun& run);
/// @p v's bandwidth as a percentage of the copy's, from the medians.
double percent_of_copy(const VariantsRun& run, const VariantRun& v);

// --- section 3: a launch returns before its kernel ends -----------------------

/// How long a launch takes to return, next to how long its kernel runs.
struct LaunchReturnTiming {
  double launch_call_ms = 0;  ///< host time spent inside the launch call
  double kernel_ms = 0;       ///< events around the launch, ms: the kernel plus the launch gap
  double until_sync_ms = 0;   ///< host time from before the launch until cudaStreamSynchronize returned
};

/// The three times, in one table.
lab::ResultTable launch_return_table(const LaunchReturnTiming& t);
/// The launch call returned in under a tenth of the kernel's time (timing);
/// cudaStreamSynchronize waited for the kernel (timing).
std::vector<lab::Finding> launch_return_findings(const LaunchReturnTiming& t);

// --- section 4: a bad launch configuration ------------------------------------

/// What happened to a launch with a bad configuration.
struct LaunchErrorDemo {
  int threads_per_block = 0;     ///< what the bad launch asked for
  int error_code = 0;            ///< what cudaGetLastError() returned after it (a cudaError_t)
  std::string error_text;        ///< its name and description
  bool later_launch_ok = false;  ///< did a correct launch right after work?
};

/// The bad launch, what cudaGetLastError() said, and the launch after it.
lab::ResultTable launch_error_table(const LaunchErrorDemo& demo, int max_threads_per_block);
/// The error was reported (correctness: cudaGetLastError() returned an
/// error); the program carried on (correctness: the next launch was right).
std::vector<lab::Finding> launch_error_findings(const LaunchErrorDemo& demo);

}  // namespace ch01
