/// @file data.hpp
/// @brief Chapter 03's data, one struct per section of the chapter page (what
/// events.cuh returns). The checks that judge it are in checks.hpp, the tables
/// that print it in tables.hpp. No CUDA header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "verify.hpp"

namespace ch03 {

// --- 1. Events as a stopwatch --------------------------------------------------

/// The same launches of a long kernel, timed by an event pair and by a host timer around it.
struct StopwatchRun {
  double kernel_ms = 0;          ///< how long the kernel was asked to spin
  std::vector<double> event_ms;  ///< cudaEventElapsedTime of each sample
  std::vector<double> host_ms;   ///< the host timer of the same sample
};

// --- 2. What an event costs ----------------------------------------------------

/// An empty event pair on the GPU, and one cudaEventRecord on the host.
struct EventCostRun {
  std::vector<double> empty_pair_us;             ///< two events queued back to back behind a held stream
  std::vector<double> record_default_us;         ///< host time of cudaEventRecord, a timing event
  std::vector<double> record_disable_timing_us;  ///< the same, an event made with cudaEventDisableTiming
};

// --- 3. Waiting: spin or sleep -------------------------------------------------

/// The call a thread waits in.
enum class WaitCall {
  event_synchronize,   ///< cudaEventSynchronize(event): its page says the event's flag decides how it waits
  stream_synchronize,  ///< cudaStreamSynchronize(stream): its page says the device's scheduling flag decides
  device_synchronize   ///< cudaDeviceSynchronize(): the same
};

/// The wait calls' names, in WaitCall order.
constexpr const char* kWaitCallNames[] = {"cudaEventSynchronize", "cudaStreamSynchronize", "cudaDeviceSynchronize"};

/// The CUDA function's name, e.g. "cudaStreamSynchronize".
inline std::string wait_call_name(WaitCall call) { return kWaitCallNames[static_cast<int>(call)]; }

/// What waiting for a kernel cost the waiting thread.
struct WaitCost {
  double wall_ms = 0;  ///< host wall time inside the wait call
  double cpu_ms = 0;   ///< CPU time the waiting thread used meanwhile
};

/// One way of waiting: a wait call (on an event of some kind) under a device scheduling flag.
struct WaitCase {
  WaitCall call = WaitCall::event_synchronize;  ///< the call the thread waited in
  std::string device_flag;       ///< the scheduling flag cudaGetDeviceFlags read back, e.g. "cudaDeviceScheduleAuto"
  std::string set_flags_result;  ///< what cudaSetDeviceFlags returned ("cudaSuccess", an error); "" when not called
  bool measured = false;         ///< false: the child did not run or did not report
  std::string why_not;           ///< why not measured
  WaitCost cost;                 ///< when measured
};

/// Each wait call under this process's flags, and under cudaDeviceScheduleBlockingSync set in a child process.
struct WaitRun {
  double kernel_ms = 0;              ///< the kernel waited for
  unsigned logical_cores = 0;        ///< std::thread::hardware_concurrency(): the P of cudaDeviceScheduleAuto's rule
  WaitCase default_event;            ///< cudaEventSynchronize on a default event
  WaitCase blocking_event;           ///< cudaEventSynchronize on a cudaEventBlockingSync event
  WaitCase stream_sync;              ///< cudaStreamSynchronize
  WaitCase device_sync;              ///< cudaDeviceSynchronize
  WaitCase flag_before_context;      ///< a default event; the flag set before the context (child)
  WaitCase flag_before_stream_sync;  ///< cudaStreamSynchronize, in the same child
  WaitCase flag_before_device_sync;  ///< cudaDeviceSynchronize, in the same child
  WaitCase flag_after_context;       ///< a default event; the flag set once the context exists (another child)
  WaitCase flag_after_stream_sync;   ///< cudaStreamSynchronize, in that child
};

// --- 4. The host stays free ----------------------------------------------------

/// What the host did while a kernel ran, polling cudaEventQuery.
struct FreeHostRun {
  double kernel_ms = 0;               ///< the kernel, from its events
  double host_ms = 0;                 ///< host time until cudaEventQuery said done
  std::uint64_t polls = 0;            ///< cudaEventQuery calls that answered cudaErrorNotReady
  std::uint64_t work_iterations = 0;  ///< CPU work done between the polls
};

// --- 5. Pitfall 1: what the events bracket ------------------------------------

/// The same copy and kernel, with the events placed three ways.
struct BracketingRun {
  double copy_mib = 0;                     ///< the host-to-device copy (pinned source)
  std::vector<double> copy_and_kernel_us;  ///< start; copy; kernel; stop
  std::vector<double> after_copy_us;       ///< copy; start; kernel; stop (more than the kernel alone: section 6)
  std::vector<double> copy_only_us;        ///< start; copy; stop
  lab::Comparison result;                  ///< c after the loop (poisoned before), against the CPU
};

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
  std::string option;                ///< the option that set n, as an id: "n" or "n_large"
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
  LaunchGapSize small;  ///< --n
  LaunchGapSize large;  ///< --n-large
};

// --- 7. Timing many streams ----------------------------------------------------

/// Work spread over several streams, each with its own begin and end event.
struct ManyStreamsRun {
  double one_kernel_ms = 0;                    ///< one stream's kernel alone (median, back to back)
  std::vector<double> per_stream_ms;           ///< each stream's own begin/end pair
  double earliest_begin_to_latest_end_ms = 0;  ///< the whole: the earliest begin event to the latest end event
  double host_ms = 0;                          ///< the whole, by a synchronised host timer
  std::vector<lab::Comparison> results;        ///< each stream's c, against the CPU
};

// --- 8. Pitfall 3: events on another stream -----------------------------------

/// The same launches timed at once by a pair on the work's stream, pairs on another stream, and the host.
struct WrongStreamRun {
  std::int64_t n = 0;                   ///< floats per vector
  std::vector<double> own_stream_us;    ///< the pair recorded on the work's stream
  std::vector<double> other_stream_us;  ///< the pair recorded on another non-blocking stream (the mistake)
  std::vector<double> joined_us;        ///< a pair on the other stream, fork and join: ordered both ways (the fix)
  std::vector<double> host_us;          ///< host timer: before the first record to cudaStreamSynchronize(work)
  std::size_t unfinished = 0;           ///< samples whose work had not ended when the other pair's stop had
  lab::Comparison result;               ///< c after the loop (poisoned before), against the CPU
};

}  // namespace ch03
