/// @file data.hpp
/// @brief Chapter 05's data: the structs overlap.cuh's experiments return, one
/// or more per section (what each measured). checks.hpp judges them, tables.hpp
/// prints them; tests/ch05_checks_test.cpp tests both on hand-made data.
#pragma once

#include <string>
#include <vector>

#include "trace.hpp"
#include "verify.hpp"

namespace ch05 {

/// The three schedules of NVIDIA's async.cu.
enum class Schedule { sequential, v1_per_chunk, v2_per_stage };

/// A short name: "sequential", "V1", "V2".
inline const char* schedule_name(Schedule schedule) {
  return schedule == Schedule::sequential ? "sequential" : schedule == Schedule::v1_per_chunk ? "V1" : "V2";
}

/// The copies and the kernels alone, each sampled before and after the sweep
/// (section 1): the measurements the model is made of.
struct LinkRun {
  double bytes = 0;              ///< bytes copied each way
  int copy_engines = 2;          ///< the device's asyncEngineCount
  std::vector<double> h2d_ms;    ///< all bytes copied in, alone
  std::vector<double> d2h_ms;    ///< all bytes copied out, alone
  std::vector<double> both_ms;   ///< all bytes in and all bytes out at the same time (two streams)
  std::vector<double> light_ms;  ///< the light kernel (1 step) over all the data
  std::vector<double> heavy_ms;  ///< the heavy kernel over all the data
  int heavy_steps = 1;           ///< the heavy kernel's steps
  bool heavy_calibrated = true;  ///< steps chosen so it takes about as long as the copy in
};

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

}  // namespace ch05
