/// @file child_lines.hpp
/// @brief The one line each child of sections 5 and 6 prints to report its
/// run, how the chapter reads it back, and the names both sides share (the
/// capture modes, the calls, the CUDA_SCALE_LAUNCH_QUEUES values). Plain C++, CPU-tested.
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

/// The line ch10_capture_child prints: its name, then mode, call, returned, status_after,
/// end_capture, graph_null (0/1) and context, e.g.
/// "ch10_capture_child global malloc cudaErrorStreamCaptureUnsupported invalidated cudaErrorStreamCaptureInvalidated 1
/// cudaSuccess".
std::string capture_line(const CaptureProbe& probe);
/// Reads such a line from @p text into @p into (measured = true). Returns false,
/// leaving @p into as it was, when @p text holds no complete line.
bool read_capture_line(const std::string& text, CaptureProbe& into);

/// The line ch10_queue_child prints: its name, then seen ("-": unset), launches, depth,
/// median_call_us, blocked_call_ms and holding_timed_out (0/1), e.g. "ch10_queue_child 2x 16384 2045 2.125 100.412 0".
std::string queue_line(const QueueScaleProbe& probe);
/// Reads such a line from @p text into @p into (measured = true); false, leaving @p into as it was, when none.
bool read_queue_line(const std::string& text, QueueScaleProbe& into);

}  // namespace ch10
