/// @file checks.hpp
/// @brief Chapter 07's checks: pure functions from the data of data.hpp to findings (stable ids), with the
/// measurements they and the tables share (a case's median, the in-kernel clock's error, nvbench's 75 % rule);
/// tests/ch07_checks_test.cpp tests every branch.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch07 {

// --- 1. Warm and cold L2 ----------------------------------------------------------

/// Whether the set's bytes fit in the L2: only such a set's cooling is judged.
bool fits_in_l2(const WorkingSetRun& set);
std::string working_set_name(const WorkingSetRun& set);  ///< "fits in L2" or "4.0 x the L2"
/// The median of one case in microseconds; NaN when the case is missing.
double median_us(const WorkingSetRun& set, Preceding preceding, Placement placement);
/// Correctness of every case; for a set that fits in L2, a timing check that a write flush slows it (its median
/// above the slowest warm sample, blocked stream).
std::vector<lab::Finding> cache_checks(const CacheRun& run);

// --- 2. The SM clock ------------------------------------------------------------

/// The timer's share of one probe's error: one %globaltimer step over the probe's length, in MHz.
double timer_error_mhz(const ClockRun& run);
/// The in-kernel method's own error for one probe: the spread of the idle probes or the timer's share, the larger.
double method_error_mhz(const ClockRun& run);
/// In-kernel readings under nvbench's rule: under kNvbenchThreshold of the nominal clock.
std::size_t below_rule(const std::vector<double>& mhz, double nominal_mhz);
/// The load computed right; whether it moved the clock by more than the method's error (with NVML's reasons).
std::vector<lab::Finding> clock_checks(const ClockRun& run);

// --- 3. Many samples ------------------------------------------------------------

/// The clocked kernel computed right.
std::vector<lab::Finding> samples_checks(const SamplesRun& run);

}  // namespace ch07
