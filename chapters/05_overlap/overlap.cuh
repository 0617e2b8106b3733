/// @file overlap.cuh
/// @brief Chapter 05's lesson: overlapping copies with kernels by splitting the
/// work into chunks on several streams, after NVIDIA's "How to Overlap Data
/// Transfers in CUDA C/C++" (async.cu):
///
///   queue_sequential  copy all in, one kernel, copy all out (one stream)
///   queue_v1          for each chunk: copy in, kernel, copy out (chunk i on stream i)
///   queue_v2          all copies in, then all kernels, then all copies out (same streams)
///
/// time_schedule() times them, warm-up and repetition outside the three.
///
/// File order: CPU reference -> kernel -> the schedules and the sweep -> the
/// copies and the kernels alone -> the work-queue test -> the CUPTI recording.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "data.hpp"
#include "memory.cuh"
#include "options.hpp"
#include "stream.cuh"
#include "verify.hpp"

namespace lab {
class TimelineSession;  // cupti_timeline.cuh
}  // namespace lab

namespace ch05 {

/// The data: random floats in a pinned input array, one device array the
/// kernel updates in place (as in async.cu), a pinned output array, and a
/// second device array used only to measure both copy directions at once.
class OverlapProblem {
 public:
  /// @p n random floats in [-1, 1) seeded by @p seed; the device array starts as a copy of them.
  OverlapProblem(std::size_t n, std::uint64_t seed);
  /// The data of --mib, seeded by --seed.
  explicit OverlapProblem(const Options& o);

  std::size_t size() const { return n_; }                         ///< floats
  double bytes() const { return 4.0 * static_cast<double>(n_); }  ///< bytes each way
  float* device_data() { return data_.data(); }                   ///< the array the kernel updates
  float* device_scratch() { return scratch_.data(); }             ///< a second device array (copy measurements)
  float* host_input() { return input_.data(); }                   ///< pinned input
  float* host_output() { return output_.data(); }                 ///< pinned output

  /// Fills the pinned output with NaNs, so a chunk that was never copied out fails the check.
  void poison_output();

  /// The pinned output against the CPU reference for a kernel of @p iterations.
  lab::Comparison check(int iterations) const;

 private:
  std::size_t n_;
  lab::PinnedBuffer<float> input_, output_;
  lab::DeviceBuffer<float> data_, scratch_;
  std::vector<float> values_;
  mutable std::map<int, std::vector<float>> references_;  // the CPU reference, computed once per step count
};

/// The CPU reference for one element: sin^2 + cos^2 = 1, so each step adds 1
/// up to rounding and the result is input + iterations (computed in double).
/// The tolerance covers float rounding over the steps: per step at most half an
/// ulp of the value plus about 2 ulp of 1 from sinf, cosf and sqrtf, so
/// |gpu - reference| <= iterations * (5e-7 + 1.2e-7 * |reference|).
std::vector<float> transform_on_cpu(const std::vector<float>& input, int iterations);

/// Threads per block of every launch of transform.
constexpr int kBlock = 256;

/// The kernel over one chunk of @p count floats: each element goes through
/// @p iterations steps of `v = v + sqrt(sin(v)^2 + cos(v)^2)` (a grid-stride
/// loop). async.cu's kernel takes sin and cos of the element's index, once;
/// here they are of the element's own value, so each step depends on the last
/// and a heavy kernel (many steps) cannot be folded by the compiler. 1 step is
/// the light kernel; a heavy one takes as long as the copies.
__global__ void transform(float* data, std::size_t count, int iterations);

/// Blocks of kBlock threads for a chunk of @p count floats: one per 256 floats,
/// at most 8192 (the grid-stride loop covers the rest), at least 1.
unsigned grid_for(std::size_t count);

// --- 2. the schedules ----------------------------------------------------------------

/// async.cu's sequential version: all the data copied in, the kernel of @p steps
/// steps over it, all of it copied out, on @p stream. Queues; never waits.
void queue_sequential(OverlapProblem& problem, cudaStream_t stream, int steps);

/// async.cu's V1: the data in stream.size() equal chunks, chunk i on @p stream[i];
/// for each chunk, its copy in, its kernel, its copy out. Queues; never waits.
void queue_v1(OverlapProblem& problem, const std::vector<cudaStream_t>& stream, int steps);

/// async.cu's V2: the same chunks and streams; every chunk's copy in, then every
/// chunk's kernel, then every chunk's copy out. Queues; never waits.
void queue_v2(OverlapProblem& problem, const std::vector<cudaStream_t>& stream, int steps);

/// Times of one schedule, and its result.
struct ScheduleRun {
  std::vector<double> samples_ms;  ///< events on the legacy default stream around each run
  lab::Comparison result;          ///< the output of the last run, against the CPU
};

/// @p warmups untimed runs of @p schedule, then @p reps timed, each queued by
/// queue_sequential (on stream[0]), queue_v1 or queue_v2 between two events on
/// the legacy default stream (async.cu's method), the host waiting for the
/// device before each. The output is poisoned before the last run and checked
/// after it. Throws std::invalid_argument unless stream.size() divides the data.
ScheduleRun time_schedule(OverlapProblem& problem, Schedule schedule, const std::vector<cudaStream_t>& stream,
                          int steps, int warmups, int reps);

/// The handles of @p streams, chunk i's stream at i (for time_schedule).
std::vector<cudaStream_t> handles(const std::vector<lab::Stream>& streams);

/// Section 2: sequential, then V1 and V2 at each chunk count of @p o
/// (chunk_counts), with the light kernel and then the heavy one of @p link,
/// --reps timed runs each after one warm-up; then the copies and the kernels
/// alone again (sample_link_and_kernels), appended to @p link.
SweepRun sweep_schedules(OverlapProblem& problem, const Options& o, LinkRun& link);

// --- 1. the link and the kernels alone ---------------------------------------------

/// Section 1, before the sweep: chooses the heavy kernel's steps (--heavy-iterations,
/// or when that is 0, calibrate_iterations to the copy in's time), then takes
/// the first --reps samples of sample_link_and_kernels.
LinkRun measure_link(OverlapProblem& problem, int copy_engines, const Options& o);

/// The copies and both kernels alone, @p reps samples each, appended to @p link
/// (the chapter calls it before and after the sweep): all data copied in alone,
/// out alone, both at once (into the scratch array, on two streams), and the
/// light and heavy kernels over all the data.
void sample_link_and_kernels(OverlapProblem& problem, int reps, LinkRun& link);

/// Chooses the heavy kernel's step count so that it takes about @p target_ms
/// over all the data (measured with 16 steps, then scaled). At least 1.
int calibrate_iterations(OverlapProblem& problem, double target_ms);

// --- 3. the hardware's work queues -------------------------------------------------

/// Two spin kernels of @p spin_ms on each of @p streams blocking streams,
/// queued depth first (stream by stream) and breadth first (kernel by kernel),
/// @p reps timed runs each between events on the legacy default stream.
StreamOrder time_stream_orders(int streams, double spin_ms, int reps);

/// Section 3: the children of compare_connections with 1, 2, the default and
/// 32 connections, each copying --queue-mib; none in an @p instrumented run
/// (the tool would follow them, and their times would measure the tool).
QueueRun measure_queues(const Options& o, bool instrumented);

/// Runs @p child_program once per connection count of @p asked
/// ("" leaves CUDA_DEVICE_MAX_CONNECTIONS unset), each copying @p mib MiB,
/// and reads back what each measured; a child that fails or is missing says why.
QueueRun compare_connections(const std::string& child_program, const std::vector<std::string>& asked, int mib,
                             int reps);

/// Where ch05_queue_child is: beside the running executable.
std::string queue_child_program();

/// What ch05_queue_child measures and prints, as one JSON line (child_output_text;
/// read_child_output reads it back):
/// V1 and V2 of the light kernel at 4 and 8 chunks over @p mib MiB, and the
/// stream orders over 4, 8, 16 and 32 streams.
std::string measure_queues_as_text(int mib, int reps);

// --- 4. the schedules as CUPTI recorded them ----------------------------------------

/// Runs @p schedule once (light kernel) while CUPTI records, from outside the
/// schedule's loops, and checks the result.
RecordedSchedule record_schedule(OverlapProblem& problem, Schedule schedule, int chunks);

/// Section 4: record_schedule for sequential, V1 and V2 over --chart-chunks;
/// when @p timeline is wanted (--timeline, --trace), one more run of each, charted.
std::vector<RecordedSchedule> record_schedules(OverlapProblem& problem, const Options& o,
                                               lab::TimelineSession& timeline);

}  // namespace ch05
