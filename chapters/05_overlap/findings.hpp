/// @file findings.hpp
/// @brief Chapter 05's data (what each section measures, as plain structs) and
/// the pure functions that turn it into tables and findings; plain C++, every
/// branch CPU-tested in tests/ch05_findings_test.cpp.
#pragma once

#include <string>
#include <vector>

#include "child_output.hpp"
#include "overlap_model.hpp"
#include "report.hpp"
#include "trace.hpp"
#include "verify.hpp"

namespace ch05 {

// --- 1. and 2. The link, the kernels, the sweep ---------------------------------

/// One row of the sweep: a schedule at one chunk count with one kernel.
struct ScheduleRow {
  std::string kernel;                        ///< "light" or "heavy"
  Schedule schedule = Schedule::sequential;  ///< sequential, V1 or V2
  int chunks = 1;                            ///< chunks (= streams) the data was split into
  std::vector<double> samples_ms;            ///< events on the legacy default stream around each run
  lab::Comparison result;                    ///< the output of the last run against the CPU
};

/// Section 2: every row, and the connections this process has.
struct SweepRun {
  std::vector<ScheduleRow> rows;  ///< light kernel rows, then heavy, each sequential, V1, V2 by chunk count
  std::string connections;        ///< CUDA_DEVICE_MAX_CONNECTIONS as this process saw it ("" when unset)
};

/// Section 1: the copies and the kernels alone ("link"), and the lower bound of each kernel.
lab::ResultTable link_table(const LinkRun& link);
std::vector<lab::Finding> bound_findings(const LinkRun& link);  ///< bound_light, bound_heavy

/// Section 2: every row with the model's prediction and the bound ("schedules"); every
/// row correct, overlap against sequential, rows that beat the bound, V1 against V2.
lab::ResultTable sweep_table(const SweepRun& sweep, const LinkRun& link);
std::vector<lab::Finding> sweep_findings(const SweepRun& sweep, const LinkRun& link);  ///< section 2's findings

// --- 3. The hardware's work queues (child processes) ----------------------------

/// Section 3: one child per connection count.
struct QueueRun {
  std::vector<QueueChild> children;  ///< one per connection count asked for
  std::string skipped;               ///< "" when the children ran; else why none was started
  double mib = 0;                    ///< MiB each child copied each way
};

/// Section 3: V1 and V2 per connection and chunk count ("queue_schedules"), depth
/// against breadth first per connection and stream count ("stream_orders"); each
/// child correct, the issue order with one connection against the default, whether
/// streams that share a connection serialized.
lab::ResultTable queue_schedule_table(const QueueRun& run);
lab::ResultTable stream_order_table(const QueueRun& run);       ///< "stream_orders"
std::vector<lab::Finding> queue_findings(const QueueRun& run);  ///< section 3's findings

// --- 4. The schedules as CUPTI recorded them ------------------------------------

/// One run of a schedule recorded by CUPTI.
struct RecordedSchedule {
  Schedule schedule = Schedule::sequential;  ///< sequential, V1 or V2
  int chunks = 1;                            ///< chunks (= streams)
  bool recorded = false;                     ///< false: why_not says why (no CUPTI, or a tool holds it)
  std::string why_not;                       ///< why nothing was recorded ("" when it was)
  std::vector<lab::Interval> work;           ///< what ran, as CUPTI recorded it
  lab::Comparison result;                    ///< the output against the CPU
};

/// Section 4: per schedule, the span and how long copies and kernels ran, alone and at
/// once ("recorded"); each run correct, and why a run was not recorded.
lab::ResultTable recorded_table(const std::vector<RecordedSchedule>& runs);
std::vector<lab::Finding> recorded_findings(const std::vector<RecordedSchedule>& runs);  ///< section 4's findings

}  // namespace ch05
