/// @file findings_children.hpp
/// @brief Sections 5 and 6: what the two child programs reported (one
/// ch10_capture_child per capture mode and call, one ch10_queue_child per
/// CUDA_SCALE_LAUNCH_QUEUES value), and the tables and findings made from it.
/// Plain C++, CPU-tested in tests/ch10_children_findings_test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report.hpp"

namespace ch10 {

// --- 5. What stream capture forbids --------------------------------------------

/// One call made while a stream captured, as ch10_capture_child reported it.
struct CaptureProbe {
  std::string mode;          ///< "global", "thread_local", "relaxed", or "none" (the call needs no capture)
  std::string call;          ///< e.g. "malloc" (child_lines.hpp lists them)
  bool measured = false;     ///< false: the child did not run, or did not report
  std::string why_not;       ///< why not measured
  std::string returned;      ///< cudaGetErrorName of what the call returned
  std::string status_after;  ///< cudaStreamIsCapturing after it: "active", "invalidated", "none" (or its error)
  std::string end_capture;   ///< cudaGetErrorName of cudaStreamEndCapture; "-" when nothing was captured
  bool graph_null = false;   ///< cudaStreamEndCapture gave a NULL graph
  std::string context;  ///< "cudaSuccess" when a kernel, a copy and a sync after it all worked; else the first error
};

/// Every (mode, call) child, in order, or why they were skipped.
struct CaptureRun {
  bool skipped = false;              ///< not run (an instrumented run)
  std::string skip_reason;           ///< why
  std::vector<CaptureProbe> probes;  ///< one per child
};

/// What the documentation says of a call made during capture in a mode.
enum class Documented { prohibited, allowed, not_stated };
/// The documented verdict for @p call in @p mode (the page's section 5 quotes the sentences).
Documented documented(const std::string& mode, const std::string& call);

/// One row per child ("call / mode"): documented, returned, status after, EndCapture, NULL graph, context.
lab::ResultTable capture_calls_table(const CaptureRun& run);
/// Three checks: the calls against the documentation (capture_as_documented), the context after every
/// child (context_survives), what a refused call did to the capture (invalidation).
std::vector<lab::Finding> capture_findings(const CaptureRun& run);

// --- 6. The launch queue's depth -----------------------------------------------

/// One ch10_queue_child run: chapter 08's fill_launch_queue under one CUDA_SCALE_LAUNCH_QUEUES value.
struct QueueScaleProbe {
  std::string value;               ///< the value set ("": the variable removed, the driver's default)
  bool measured = false;           ///< false: the child did not run, or did not report
  std::string why_not;             ///< why not measured
  std::string seen;                ///< what the child read from its environment ("": unset)
  std::int64_t launches = 0;       ///< the most launches it queued into the held stream
  std::int64_t depth = -1;         ///< launches that returned before the first call that waited; -1: none waited
  double median_call_us = 0;       ///< median launch call before that one
  double blocked_call_ms = 0;      ///< how long the waiting call took (the holding kernel's release ends it)
  bool holding_timed_out = false;  ///< the holding kernel gave up before it was released (depth not valid)
};

/// Every value's child, in order (the unset one first), or why they were skipped.
struct QueueScaleRun {
  bool skipped = false;                 ///< not run (an instrumented run)
  std::string skip_reason;              ///< why
  std::vector<QueueScaleProbe> probes;  ///< one per value
};

/// The documented factor of @p value: 0.25, 0.5, 2 or 4, and 1 for anything else (the unset variable included).
double documented_ratio(const std::string& value);

/// One row per value: what the child read, the depth, its ratio to the unset depth, the documented ratio,
/// whether the two agree within 10 % ("as documented": yes / no).
lab::ResultTable queue_scale_table(const QueueScaleRun& run);
/// queue_scale.skipped when the children did not run; else none (the table says it).
std::vector<lab::Finding> queue_scale_findings(const QueueScaleRun& run);

}  // namespace ch10
