/// @file child_lines.hpp
/// @brief The one line each child of sections 5 and 6 prints to report its
/// run (its name and a JSON object, nlohmann-json), how the chapter reads it back, and
/// the names both sides share (the capture modes, the calls, the
/// CUDA_SCALE_LAUNCH_QUEUES values). Plain C++, CPU-tested.
#pragma once

#include <string>
#include <vector>

#include "findings_children.hpp"

namespace ch10 {

/// The capture modes, as the child's --mode takes them: global, thread_local, relaxed.
const std::vector<std::string>& capture_mode_names();
/// The calls made during capture, as the child's --call takes them, in the table's order.
const std::vector<std::string>& capture_call_names();
/// The call made with no capture at all (its mode is "none"): cudaEventRecordWithFlags(External).
extern const char kOutsideCaptureCall[];
/// The CUDA_SCALE_LAUNCH_QUEUES values section 6 tries, unset ("") first; "3x" is not a documented value.
const std::vector<std::string>& queue_scale_values();

/// The line ch10_capture_child prints: its name, then a JSON object of what it measured, e.g.
/// `ch10_capture_child {"call":"malloc","context":"cudaSuccess","end_capture":"cudaErrorStreamCaptureInvalidated",
/// "graph_null":true,"mode":"global","returned":"cudaErrorStreamCaptureUnsupported","status_after":"invalidated"}`.
std::string capture_line(const CaptureProbe& probe);
/// Reads such a line from @p text into @p into (measured = true). Returns false,
/// leaving @p into as it was, when @p text holds no complete line.
bool read_capture_line(const std::string& text, CaptureProbe& into);

/// The line ch10_queue_child prints: its name, then a JSON object of what it measured (seen "": unset), e.g.
/// `ch10_queue_child {"blocked_call_ms":100.4,"depth":2045,"holding_timed_out":false,"launches":16384,
/// "median_call_us":2.1,"seen":"2x"}`.
std::string queue_line(const QueueScaleProbe& probe);
/// Reads such a line from @p text into @p into (measured = true); false, leaving @p into as it was, when none.
bool read_queue_line(const std::string& text, QueueScaleProbe& into);

}  // namespace ch10
