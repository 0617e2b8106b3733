/// @file events.cuh
/// @brief Chapter 03's lesson: CUDA events as GPU stopwatches, what they cost,
/// how a thread waits for them, and what an event pair silently includes.
///
/// After the Numba streams-and-events tutorial (events as GPU-side timestamps,
/// a `CUDATimer`, timing many streams from the first begin event to the last
/// end event) and Speechmatics' "How to Accurately Time CUDA Kernels in
/// PyTorch" (an event pair that also timed a copy; a lone small kernel whose
/// events timed the launch gap). One function per section of the chapter page,
/// in its order; each returns the data of data.hpp and prints nothing.
///
/// The CPU reference and the timed kernel are chapter 01's `c = a + b`
/// (ch01::AddProblem: random a and b, the CPU's answer from ch01::add_on_cpu,
/// and `add<<<grid, block, 0, stream>>>` behind launch()). The long kernel is
/// lab::launch_spin (common/lesson/clock.cuh), one thread spinning for a set time.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "device.cuh"

namespace ch03 {

/// 1. Times @p samples launches of a @p kernel_ms kernel with the bare event
/// API (cudaEventCreate, cudaEventRecord(start, stream), the launch,
/// cudaEventRecord(stop, stream), cudaEventSynchronize, cudaEventElapsedTime,
/// cudaEventDestroy), and the same launches with a host timer around them.
StopwatchRun time_long_kernel(double kernel_ms, int samples, cudaStream_t stream);

/// 2. @p pairs readings of two events recorded back to back behind a held
/// stream (what a pair reads around nothing), and the host time of @p records
/// cudaEventRecord calls for a timing event and for a cudaEventDisableTiming one.
EventCostRun measure_event_costs(int pairs, int records, cudaStream_t stream);

/// 3a. Launches a @p kernel_ms kernel and waits for it in @p call:
/// cudaEventSynchronize on an event made with
/// cudaEventCreateWithFlags(&done, @p event_flags) and recorded after the
/// kernel, cudaStreamSynchronize(stream) or cudaDeviceSynchronize() (no event
/// for these two; @p event_flags is unused). Returns the wall time and this
/// thread's CPU time of the wait.
WaitCost wait_for_kernel(WaitCall call, unsigned event_flags, double kernel_ms, cudaStream_t stream);

/// 3a. The same in cudaEventSynchronize.
WaitCost wait_for_kernel(unsigned event_flags, double kernel_ms, cudaStream_t stream);

/// 3b. Run in a fresh process (ch03_wait_child): calls
/// cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) before this process has
/// a context (@p before_context) or once it has one, reads the flags back with
/// cudaGetDeviceFlags, then waits for a @p kernel_ms kernel in each of @p calls
/// (on a default event for cudaEventSynchronize), one after the other.
std::vector<WaitCase> wait_with_blocking_sync_flag(bool before_context, double kernel_ms,
                                                   const std::vector<WaitCall>& calls);

/// 3. The ways of waiting: cudaEventSynchronize on a default event and on a
/// cudaEventBlockingSync event, cudaStreamSynchronize and cudaDeviceSynchronize
/// in this process (flags untouched); then, each in a child process started
/// from @p child_program so this process's flags stay as they are, the three
/// wait calls with cudaDeviceScheduleBlockingSync set before the context, and
/// cudaEventSynchronize with the flag set once the context exists.
WaitRun compare_waits(double kernel_ms, cudaStream_t stream, const std::string& child_program);

/// Where ch03_wait_child is: beside the running executable (program_beside_this_one, child_process.hpp).
std::string wait_child_program();

/// The name of the scheduling flag in @p device_flags (cudaGetDeviceFlags),
/// e.g. "cudaDeviceScheduleAuto".
std::string scheduling_flag_name(unsigned device_flags);

/// 4. Launches a @p kernel_ms kernel and, instead of blocking, polls
/// cudaEventQuery with a slice of CPU work between polls until the event has
/// completed (the cuda-samples asyncAPI pattern).
FreeHostRun poll_while_kernel_runs(double kernel_ms, cudaStream_t stream);

/// 5. A host-to-device copy of @p n floats (pinned source) and c = a + b on
/// @p n floats, each run alone, timed with the events placed three ways,
/// @p samples times each; c is poisoned before and checked after.
BracketingRun time_copy_and_kernel(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device, int samples,
                                   cudaStream_t stream);

/// 6. c = a + b on @p n floats timed @p samples times four ways (back to
/// back, isolated, behind a held stream, behind a held stream after an L2
/// flush), each loop recorded by CUPTI (lab::TimelineRecorder) so that every
/// sample has its kernel's own duration beside it; c is poisoned before each
/// loop and checked after it. @p empty_pair_us is section 2's median.
LaunchGapSize time_launch_gap(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device, int samples,
                              double empty_pair_us, cudaStream_t stream);

/// 6. The same at @p n and at @p n_large floats (seeds @p seed and @p seed + 10),
/// subtracting the median of section 2's empty pairs (@p costs).
LaunchGapRun time_launch_gap(std::int64_t n, std::int64_t n_large, std::uint64_t seed, const lab::DeviceInfo& device,
                             int samples, const EventCostRun& costs, cudaStream_t stream);

/// 7. c = a + b on @p n floats in each of @p streams streams at once (each its
/// own arrays), with a begin and an end event on every stream; the whole is
/// read from the earliest begin event to the latest end event, whichever stream each is on.
ManyStreamsRun time_many_streams(int streams, std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device);

/// 8. The timing mistake made most: c = a + b on @p n floats, queued on a
/// stream made with cudaStreamNonBlocking, @p samples launches, each timed
/// three ways at once: an event pair on that stream; an event pair on a second
/// cudaStreamNonBlocking stream (the mistake: neither stream waits for the
/// other, so that pair captures none of the work); and a host timer from before
/// the first cudaEventRecord to cudaStreamSynchronize on the work's stream (the
/// check: a second measure of the same work, which must agree). After the other
/// stream's stop event, cudaEventQuery on the work's own stop event says
/// whether the work had ended. A third pair, on the other stream too, shows the
/// fix when the timer's stream is not the work's: both ends ordered, a start
/// the work's stream waits for (cudaStreamWaitEvent(work, start) before the
/// launch: fork) and a stop recorded after cudaStreamWaitEvent(other, stop)
/// (join). The mistake's pair is recorded after the fork, so nothing orders it
/// against the work. c is poisoned before the loop and checked after.
WrongStreamRun time_on_wrong_stream(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device, int samples);

}  // namespace ch03
