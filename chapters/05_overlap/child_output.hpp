/// @file child_output.hpp
/// @brief What ch05_queue_child measures (section 3) and the one JSON line it
/// prints it as (nlohmann-json), read back by the chapter: plain C++,
/// CPU-tested in tests/ch05_findings_test.cpp.
///
///   {"connections":"1","spin_ms":2.0,"schedules":[{"chunks":4,"correct":true,"v1_ms":[...],"v2_ms":[...]}],
///    "orders":[{"streams":4,"depth_first_ms":[...],"breadth_first_ms":[...]}]}
#pragma once

#include <string>
#include <vector>

namespace ch05 {

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
  int connections = 0;                    ///< seen as a number: 8 when unset (the documented default), 0 if unreadable
  bool measured = false;                  ///< false: it did not run or did not report; why_not says why
  std::string why_not;                    ///< why it did not measure ("" when it did)
  double spin_ms = 0;                     ///< each spin kernel's length
  std::vector<QueueSchedules> schedules;  ///< V1 and V2 per chunk count
  std::vector<StreamOrder> orders;        ///< depth against breadth first per stream count
};

/// The JSON line for what @p child measured (seen, spin_ms, schedules, orders).
std::string child_output_text(const QueueChild& child);

/// Reads the first line of @p text that parses as the child's JSON into @p child
/// (asked is kept). Returns false, with why_not set, when there is none.
bool read_child_output(const std::string& text, QueueChild& child);

}  // namespace ch05
