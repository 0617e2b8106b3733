/// @file events.cuh
/// @brief Chapter 03's lesson: CUDA events as GPU stopwatches, what they cost,
/// and what they silently include.
///
/// After the Numba streams-and-events tutorial (events as GPU-side timestamps,
/// a `CUDATimer` context manager, timing many streams from the first begin
/// event to the last end event) and the kernel-timing pitfalls article (an
/// event pair that also timed a copy queued before the kernel; a lone small
/// kernel whose events timed the launch gap).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "device.cuh"
#include "vector_add.cuh"
#include "verify.hpp"

namespace ch03 {

/// Anything that queues GPU work on a stream without waiting for it.
using GpuWork = std::function<void(cudaStream_t)>;

/// Times @p work with the bare runtime API, every call checked:
/// cudaEventCreate, cudaEventRecord (start), the work, cudaEventRecord (stop),
/// cudaEventSynchronize, cudaEventElapsedTime, cudaEventDestroy. Milliseconds.
/// lab::EventTimer (common/timing.cuh) does the same with RAII.
float time_with_raw_events(const GpuWork& work, cudaStream_t stream);

/// The same run of some work, timed by events and by a synchronised host timer.
struct EventVsHost {
  double event_ms = 0;  ///< between the two events (GPU timestamps)
  double host_ms = 0;   ///< sync; host timer; launch; sync; host timer
};

/// Times one run of @p work both ways at once: the events bracket the work,
/// the host timer brackets the events.
EventVsHost time_events_and_host(const GpuWork& work, cudaStream_t stream);

/// @p samples readings of two events recorded back to back on @p stream,
/// queued behind a blocked stream so the GPU meets them together: what an
/// event pair reads around nothing (its resolution and floor).
std::vector<double> back_to_back_events_ms(cudaStream_t stream, int samples);

/// Host time of one cudaEventRecord, in microseconds (median of @p count
/// records of an event created with @p flags, e.g. cudaEventDisableTiming).
double record_cost_us(unsigned flags, cudaStream_t stream, int count);

/// What it costs the host to wait.
struct WaitCost {
  double wall_ms = 0;  ///< host wall time of cudaEventSynchronize
  double cpu_ms = 0;   ///< CPU time the waiting thread used meanwhile
};

/// Launches a kernel of @p kernel_ms, records an event created with
/// @p event_flags after it and waits with cudaEventSynchronize. With
/// cudaEventBlockingSync the thread sleeps (CPU time near zero); without it,
/// it usually spins (CPU time near the wall time).
WaitCost wait_for_kernel(unsigned event_flags, double kernel_ms, cudaStream_t stream);

/// What the host did while a kernel ran.
struct FreeHost {
  double kernel_ms = 0;             ///< the kernel's length, from events
  double host_ms = 0;               ///< host time until cudaEventQuery said done
  std::uint64_t polls = 0;          ///< cudaEventQuery calls
  std::uint64_t work_iterations = 0;  ///< CPU work done between the polls
};

/// Launches a kernel of @p kernel_ms and, instead of blocking, polls
/// cudaEventQuery with a slice of CPU work between polls until the event
/// completes (the cuda-samples asyncAPI pattern).
FreeHost poll_while_kernel_runs(double kernel_ms, cudaStream_t stream);

/// Pitfall 1: an event pair placed before a host-to-device copy times the copy too.
struct Bracketing {
  std::vector<double> copy_and_kernel_ms;  ///< start; copy a in; kernel; stop
  std::vector<double> kernel_only_ms;      ///< copy a in; start; kernel; stop
  std::vector<double> copy_only_ms;        ///< start; copy a in; stop
  lab::Comparison result;                  ///< c after the last run, against the CPU
};

/// Copies @p add's input a from pinned memory to the device and runs the
/// kernel, @p samples times per placement of the events, each run alone.
Bracketing time_copy_and_kernel(ch01::AddProblem& add, int samples, cudaStream_t stream);

/// Timing work spread over several streams.
struct ManyStreams {
  double one_kernel_ms = 0;               ///< one stream's kernel alone (median, back to back)
  std::vector<double> per_stream_ms;      ///< each stream's own begin/end event pair
  double first_begin_to_last_end_ms = 0;  ///< the whole: first begin event to the latest end event
  double host_ms = 0;                     ///< the whole, by a synchronised host timer
  std::vector<lab::Comparison> results;   ///< each stream's c, against the CPU
};

/// Runs c = a + b on @p n floats in each of @p streams streams at once (each
/// its own arrays), with a begin and an end event on every stream, and reads
/// the whole as the time from the first begin event to the latest end event.
ManyStreams time_many_streams(int streams, std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device);

}  // namespace ch03
