/// @file findings.hpp
/// @brief Chapter 05's data (what each section measures, as plain structs) and
/// the pure functions that turn it into tables and findings.
///
/// Plain C++, no GPU: tests/ch05_findings_test.cpp checks every branch of
/// every finding on hand-made data.
#pragma once

#include <string>
#include <vector>

#include "overlap_model.hpp"
#include "report.hpp"
#include "trace.hpp"
#include "verify.hpp"

namespace ch05 {

/// The three schedules of NVIDIA's async.cu.
enum class Schedule { sequential, v1_per_chunk, v2_per_stage };

/// A short name: "sequential", "V1", "V2".
const char* schedule_name(Schedule schedule);

// --- 1. and 2. The link, the kernels, the sweep ---------------------------------

/// The copies and the kernels alone, each sampled before and after the sweep.
struct LinkRun {
  double bytes = 0;                 ///< bytes copied each way
  int copy_engines = 2;             ///< the device's asyncEngineCount
  std::vector<double> h2d_ms;       ///< all bytes copied in, alone
  std::vector<double> d2h_ms;       ///< all bytes copied out, alone
  std::vector<double> both_ms;      ///< all bytes in and all bytes out at the same time (two streams)
  std::vector<double> light_ms;     ///< the light kernel (1 step) over all the data
  std::vector<double> heavy_ms;     ///< the heavy kernel over all the data
  int heavy_steps = 1;              ///< the heavy kernel's steps
  bool heavy_calibrated = true;     ///< steps chosen so it takes about as long as the copy in
};

/// One row of the sweep: a schedule at one chunk count with one kernel.
struct ScheduleRow {
  std::string kernel;              ///< "light" or "heavy"
  Schedule schedule = Schedule::sequential;  ///< sequential, V1 or V2
  int chunks = 1;                            ///< chunks (= streams) the data was split into
  std::vector<double> samples_ms;  ///< events on the legacy default stream around each run
  lab::Comparison result;          ///< the output of the last run against the CPU
};

/// Section 2: every row, and the connections this process has.
struct SweepRun {
  std::vector<ScheduleRow> rows;  ///< light kernel rows, then heavy, each sequential, V1, V2 by chunk count
  std::string connections;  ///< CUDA_DEVICE_MAX_CONNECTIONS as this process saw it ("" when unset)
};

/// The model's inputs for @p kernel ("light" or "heavy"), each the median of its samples.
LinkAndKernel typical_inputs(const LinkRun& link, const std::string& kernel);
/// The same, each the fastest of its samples: what the lower bound is made of.
LinkAndKernel best_inputs(const LinkRun& link, const std::string& kernel);

/// Section 1: the copies and the kernels alone (min, median, max; GB/s at the best).
lab::ResultTable link_table(const LinkRun& link);
/// Section 1: the lower bound of each kernel and what sets it, with its spread.
std::vector<lab::Finding> bound_findings(const LinkRun& link);

/// Section 2: every row with its median, min, max, the model's prediction and the bound.
lab::ResultTable sweep_table(const SweepRun& sweep, const LinkRun& link);
/// Section 2: every row correct; overlap against sequential; the best row against the
/// bound; rows that beat the bound (with their numbers); V1 against V2.
std::vector<lab::Finding> sweep_findings(const SweepRun& sweep, const LinkRun& link);

/// V1's median relative to V2's, in % (positive: V2 was faster).
double v1_over_v2_percent(double v1_ms, double v2_ms);

// --- 3. The hardware's work queues (child processes) ----------------------------

/// V1 and V2 at one chunk count, measured in a child.
struct QueueSchedules {
  int chunks = 0;              ///< chunks (= streams)
  std::vector<double> v1_ms;   ///< V1's samples
  std::vector<double> v2_ms;   ///< V2's samples
  bool correct = false;  ///< both gave the right result
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
  std::string asked;          ///< the value the chapter set: "1", "2", "32", or "" (unset: the default)
  std::string seen;           ///< the value the child read ("" when unset)
  bool measured = false;      ///< false: it did not run or did not report; why_not says why
  std::string why_not;        ///< why it did not measure ("" when it did)
  double spin_ms = 0;         ///< each spin kernel's length
  std::vector<QueueSchedules> schedules;  ///< V1 and V2 per chunk count
  std::vector<StreamOrder> orders;        ///< depth against breadth first per stream count
};

/// Section 3: one child per connection count.
struct QueueRun {
  std::vector<QueueChild> children;  ///< one per connection count asked for
  std::string skipped;  ///< "" when the children ran; else why none was started
  double mib = 0;       ///< MiB each child copied each way
};

/// Parses what ch05_queue_child printed into @p child (asked is kept). Returns
/// false, with why_not set, when a line is missing or cannot be read.
bool read_child_output(const std::string& text, QueueChild& child);

/// Section 3, first table: V1 and V2 medians for each connection count and chunk count.
lab::ResultTable queue_schedule_table(const QueueRun& run);
/// Section 3, second table: depth first against breadth first for each connection and stream count.
lab::ResultTable stream_order_table(const QueueRun& run);
/// Section 3: each child correct; how far V1 and V2 were apart with one connection
/// and with the default; whether streams that share a connection serialized.
std::vector<lab::Finding> queue_findings(const QueueRun& run);
/// What holds whatever the run: connections, Hyper-Q, NVIDIA's article.
std::vector<lab::Background> queue_background();

// --- 4. The schedules as CUPTI recorded them ------------------------------------

/// One run of a schedule recorded by CUPTI.
struct RecordedSchedule {
  Schedule schedule = Schedule::sequential;  ///< sequential, V1 or V2
  int chunks = 1;                            ///< chunks (= streams)
  bool recorded = false;             ///< false: why_not says why (no CUPTI, or a tool holds it)
  std::string why_not;               ///< why nothing was recorded ("" when it was)
  std::vector<lab::Interval> work;   ///< what ran, as CUPTI recorded it
  lab::Comparison result;            ///< the output against the CPU
};

/// Section 4: per schedule, the span and how long copies and kernels ran, alone and at once.
lab::ResultTable recorded_table(const std::vector<RecordedSchedule>& runs);
/// Section 4: each recorded run correct, and what overlapped (or that nothing was recorded).
std::vector<lab::Finding> recorded_findings(const std::vector<RecordedSchedule>& runs);

}  // namespace ch05
