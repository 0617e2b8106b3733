/// @file child_output.hpp
/// @brief The one JSON line (nlohmann-json) in which ch05_queue_child reports
/// what it measured, written by the child and read back by the chapter; plain
/// C++, CPU-tested in tests/ch05_checks_test.cpp.
#pragma once

#include <string>

#include "data.hpp"

namespace ch05 {

/// The child's JSON line: {"seen", "spin_ms", "schedules": [{"chunks", "v1_ms", ...}], "orders": [...]}.
std::string child_output_text(const QueueChild& child);
/// Reads the first line of @p text that parses as the child's JSON into @p child (asked is kept);
/// false, with why_not set, when there is none or it holds no measurement.
bool read_child_output(const std::string& text, QueueChild& child);

}  // namespace ch05
