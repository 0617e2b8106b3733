/// @file wait_report.hpp
/// @brief The wait calls' names, and the one line ch03_wait_child prints per
/// wait call, which compare_waits reads back (plain C++, CPU-tested in
/// tests/ch03_findings_test.cpp).
#pragma once

#include <string>

#include "findings.hpp"

namespace ch03 {

/// The CUDA function's name, e.g. "cudaStreamSynchronize".
std::string wait_call_name(WaitCall call);
/// Reads a wait call's name ("cudaStreamSynchronize") into @p into; false, leaving it as it was, for any other text.
bool wait_call_from_name(const std::string& name, WaitCall& into);

/// The child's line for one wait: "ch03_wait_child <wait call> <what cudaSetDeviceFlags returned>
/// <the scheduling flag read back> <wall ms> <CPU ms>", e.g.
/// "ch03_wait_child cudaStreamSynchronize cudaSuccess cudaDeviceScheduleBlockingSync 20.1 0.04".
std::string wait_case_line(const WaitCase& measured);

/// Reads the line for @p call in @p text into @p into (measured = true),
/// skipping other calls' lines and lines it cannot read. False, leaving
/// @p into as it was, when there is no complete line for @p call.
bool read_wait_case_line(const std::string& text, WaitCall call, WaitCase& into);

}  // namespace ch03
