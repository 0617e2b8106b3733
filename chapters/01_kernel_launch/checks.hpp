/// @file checks.hpp
/// @brief Chapter 01's checks: the pure functions that judge the data each
/// experiment returns (data.hpp), and the bytes and bandwidth they judge by.
///
/// Plain C++: no GPU is needed to build or test this file (tests/ch01_checks_test.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch01 {

// --- section 2: three ways to cover n elements --------------------------------

/// Bytes a device-to-device copy of @p n floats moves: n read, n written.
double copy_bytes(std::int64_t n);
/// Bytes `c = a + b` must move: a and b read, c written (3 x 4 bytes per element).
double add_bytes(std::int64_t n);
/// The copy's bandwidth in GB/s, from its median.
double copy_gbps(const VariantsRun& run);
/// @p v's bandwidth as a percentage of the copy's, from the medians.
double percent_of_copy(const VariantsRun& run, const VariantRun& v);

/// Each variant matched the CPU on its first run and after timing
/// (correctness); at the default n (kDefaultN, 64Mi), the page's benchmark:
/// the best variant at 90 % of the copy or more (an observation, met or not).
std::vector<lab::Finding> variants_checks(const VariantsRun& run);

// --- section 3: a launch returns before its kernel ends -----------------------

/// The launch call returned in under a tenth of the kernel's time (timing);
/// cudaStreamSynchronize waited for the kernel (timing).
std::vector<lab::Finding> launch_return_checks(const LaunchReturnTiming& t);

// --- section 4: a bad launch configuration ------------------------------------

/// The error was reported (correctness: cudaGetLastError() returned an
/// error); the program carried on (correctness: the next launch was right).
std::vector<lab::Finding> launch_error_checks(const LaunchErrorDemo& demo);

}  // namespace ch01
