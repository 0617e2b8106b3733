/// @file host_calls.cuh
/// @brief Section 4's second half: what a CUDA call made inside a host function
/// does. The Runtime API says a host function "must not make any CUDA API calls"
/// and that trying "may result in cudaErrorNotPermitted, but this is not
/// required": a call may also succeed, or wait for the stream whose host
/// function is running it, for ever. So each call is made in a child process of
/// its own (ch11_host_call_child), which the chapter stops after a few seconds.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"

namespace ch11 {

/// The calls a host function makes, one per child: "stream_query" (another
/// stream), "memset_async" (on another stream), "malloc", "sync_own_stream"
/// (cudaStreamSynchronize of the stream the host function runs in).
const std::vector<std::string>& host_call_names();

/// In the child: queues a host function that makes @p call on a new stream, then
/// synchronises that stream; what the call returned and what the sync returned.
/// A call that never returns leaves the child waiting (the parent stops it).
HostCallProbe probe_host_call(const std::string& call);
/// The child's one line for @p probe: "host_call NAME RETURNED SYNC".
std::string host_call_line(const HostCallProbe& probe);
/// Reads that line from @p text into @p probe, whose call names it; false when there is none.
bool read_host_call_line(const std::string& text, HostCallProbe& probe);

/// Runs the child of @p program once per call, each stopped after
/// @p timeout_s seconds; skipped when @p instrumented (a tool would follow each child).
HostCallRun run_host_call_children(const std::string& program, bool instrumented, double timeout_s = 5.0);
/// ch11_host_call_child, beside this program.
std::string host_call_child_program();

}  // namespace ch11
