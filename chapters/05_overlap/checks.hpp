/// @file checks.hpp
/// @brief Chapter 05's checks: pure functions from the data of data.hpp to
/// findings (stable ids), with the measurements they and the tables share (a
/// row's median, whether the work-queue model held); every branch CPU-tested
/// in tests/ch05_checks_test.cpp.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch05 {

/// The median of the sweep's row of @p kernel, @p schedule and @p chunks, or NaN when there is none.
double median_ms(const SweepRun& sweep, const std::string& kernel, Schedule schedule, int chunks);

/// Whether a depth-first time of @p measured_lengths spin kernels lies within half a kernel
/// of the model's @p model_lengths (depth_first_kernel_lengths).
bool model_held(double measured_lengths, int model_lengths);

/// Section 2: every row correct (schedules_correct); overlap saves >= 10 % with the heavy kernel (overlap_heavy).
std::vector<lab::Finding> sweep_checks(const SweepRun& sweep);

/// Section 3: every child correct (queue_children_correct); a child or the section not run, skipped.
std::vector<lab::Finding> queue_checks(const QueueRun& run);

/// Section 4: each run correct (recorded_correct); a run not recorded, skipped.
std::vector<lab::Finding> recorded_checks(const std::vector<RecordedSchedule>& runs);

}  // namespace ch05
