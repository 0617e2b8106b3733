/// @file overlap.cuh
/// @brief Chapter 05's lesson: overlapping copies with kernels by splitting the
/// work into chunks on several streams, after NVIDIA's "How to Overlap Data
/// Transfers in CUDA C/C++" (async.cu):
///
///   sequential  copy all in, one kernel, copy all out (one stream)
///   V1          for each chunk: copy in, kernel, copy out (chunk i on stream i)
///   V2          all copies in, then all kernels, then all copies out (same streams)
///
/// Within a stream the order is the same in V1 and V2; only the order in which
/// the host hands the work to the driver differs, and so the order it reaches
/// the GPU's work queues (CUDA_DEVICE_MAX_CONNECTIONS of them, 8 by default).
/// Section 3 measures that order's effect with 1, 2, 8 and 32 connections, in
/// child processes (ch05_queue_child): the variable is read when a process
/// creates its context.
///
/// File order: CPU reference -> kernel -> the pipeline and the schedules -> the
/// code that times them -> the work-queue test -> the CUPTI recording.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "device.cuh"
#include "findings.hpp"
#include "memory.cuh"
#include "overlap_model.hpp"
#include "stream.cuh"
#include "verify.hpp"

namespace ch05 {

/// The data: random floats in a pinned input array, one device array the
/// kernel updates in place (as in async.cu), a pinned output array, and a
/// second device array used only to measure both copy directions at once.
class OverlapProblem {
 public:
  /// @p n random floats in [-1, 1) seeded by @p seed; the device array starts as a copy of them.
  OverlapProblem(std::size_t n, std::uint64_t seed);

  std::size_t size() const { return n_; }                   ///< floats
  double bytes() const { return 4.0 * static_cast<double>(n_); }  ///< bytes each way
  float* device_data() { return data_.data(); }             ///< the array the kernel updates
  float* device_scratch() { return scratch_.data(); }       ///< a second device array (copy measurements)
  float* host_input() { return input_.data(); }             ///< pinned input
  float* host_output() { return output_.data(); }           ///< pinned output

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

/// The kernel over one chunk: each element goes through @p iterations steps of
/// `v = v + sqrt(sin(v)^2 + cos(v)^2)`. async.cu's kernel takes sin and cos of
/// the element's index, once; here they are of the element's own value, so
/// each step depends on the last and a heavy kernel (many steps) cannot be
/// folded by the compiler (sin and cos of the index would be the same in every
/// step). 1 step is the light kernel; a heavy one takes as long as the copies.
void launch_transform(float* data, std::size_t count, int iterations, cudaStream_t stream);

/// The CPU reference for one element: sin^2 + cos^2 = 1, so each step adds 1
/// up to rounding and the result is input + iterations (computed in double).
/// The tolerance covers float rounding over the steps: per step at most half an
/// ulp of the value plus about 2 ulp of 1 from sinf, cosf and sqrtf, so
/// |gpu - reference| <= iterations * (5e-7 + 1.2e-7 * |reference|).
std::vector<float> transform_on_cpu(const std::vector<float>& input, int iterations);

/// The chunks of one schedule and the three operations a schedule orders.
/// Chunk i covers floats [i * chunk, min(n, (i + 1) * chunk)) and runs on
/// stream i. Every call is logged, so an exercise's check can see the order.
class Pipeline {
 public:
  /// @p chunks streams are created (blocking streams, as in async.cu).
  Pipeline(OverlapProblem& problem, int chunks, int iterations);

  int chunks() const { return static_cast<int>(streams_.size()); }  ///< chunks = streams
  cudaStream_t stream(int chunk) const { return streams_.at(static_cast<std::size_t>(chunk)); }  ///< chunk's stream

  void copy_in(int chunk);     ///< queues the chunk's host-to-device copy on its stream
  void run_kernel(int chunk);  ///< queues the kernel over the chunk on its stream
  void copy_out(int chunk);    ///< queues the chunk's device-to-host copy on its stream

  /// The calls so far, in order: "in 0", "kernel 0", "out 0", "in 1", ...
  const std::vector<std::string>& log() const { return log_; }

 private:
  std::size_t offset(int chunk) const;
  std::size_t count(int chunk) const;

  OverlapProblem& problem_;
  int iterations_;
  std::size_t chunk_;
  std::vector<lab::Stream> streams_;
  std::vector<std::string> log_;
};

/// async.cu's V1: for each chunk, copy in, kernel, copy out.
void enqueue_v1(Pipeline& pipeline);
/// async.cu's V2: all copies in, then all kernels, then all copies out.
void enqueue_v2(Pipeline& pipeline);
/// Queues @p schedule: sequential is V1 with one chunk (the whole array, one stream).
void enqueue(Schedule schedule, Pipeline& pipeline);

/// Times of one schedule, and its result.
struct ScheduleRun {
  std::vector<double> samples_ms;  ///< events on the legacy default stream around each run
  lab::Comparison result;          ///< the output of the last run, against the CPU
};

/// Runs @p schedule once to warm up, then @p reps times, each between two
/// events on the legacy default stream (async.cu's method: it waits for the
/// blocking streams, and they for it). Poisons the output before the last run
/// and checks it afterwards.
ScheduleRun time_schedule(OverlapProblem& problem, Schedule schedule, int chunks, int iterations, int reps);

/// Section 1, before the sweep: chooses the heavy kernel's steps (@p heavy_steps,
/// or when that is 0, calibrate_iterations to the copy in's time), then takes
/// the first @p reps samples of sample_link_and_kernels.
LinkRun measure_link(OverlapProblem& problem, int copy_engines, int heavy_steps, int reps);

/// The copies and both kernels alone, @p reps samples each, appended to @p link
/// (the chapter calls it before and after the sweep): all data copied in alone,
/// out alone, both at once (into the scratch array, on two streams), and the
/// light and heavy kernels over all the data.
void sample_link_and_kernels(OverlapProblem& problem, int reps, LinkRun& link);

/// Chooses the heavy kernel's step count so that it takes about @p target_ms
/// over all the data (measured with 16 steps, then scaled). At least 1.
int calibrate_iterations(OverlapProblem& problem, double target_ms);

/// Section 2: sequential, then V1 and V2 at each of @p chunk_counts, with the
/// kernel of @p steps, @p reps timed runs each (time_schedule).
std::vector<ScheduleRow> sweep(OverlapProblem& problem, const std::string& kernel, int steps,
                               const std::vector<int>& chunk_counts, int reps);

// --- 3. the hardware's work queues -------------------------------------------------

/// Two spin kernels of @p spin_ms on each of @p streams blocking streams,
/// queued depth first (stream by stream) and breadth first (kernel by kernel),
/// @p reps timed runs each between events on the legacy default stream.
StreamOrder time_stream_orders(int streams, double spin_ms, int reps);

/// Section 3: runs @p child_program once per connection count of @p asked
/// ("" leaves CUDA_DEVICE_MAX_CONNECTIONS unset), each copying @p mib MiB,
/// and reads back what each measured; a child that fails or is missing says why.
QueueRun compare_connections(const std::string& child_program, const std::vector<std::string>& asked, int mib,
                             int reps);

/// Where ch05_queue_child is: beside the running executable.
std::string queue_child_program();

/// What ch05_queue_child measures and prints (read_child_output reads it back):
/// V1 and V2 of the light kernel at 4 and 8 chunks over @p mib MiB, and the
/// stream orders over 4, 8, 16 and 32 streams.
std::string measure_queues_as_text(int mib, int reps);

// --- 4. the schedules as CUPTI recorded them ----------------------------------------

/// Runs @p schedule once (light kernel) while CUPTI records, from outside the
/// schedule's loops, and checks the result.
RecordedSchedule record_schedule(OverlapProblem& problem, Schedule schedule, int chunks);

}  // namespace ch05
