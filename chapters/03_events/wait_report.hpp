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

/// The child's line for one wait: "ch03_wait_child wait=cudaStreamSynchronize
/// set_flags=cudaSuccess flag=cudaDeviceScheduleBlockingSync wall_ms=20.1 cpu_ms=0.04".
std::string wait_case_line(const WaitCase& measured);

/// Reads the line for @p call in @p text into @p into (measured = true),
/// skipping other calls' lines. False, leaving @p into as it was, when there is
/// no complete line for @p call or a child line cannot be read.
bool read_wait_case_line(const std::string& text, WaitCall call, WaitCase& into);

}  // namespace ch03
