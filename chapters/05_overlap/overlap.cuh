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
/// the GPU's hardware queues (CUDA_DEVICE_MAX_CONNECTIONS of them, 8 by
/// default) and copy engines.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device.cuh"
#include "event_timeline.cuh"
#include "memory.cuh"
#include "overlap_model.hpp"
#include "stream.cuh"
#include "verify.hpp"

namespace ch05 {

/// Smallest chunk a schedule may use: 1024 floats (4 KiB). Smaller chunks
/// only measure launch and copy overheads.
constexpr std::size_t kMinChunkFloats = 1024;

/// The three schedules.
enum class Schedule { sequential, v1_per_chunk, v2_per_stage };

/// A short name: "sequential", "V1", "V2".
const char* schedule_name(Schedule schedule);

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
};

/// The kernel over one chunk: each element goes through @p iterations steps of
/// `v = v + sqrt(sin(v)^2 + cos(v)^2)` (async.cu's kernel is one step; each
/// step depends on the last, so the compiler cannot fold them). 1 is the light
/// kernel; a heavy one takes as long as the copies.
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
  /// @p chunks streams are created (blocking streams, as in async.cu). With a
  /// @p timeline, every operation is bracketed by marks and drawn as 'H', 'K'
  /// or 'D' on the row "stream i".
  Pipeline(OverlapProblem& problem, int chunks, int iterations, lab::EventTimeline* timeline = nullptr);

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
  template <class Enqueue>
  void traced(int chunk, char symbol, const char* name, Enqueue enqueue);

  OverlapProblem& problem_;
  int iterations_;
  std::size_t chunk_;
  std::vector<lab::Stream> streams_;
  lab::EventTimeline* timeline_;
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

/// Runs @p schedule once with a timeline and returns its spans (copies redrawn
/// with lab::queue_copies_one_at_a_time, one engine per direction).
std::vector<lab::Span> trace_schedule(OverlapProblem& problem, Schedule schedule, int chunks, int iterations);


/// Measures the model's inputs in this run (medians of @p reps): all data
/// copied in alone, out alone, both at once (into the scratch array, on two
/// streams), and the kernel of @p iterations over all the data.
LinkAndKernel measure_link_and_kernel(OverlapProblem& problem, int iterations, int copy_engines, int reps);

/// The kernel of @p iterations over all the data (median of @p reps).
double measure_kernel_ms(OverlapProblem& problem, int iterations, int reps);

/// Chooses the heavy kernel's step count so that it takes about @p target_ms
/// over all the data (measured with 16 steps, then scaled). At least 1.
int calibrate_iterations(OverlapProblem& problem, double target_ms);

}  // namespace ch05
