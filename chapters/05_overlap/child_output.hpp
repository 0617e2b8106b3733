/// @file child_output.hpp
/// @brief What ch05_queue_child measures (section 3), the lines it prints and
/// how the chapter reads them back: plain C++, CPU-tested in
/// tests/ch05_findings_test.cpp.
///
///   connections 1            (CUDA_DEVICE_MAX_CONNECTIONS as the child saw it, or "unset")
///   schedules 4 1 2.0,2.1 1.5,1.6    (chunks, both correct, V1's and V2's samples in ms)
///   spin 2.000               (each spin kernel's length in ms)
///   orders 4 10.0,10.1 4.0   (streams, depth first's and breadth first's samples in ms)
///   done
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

/// The lines above for what @p child measured (asked, measured and why_not are not written).
std::string child_output_text(const QueueChild& child);

/// Parses what ch05_queue_child printed into @p child (asked is kept). Returns
/// false, with why_not set, when a line is missing or cannot be read.
bool read_child_output(const std::string& text, QueueChild& child);

}  // namespace ch05
