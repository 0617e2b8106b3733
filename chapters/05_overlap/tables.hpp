/// @file tables.hpp
/// @brief Chapter 05's tables: pure functions from the data of data.hpp to the
/// printed tables (stable ids, the same values in the JSON), and the names of
/// rows the checks' sentences use too; they judge nothing (checks.hpp does).
/// CPU-tested in tests/ch05_checks_test.cpp.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch05 {

/// A sweep row's name: "heavy V2 32 chunks".
std::string row_name(const ScheduleRow& row);
/// A recorded run's name: "V1, 4 chunks".
std::string recorded_name(const RecordedSchedule& run);
/// CUDA_DEVICE_MAX_CONNECTIONS as printed: its value, or "default (unset)".
std::string connections_label(const std::string& value);

/// Section 1: the copies and the kernels alone ("link").
lab::ResultTable link_table(const LinkRun& link);

/// Section 2: every row against sequential, V1 against V2, the model and the bound ("schedules").
lab::ResultTable sweep_table(const SweepRun& sweep, const LinkRun& link);

/// Section 3: V1 and V2 per connection and chunk count ("queue_schedules").
lab::ResultTable queue_schedule_table(const QueueRun& run);
/// Section 3: depth against breadth first per connection and stream count, beside the model ("stream_orders").
lab::ResultTable stream_order_table(const QueueRun& run);

/// Section 4: per schedule, the span and how long copies and kernels ran, alone and at once ("recorded").
lab::ResultTable recorded_table(const std::vector<RecordedSchedule>& runs);

}  // namespace ch05
