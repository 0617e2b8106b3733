/// @file checks.hpp
/// @brief Chapter 08's checks: pure functions from the data of data.hpp to findings, what the graph table
/// shares with them (a median per kernel), and the line section 5's child reports, written and read.
/// tests/ch08_checks_test.cpp tests every branch on hand-made data.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch08 {

// --- 2. The launch queue -------------------------------------------------------

/// Where calls blocked (or that none did); past that depth, a timing check that the launch loop lasted at least
/// half the GPU's time for the launches beyond it.
std::vector<lab::Finding> queue_checks(const QueueFillRun& fill, const QueuePaceRun& pace);

// --- 3. CUDA graphs ------------------------------------------------------------

/// The median of @p totals divided by @p kernels (at least 1).
double per_kernel(const std::vector<double>& totals, int kernels);
/// Correctness, and a timing check at the largest K (>= 10; skipped below).
std::vector<lab::Finding> graph_checks(const GraphRun& run);

// --- 4. Timing microsecond kernels honestly -------------------------------------

/// Correctness, and a timing check (graph / K reads less than an event pair per launch).
std::vector<lab::Finding> honest_timing_checks(const HonestTimingRun& run);

// --- 5. Kernel errors arrive later ----------------------------------------------

/// Where the error was reported, whether it stuck, and what CUDA_LAUNCH_BLOCKING=1 cost a launch call.
std::vector<lab::Finding> fault_checks(const FaultRun& run);

/// The one line ch08_fault_child prints to report its run: its name, then blocking (0/1), launch, sync,
/// last_error, malloc, kernel and launch_call_us, e.g. "ch08_fault_child 0 cudaSuccess cudaErrorIllegalAddress ...
/// 3.910".
std::string fault_line(const FaultReport& report);
/// Reads such a line from @p text into @p into (measured = true). Returns false,
/// leaving @p into as it was, when @p text holds no complete line.
bool read_fault_line(const std::string& text, FaultReport& into);

}  // namespace ch08
