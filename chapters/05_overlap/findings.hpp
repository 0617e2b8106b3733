/// @file findings.hpp
/// @brief Chapter 05's data (what each section measures, as plain structs), the
/// pure functions that turn it into tables and checks, and the one JSON line
/// (nlohmann-json) in which ch05_queue_child reports what it measured; plain C++,
/// every branch CPU-tested in tests/ch05_findings_test.cpp.
#pragma once

#include <string>
#include <vector>

#include "overlap_model.hpp"
#include "report.hpp"
#include "trace.hpp"
#include "verify.hpp"

namespace ch05 {

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

/// V1 and V2 at one chunk count, measured in a child.
struct QueueSchedules {
  int chunks = 0;             ///< chunks (= streams)
  std::vector<double> v1_ms;  ///< V1's samples
  std::vector<double> v2_ms;  ///< V2's samples
  bool correct = false;       ///< both gave the right result
};

/// Two spin kernels per stream, queued depth first (a, b of stream 0, then of
/// stream 1, ...) or breadth first (every a, then every b).
struct StreamOrder {
  int streams = 0;                       ///< streams, two kernels each
  std::vector<double> depth_first_ms;    ///< samples, queued stream by stream
  std::vector<double> breadth_first_ms;  ///< samples, queued kernel by kernel
};

/// What one child process measured, with CUDA_DEVICE_MAX_CONNECTIONS set as asked.
struct QueueChild {
  std::string asked;                      ///< the value the chapter set: "1", "2", "32", or "" (unset: the default)
  std::string seen;                       ///< the value the child read ("" when unset)
  std::string why_not;                    ///< why it did not measure ("" when it did)
  double spin_ms = 0;                     ///< each spin kernel's length
  std::vector<QueueSchedules> schedules;  ///< V1 and V2 per chunk count
  std::vector<StreamOrder> orders;        ///< depth against breadth first per stream count
  bool measured() const { return why_not.empty(); }  ///< it ran and reported (why_not says why not)
};

/// Section 3: one child per connection count.
struct QueueRun {
  std::vector<QueueChild> children;  ///< one per connection count asked for
  std::string skipped;               ///< "" when the children ran; else why none was started
  double mib = 0;                    ///< MiB each child copied each way
};

/// Section 4: one run of a schedule recorded by CUPTI.
struct RecordedSchedule {
  Schedule schedule = Schedule::sequential;  ///< sequential, V1 or V2
  int chunks = 1;                            ///< chunks (= streams)
  bool recorded = false;                     ///< false: why_not says why (no CUPTI, or a tool holds it)
  std::string why_not;                       ///< why nothing was recorded ("" when it was)
  std::vector<lab::Interval> work;           ///< what ran, as CUPTI recorded it
  lab::Comparison result;                    ///< the output against the CPU
};

/// The child's JSON line: {"seen", "spin_ms", "schedules": [{"chunks", "v1_ms", ...}], "orders": [...]}.
std::string child_output_text(const QueueChild& child);
/// Reads the first line of @p text that parses as the child's JSON into @p child (asked is kept);
/// false, with why_not set, when there is none or it holds no measurement.
bool read_child_output(const std::string& text, QueueChild& child);

/// Section 1: the copies and the kernels alone ("link").
lab::ResultTable link_table(const LinkRun& link);

/// Section 2: every row against sequential, V1 against V2, the model and the bound ("schedules").
lab::ResultTable sweep_table(const SweepRun& sweep, const LinkRun& link);
/// Section 2: every row correct (schedules_correct); overlap saves >= 10 % with the heavy kernel (overlap_heavy).
std::vector<lab::Finding> sweep_findings(const SweepRun& sweep);

/// Section 3: V1 and V2 per connection and chunk count ("queue_schedules").
lab::ResultTable queue_schedule_table(const QueueRun& run);
/// Section 3: depth against breadth first per connection and stream count, beside the model ("stream_orders").
lab::ResultTable stream_order_table(const QueueRun& run);
/// Section 3: every child correct (queue_children_correct); a child or the section not run, skipped.
std::vector<lab::Finding> queue_findings(const QueueRun& run);

/// Section 4: per schedule, the span and how long copies and kernels ran, alone and at once ("recorded").
lab::ResultTable recorded_table(const std::vector<RecordedSchedule>& runs);
/// Section 4: each run correct (recorded_correct); a run not recorded, skipped.
std::vector<lab::Finding> recorded_findings(const std::vector<RecordedSchedule>& runs);

}  // namespace ch05
