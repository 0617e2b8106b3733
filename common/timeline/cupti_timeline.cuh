/// @file cupti_timeline.cuh
/// @brief Records what the GPU did, with CUPTI's Activity API (the library
/// Nsight Systems builds on), and shows it as a chart or a Perfetto trace.
///
/// @code
///   lab::TimelineRecorder recorder;
///   if (recorder.start()) {                 // false: CUPTI missing or refused, with the reason
///     recorder.name_stream(stream, "stream 1");
///     ... queue work ...
///     std::vector<lab::Interval> work = recorder.stop();   // waits for the GPU, then reads the records
///     std::printf("%s", lab::render_chart(work).c_str());
///   }
/// @endcode
///
/// No CUPTI call is made before start(); while recording, CUPTI timestamps
/// every kernel, copy and memset (a few hundred ns each). One recorder at a
/// time per process: CUPTI's activity buffers are process-wide. Built without
/// CUPTI (-DLAB_WITH_CUPTI=OFF), start() returns false and says so.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "trace.hpp"

namespace lab {

/// Records kernels, copies and memsets between start() and stop().
class TimelineRecorder {
 public:
  TimelineRecorder() = default;
  /// Stops a recording still running (its records are discarded).
  ~TimelineRecorder();
  TimelineRecorder(const TimelineRecorder&) = delete;
  TimelineRecorder& operator=(const TimelineRecorder&) = delete;

  /// CUPTI's clock now, in ns: the time base of the records, for marking host
  /// spans on the same axis (TimelineSession::mark). 0 without CUPTI.
  static std::uint64_t now_ns();

  /// Starts recording kernels, copies and memsets. Returns false, with the
  /// reason in @p why, when CUPTI is missing or refuses (a profiler holds it).
  bool start(std::string* why = nullptr);
  /// Names @p stream for the chart and the trace (else "stream <id>", or
  /// "default stream" for the legacy default stream). Call while recording.
  void name_stream(cudaStream_t stream, const std::string& name);
  /// Waits for the device and returns what ran, in ns after start() (work that
  /// ended before start() is left out). Empty if nothing was recording.
  std::vector<Interval> stop();
  std::size_t dropped() const { return dropped_; }        ///< records CUPTI dropped (buffers full) last time
  std::uint64_t origin_ns() const { return origin_ns_; }  ///< CUPTI's clock at start(), in ns

 private:
  bool recording_ = false;
  std::uint64_t origin_ns_ = 0;
  std::size_t dropped_ = 0;
  std::map<std::uint32_t, std::string> stream_names_;
};

/// A chapter's `--timeline` / `--trace PATH`: records each variant between
/// begin() and end(), prints its chart and writes all of them to one trace, on
/// one time axis. Does nothing unless asked for.
class TimelineSession {
 public:
  /// Prints a chart per variant if @p chart; writes a trace to @p trace_path unless it is "".
  void configure(bool chart, std::string trace_path, std::string device_name);
  /// Was a chart or a trace asked for?
  bool wanted() const { return chart_ || !trace_path_.empty(); }
  /// Starts recording the variant @p title. Says once if CUPTI cannot record.
  void begin(const std::string& title);
  /// Names @p stream in the current recording.
  void name_stream(cudaStream_t stream, const std::string& name);
  /// Adds a host span on row @p row, timed with TimelineRecorder::now_ns().
  void mark(const std::string& row, const std::string& name, std::uint64_t begin_ns, std::uint64_t end_ns);
  /// Stops recording, prints the chart when asked for, keeps the intervals for the trace.
  void end();
  /// Writes the trace file when one was asked for (throws std::runtime_error if it cannot).
  void write() const;

 private:
  bool chart_ = false;
  std::string trace_path_;
  std::string device_name_;
  bool said_unavailable_ = false;
  bool active_ = false;
  std::string title_;
  TimelineRecorder recorder_;
  std::uint64_t first_origin_ns_ = 0;
  std::vector<Interval> marks_;  // host spans of the current recording, absolute ns
  std::vector<Interval> all_;
};

}  // namespace lab
