/// @file fault_line.hpp
/// @brief The one line ch08_fault_child prints to report its run (section 5),
/// and how the chapter reads it back. Plain C++, CPU-tested.
#pragma once

#include <string>

#include "findings.hpp"

namespace ch08 {

/// The line ch08_fault_child prints: its name, then blocking (0/1), launch, sync, last_error,
/// malloc, kernel and launch_call_us, e.g. "ch08_fault_child 0 cudaSuccess cudaErrorIllegalAddress ... 3.910".
std::string fault_line(const FaultReport& report);
/// Reads such a line from @p text into @p into (measured = true). Returns false,
/// leaving @p into as it was, when @p text holds no complete line.
bool read_fault_line(const std::string& text, FaultReport& into);

}  // namespace ch08
