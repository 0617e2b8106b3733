/// @file data.hpp
/// @brief Chapter 01's data: what each experiment returns (plain structs). The
/// checks that judge it are in checks.hpp, the tables that print it in tables.hpp.
///
/// Plain C++: no GPU is needed to build or test this file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "verify.hpp"

namespace ch01 {

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

// --- section 3: a launch returns before its kernel ends -----------------------

/// How long a launch takes to return, next to how long its kernel runs.
struct LaunchReturnTiming {
  double launch_call_ms = 0;  ///< host time spent inside the launch call
  double kernel_ms = 0;       ///< events around the launch, ms: the kernel plus the launch gap
  double until_sync_ms = 0;   ///< host time from before the launch until cudaStreamSynchronize returned
};

// --- section 4: a bad launch configuration ------------------------------------

/// What happened to a launch with a bad configuration.
struct LaunchErrorDemo {
  int threads_per_block = 0;     ///< what the bad launch asked for
  int error_code = 0;            ///< what cudaGetLastError() returned after it (a cudaError_t)
  std::string error_text;        ///< its name and description
  bool later_launch_ok = false;  ///< did a correct launch right after work?
};

}  // namespace ch01
