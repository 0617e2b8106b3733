/// @file checks.hpp
/// @brief Chapter 03's checks: pure functions of the data (data.hpp) that judge it, the
/// child's report line and its reader, and the figures the checks and the tables share
/// (a waiting thread's CPU share, the launch-gap estimates). No CUDA header:
/// tests/ch03_checks_test.cpp checks every branch.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch03 {

// --- 1. Events as a stopwatch --------------------------------------------------

/// "events_vs_host": the medians agree within 5 %; the text gives what the host timer read more per sample.
std::vector<lab::Finding> stopwatch_checks(const StopwatchRun& run);

// --- 3. Waiting: spin or sleep -------------------------------------------------

/// CPU time over wall time of a measured wait (0 without wall time).
double cpu_share(const WaitCase& c);
/// Did the waiting thread spin (measured, CPU / wall from 50 %)?
bool spun(const WaitCase& c);
/// Did it sleep (measured, CPU / wall below 20 %)?
bool slept(const WaitCase& c);

/// Reads a wait call's name ("cudaStreamSynchronize") into @p into; false, leaving it as it was, for any other text.
bool wait_call_from_name(const std::string& name, WaitCall& into);

/// The line ch03_wait_child prints per wait call, which compare_waits reads back: "ch03_wait_child
/// <wait call> <what cudaSetDeviceFlags returned> <the scheduling flag read back> <wall ms> <CPU ms>", e.g.
/// "ch03_wait_child cudaStreamSynchronize cudaSuccess cudaDeviceScheduleBlockingSync 20.1 0.04".
std::string wait_case_line(const WaitCase& measured);

/// Reads the line for @p call in @p text into @p into (measured = true),
/// skipping other calls' lines and lines it cannot read. False, leaving
/// @p into as it was, when there is no complete line for @p call.
bool read_wait_case_line(const std::string& text, WaitCall call, WaitCase& into);

/// "blocking_event": a timing check that the cudaEventBlockingSync event's waiting thread did not spin.
std::vector<lab::Finding> wait_checks(const WaitRun& run);

// --- 4. The host stays free ----------------------------------------------------

/// "host_worked": a timing check that the host polled while the kernel ran.
std::vector<lab::Finding> free_host_checks(const FreeHostRun& run);

// --- 5. Pitfall 1: what the events bracket ------------------------------------

/// "bracketing_result" and "pair_contains_copy" (a timing check).
std::vector<lab::Finding> bracketing_checks(const BracketingRun& run);

// --- 6. Pitfall 2: the launch gap, against CUPTI -------------------------------

/// One row of the comparison: an event figure and CUPTI's duration of the same launches.
struct Estimate {
  std::string name;         ///< the row's name, e.g. "blocked stream - empty pair"
  const GapMethod* method;  ///< nullptr: a row computed from another (minus the empty pair)
  double events_us;         ///< median, or median minus the empty pair
  double cupti_us;          ///< NaN when CUPTI gave none
  bool warm;                ///< the L2 was not flushed
};

/// The six rows of one size: the four methods, and the two blocked ones minus the empty pair.
std::vector<Estimate> estimates(const LaunchGapSize& s);
/// Why CUPTI gave no durations at this size (the first method's reason, or "no records").
std::string why_no_cupti(const LaunchGapSize& s);
/// The size as text, e.g. "1Mi floats".
std::string size_text(const LaunchGapSize& s);

/// Every loop correct; at --n the blocked stream below a lone launch (a timing check); at each size the
/// warm method closest to CUPTI against the 5 % benchmark (skipped without CUPTI).
std::vector<lab::Finding> launch_gap_checks(const LaunchGapRun& run);

// --- 7. Timing many streams ----------------------------------------------------

/// "many_streams_results": every stream's c correct.
std::vector<lab::Finding> many_streams_checks(const ManyStreamsRun& run);

// --- 8. Pitfall 3: events on another stream -----------------------------------

/// "wrong_stream_result", and "own_pair_vs_host" and "ordered_pair_vs_host" (timing checks).
std::vector<lab::Finding> wrong_stream_checks(const WrongStreamRun& run);

}  // namespace ch03
