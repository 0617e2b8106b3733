/// @file capture_rules.cuh
/// @brief Chapter 10, section 5: what stream capture forbids, as data.
///
/// Each call is made in a process of its own (ch10_capture_child), since a
/// call made during capture may leave the process's capture state, or its
/// context, other than it found them: begin a capture in one mode, queue a
/// kernel, make the call, record what it returned, what cudaStreamIsCapturing
/// and cudaStreamEndCapture then say, and whether a kernel, a copy and a sync
/// still work afterwards. The data are data.hpp's CaptureProbe.
#pragma once

#include <string>

#include "data.hpp"

namespace ch10 {

/// 5, in ch10_capture_child: begins capture in @p mode ("global", "thread_local",
/// "relaxed"; capture_mode_names()) on a stream (blocking for "memcpy_legacy",
/// else non-blocking), queues a kernel, makes @p call and records what followed.
/// For kOutsideCaptureCall (mode "none") nothing is captured. Every call that
/// must succeed is checked; the probed call's result is recorded, not checked.
CaptureProbe probe_capture_call(const std::string& mode, const std::string& call);

/// 5. Runs @p child_program once for (@p mode, @p call) and reads back its line.
CaptureProbe run_capture_child(const std::string& child_program, const std::string& mode, const std::string& call);

/// 5. Every call of capture_call_names() in every mode, then kOutsideCaptureCall,
/// one child each; skipped (with the reason) when @p instrumented.
CaptureRun run_capture_children(const std::string& child_program, bool instrumented);

/// Where ch10_capture_child is: beside the running executable.
std::string capture_child_program();

}  // namespace ch10
