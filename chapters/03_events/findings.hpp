/// @file findings.hpp
/// @brief Chapter 03's data and what it concludes from it.
///
/// The structs are what the experiments of events.cuh return, one per section
/// of the chapter page. The functions turn them into tables (every number
/// declared once, printed and written to the JSON by lab::Report) and into
/// findings (verdicts and sentences computed from the numbers). Plain C++ with
/// no CUDA header: tests/ch03_findings_test.cpp checks every branch on
/// hand-made data, on any machine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report.hpp"
#include "verify.hpp"

namespace ch03 {

/// What holds whatever the run, and where it is written (a Runtime API page,
/// a tool's source file); lab::Report::add() prints it as background.
using Background = lab::Background;

// --- 1. Events as a stopwatch --------------------------------------------------

/// The same launches of a long kernel, timed by an event pair and by a host
/// timer around it (the stream idle before, cudaEventSynchronize after).
struct StopwatchRun {
  double kernel_ms = 0;          ///< how long the kernel was asked to spin
  std::vector<double> event_ms;  ///< cudaEventElapsedTime of each sample
  std::vector<double> host_ms;   ///< the host timer of the same sample
};

/// Events and host timer side by side: median, min, max and the host's excess.
lab::ResultTable stopwatch_table(const StopwatchRun& run);
/// A timing check (the medians agree within 5 %) and what the host timer adds.
std::vector<lab::Finding> stopwatch_findings(const StopwatchRun& run);
/// What cudaEventRecord and cudaEventSynchronize promise.
std::vector<Background> stopwatch_background();

// --- 2. What an event costs ----------------------------------------------------

/// An empty event pair on the GPU, and one cudaEventRecord on the host.
struct EventCostRun {
  std::vector<double> empty_pair_us;             ///< two events queued back to back behind a held stream
  std::vector<double> record_default_us;         ///< host time of cudaEventRecord, a timing event
  std::vector<double> record_disable_timing_us;  ///< the same, an event made with cudaEventDisableTiming
};

/// The three costs in microseconds.
lab::ResultTable event_cost_table(const EventCostRun& run);
/// The empty pair against the documented resolution; the two record costs compared.
std::vector<lab::Finding> event_cost_findings(const EventCostRun& run);
/// The resolution of cudaEventElapsedTime; what cudaEventDisableTiming is for.
std::vector<Background> event_cost_background();
/// The median of the empty pair: what section 6 subtracts from its blocked rows.
double empty_pair_median_us(const EventCostRun& run);

// --- 3. Waiting: spin or sleep -------------------------------------------------

/// The call a thread waits in.
enum class WaitCall {
  event_synchronize,   ///< cudaEventSynchronize(event): the event's own flag decides how it waits (its page)
  stream_synchronize,  ///< cudaStreamSynchronize(stream): the device's scheduling flag decides (its page)
  device_synchronize   ///< cudaDeviceSynchronize(): the device's scheduling flag decides (its page)
};

/// The CUDA function's name, e.g. "cudaStreamSynchronize".
std::string wait_call_name(WaitCall call);
/// Reads such a name into @p into; false, leaving it as it was, for any other text.
bool wait_call_from_name(const std::string& name, WaitCall& into);

/// What waiting for a kernel cost the waiting thread.
struct WaitCost {
  double wall_ms = 0;  ///< host wall time inside the wait call
  double cpu_ms = 0;   ///< CPU time the waiting thread used meanwhile
};

/// One way of waiting: a wait call (on an event of some kind) under a device scheduling flag.
struct WaitCase {
  WaitCall call = WaitCall::event_synchronize;  ///< the call the thread waited in
  std::string event;        ///< "default" or "cudaEventBlockingSync"; "" when the call waits on no event
  std::string device_flag;  ///< the scheduling flag cudaGetDeviceFlags read back, e.g. "cudaDeviceScheduleAuto"
  std::string process;      ///< "this" (the chapter's process) or "child" (a fresh process)
  std::string
      set_flags_result;   ///< what cudaSetDeviceFlags returned ("cudaSuccess", an error name), "" when not called
  bool measured = false;  ///< false: the child did not run or did not report
  std::string why_not;    ///< why not measured
  WaitCost cost;          ///< when measured
};

/// The ways of waiting for the same kernel, side by side: each wait call under
/// the device's flags as they are, and under cudaDeviceScheduleBlockingSync.
struct WaitRun {
  double kernel_ms = 0;        ///< the kernel waited for
  unsigned logical_cores = 0;  ///< std::thread::hardware_concurrency(): the P of cudaDeviceScheduleAuto's rule
  WaitCase default_event;      ///< cudaEventSynchronize, a default event, the device's flags as they are (this process)
  WaitCase blocking_event;     ///< cudaEventSynchronize, an event made with cudaEventBlockingSync (this process)
  WaitCase stream_sync;        ///< cudaStreamSynchronize, the device's flags as they are (this process)
  WaitCase device_sync;        ///< cudaDeviceSynchronize, the device's flags as they are (this process)
  WaitCase flag_before_context;      ///< cudaEventSynchronize, a default event; cudaDeviceScheduleBlockingSync set
                                     ///< before the context exists (child)
  WaitCase flag_before_stream_sync;  ///< cudaStreamSynchronize, in the same child as flag_before_context
  WaitCase flag_before_device_sync;  ///< cudaDeviceSynchronize, in the same child as flag_before_context
  WaitCase flag_after_context;       ///< cudaEventSynchronize, a default event; cudaDeviceScheduleBlockingSync set once
                                     ///< the context exists (another child)
  WaitCase flag_after_stream_sync;  ///< cudaStreamSynchronize, in the same child as flag_after_context
};

/// Wall and CPU time of each way, with its wait call and the flag in force.
lab::ResultTable wait_table(const WaitRun& run);
/// Whether each waiting thread spun or slept, computed from CPU / wall; for
/// cudaStreamSynchronize and cudaDeviceSynchronize, whether the device flag
/// made it sleep; and which calls the device flag reached in this run.
std::vector<lab::Finding> wait_findings(const WaitRun& run);
/// cudaEventSynchronize, cudaStreamSynchronize, cudaDeviceSynchronize and cudaSetDeviceFlags on waiting.
std::vector<Background> wait_background();

/// A waiting thread "spun" when it used at least this share of the wall time as CPU time.
constexpr double kSpinShare = 0.5;
/// A waiting thread "slept" when it used less than this share of the wall time as CPU time.
constexpr double kSleepShare = 0.2;

/// One line the child process (ch03_wait_child) prints per wait call, e.g.
/// "ch03_wait_child wait=cudaStreamSynchronize set_flags=cudaSuccess flag=cudaDeviceScheduleBlockingSync
/// wall_ms=20.1 cpu_ms=0.04".
std::string wait_case_line(const WaitCase& measured);
/// Reads the line for @p call in @p text into @p into (its flag,
/// set_flags_result and cost; measured = true), skipping the lines of other
/// calls. Returns false, leaving @p into as it was, when @p text holds no
/// complete line for @p call (or a child line that cannot be read).
bool read_wait_case_line(const std::string& text, WaitCall call, WaitCase& into);

// --- 4. The host stays free ----------------------------------------------------

/// What the host did while a kernel ran, polling cudaEventQuery.
struct FreeHostRun {
  double kernel_ms = 0;               ///< the kernel, from its events
  double host_ms = 0;                 ///< host time until cudaEventQuery said done
  std::uint64_t polls = 0;            ///< cudaEventQuery calls that answered cudaErrorNotReady
  std::uint64_t work_iterations = 0;  ///< CPU work done between the polls
};

/// One row: kernel, host time, polls, CPU work.
lab::ResultTable free_host_table(const FreeHostRun& run);
/// A timing check: the host polled while the kernel ran.
std::vector<lab::Finding> free_host_findings(const FreeHostRun& run);
/// What cudaEventQuery returns.
std::vector<Background> free_host_background();

// --- 5. Pitfall 1: what the events bracket ------------------------------------

/// The same copy and kernel, with the events placed three ways.
struct BracketingRun {
  double copy_mib = 0;                     ///< the host-to-device copy (pinned source)
  std::vector<double> copy_and_kernel_us;  ///< start; copy; kernel; stop
  std::vector<double> kernel_only_us;      ///< copy; start; kernel; stop
  std::vector<double> copy_only_us;        ///< start; copy; stop
  lab::Comparison result;                  ///< c after the loop (poisoned before), against the CPU
};

/// The three placements, in microseconds.
lab::ResultTable bracketing_table(const BracketingRun& run);
/// Correctness, a timing check (copy + kernel reads more than the kernel) and the sum.
std::vector<lab::Finding> bracketing_findings(const BracketingRun& run);

// --- 6. Pitfall 2: the launch gap, against CUPTI -------------------------------

/// One way of placing the samples on the stream, at one size.
struct GapMethod {
  std::vector<double> events_us;  ///< cudaEventElapsedTime of each sample
  std::vector<double> cupti_us;   ///< CUPTI's kernel duration of the same launches; empty when CUPTI gave none
  std::string cupti_missing;      ///< why cupti_us is empty ("" when it is not)
  lab::Comparison result;         ///< c after this method's loop (poisoned before), against the CPU
};

/// The four methods at one kernel size.
struct LaunchGapSize {
  std::int64_t n = 0;                ///< floats per vector
  double empty_pair_us = 0;          ///< median of the empty event pair (section 2), subtracted from the blocked rows
  std::uint64_t l2_flush_bytes = 0;  ///< bytes the L2 flush writes before each cold sample
  GapMethod back_to_back;            ///< every sample queued, one wait at the end
  GapMethod isolated;                ///< the host waits after every sample
  GapMethod blocked;                 ///< each sample queued behind a held stream (nvbench)
  GapMethod blocked_flushed;         ///< the same, the L2 flushed before each sample
};

/// Both sizes.
struct LaunchGapRun {
  std::vector<LaunchGapSize> sizes;  ///< the small kernel first
};

/// One size: every method's events beside CUPTI's duration of the same launches.
lab::ResultTable launch_gap_table(const LaunchGapSize& size);
/// Correctness after every loop, a timing check (blocked < isolated at the
/// first size), the launch gap, which event method came closest to CUPTI and
/// by how much, the cold rows, and the page's benchmark (within 5 % at the first size).
std::vector<lab::Finding> launch_gap_findings(const LaunchGapRun& run);
/// The event resolution, what CUPTI records, and how nvbench, triton and this repository flush the L2.
std::vector<Background> launch_gap_background();

/// The page's benchmark: the best event method within this share of CUPTI's median.
constexpr double kBenchmarkTolerance = 0.05;

// --- 7. Timing many streams ----------------------------------------------------

/// Work spread over several streams, each with its own begin and end event.
struct ManyStreamsRun {
  double one_kernel_ms = 0;               ///< one stream's kernel alone (median, back to back)
  std::vector<double> per_stream_ms;      ///< each stream's own begin/end pair
  double first_begin_to_last_end_ms = 0;  ///< the whole: first begin event to the latest end event
  double host_ms = 0;                     ///< the whole, by a synchronised host timer
  std::vector<lab::Comparison> results;   ///< each stream's c, against the CPU
};

/// Each stream's pair, the whole two ways, and one kernel alone.
lab::ResultTable many_streams_table(const ManyStreamsRun& run);
/// Correctness of every stream; whether the pairs waited; whether the kernels overlapped.
std::vector<lab::Finding> many_streams_findings(const ManyStreamsRun& run);
/// What cudaEventElapsedTime says about events in non-NULL streams.
std::vector<Background> many_streams_background();

}  // namespace ch03
