/// @file streams.cuh
/// @brief Chapter 04's lesson: independent work in several streams, what the
/// default stream does to them, a race between two streams and its fix, and
/// memory allocated and freed in stream order.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "normalize.cuh"
#include "timeline.hpp"
#include "verify.hpp"

namespace ch04 {

// --- one stream vs many -----------------------------------------------------

/// One run of the array workload: every array does copy in -> three kernels -> copy out.
struct ArraysRun {
  int streams = 0;                         ///< streams the arrays were spread over (array i on stream i % streams)
  double total_ms = 0;                     ///< first begin event to the latest end event
  std::vector<double> per_array_ms;        ///< each array's own begin/end events (includes waiting for engines)
  std::vector<lab::Span> spans;            ///< 'H' copy in, 'K' kernels, 'D' copy out, one row per array
  double copy_in_busy_ms = 0;              ///< time some array's copy in was running
  double copy_out_busy_ms = 0;             ///< time some array's copy out was running
  double kernel_busy_ms = 0;               ///< time some array's kernels were running
  double in_with_out_ms = 0;               ///< copies in both directions at once
  double copies_with_kernels_ms = 0;       ///< a copy beside another array's kernels
  std::vector<NormalizeCheck> results;     ///< each array's output against the CPU
  bool all_correct() const;                ///< every array's result passed
};

/// Queues every array of @p arrays on @p streams streams (array i on stream
/// i % streams, all queued before any waiting), waits, and reads the events.
/// Copy spans are redrawn with lab::queue_copies_one_at_a_time (one engine per
/// direction). Poisons the outputs first and checks them afterwards.
ArraysRun run_arrays(std::vector<NormalizeProblem>& arrays, int streams);


// --- the default stream -----------------------------------------------------

/// Which build's default stream the experiment used.
enum class DefaultStreamBuild {
  legacy,     ///< default nvcc: stream 0 is the legacy default stream
  per_thread  ///< nvcc --default-stream per-thread: stream 0 is this thread's own stream
};

/// Three spin kernels queued A -> middle -> B: A and B on two created streams,
/// the middle one on "the default stream" as the build defines it, or on an
/// explicit handle.
struct DefaultStreamRun {
  std::string build;              ///< "legacy" or "per-thread"
  std::string side_streams;       ///< how A and B were created: "blocking" or "non-blocking"
  std::string middle;             ///< where the middle kernel went: "stream 0" or "cudaStreamLegacy"
  std::string description() const;  ///< all three in one line, e.g. "legacy build, blocking A/B, middle on stream 0"
  double spin_ms = 0;             ///< each kernel's length
  double wall_ms = 0;             ///< host time from the first launch to cudaDeviceSynchronize returning
  double begin_ms[3] = {0, 0, 0};  ///< each kernel's start (%globaltimer, ms after the earliest start)
  double end_ms[3] = {0, 0, 0};    ///< each kernel's end, same clock
  bool all_ran = false;           ///< every kernel ran for at least spin_ms (its own result)
  /// Did the middle kernel overlap neither A nor B (each started after the previous ended)?
  bool serialised() const;
  /// Did all three kernels run at the same time at some moment?
  bool concurrent() const;
};

/// The experiment compiled in a translation unit built the default way: the
/// middle kernel goes to stream 0 (the legacy default stream). @p side_flags:
/// cudaStreamDefault (blocking) or cudaStreamNonBlocking for A and B.
DefaultStreamRun default_stream_legacy_build(unsigned side_flags, double spin_ms);

/// The same code compiled with `--default-stream per-thread`
/// (default_stream_per_thread.cu): stream 0 now means this thread's default
/// stream. With @p use_legacy_handle the middle kernel goes to the explicit
/// handle cudaStreamLegacy instead, which still synchronises with blocking streams.
DefaultStreamRun default_stream_per_thread_build(unsigned side_flags, double spin_ms, bool use_legacy_handle);

// --- a race between two streams ----------------------------------------------

/// What runs between the producer's launch and the consumer's: nothing (the
/// race), or something that orders the consumer after the producer.
using Ordering = std::function<void(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t produced)>;

/// The race: no ordering at all.
void no_ordering(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t produced);

/// The fix: record @p produced on the producer's stream after its kernel, and
/// make the consumer's stream wait for it (cudaStreamWaitEvent). The host never waits.
void wait_for_producer(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t produced);

/// A producer kernel on one stream writes `data = 2 * input`; a consumer
/// kernel on another stream computes `out = data + 1`. The producer's stream
/// is first held by a spin kernel (a slow producer), so without ordering the
/// consumer reads the poisoned data long before the producer writes it.
class ProducerConsumer {
 public:
  /// @p n random floats seeded by @p seed.
  /// Runs both kernels once, in order, so that neither is loaded lazily
  /// during the race: loading a module waits for the busy GPU, which would
  /// hide the race the first time.
  ProducerConsumer(std::size_t n, std::uint64_t seed);
  /// Poisons data and out, queues spin (@p producer_delay_ms) + producer,
  /// calls @p order, queues the consumer, waits, and checks out exactly.
  lab::Comparison run(const Ordering& order, double producer_delay_ms);

 private:
  std::size_t n_;
  lab::DeviceBuffer<float> input_, data_, out_;
  std::vector<float> expected_;
};

// --- stream-ordered memory ---------------------------------------------------

/// How the normalisation's temporaries (partial sums, total) are allocated.
enum class Temporaries {
  cuda_malloc,   ///< cudaMalloc / cudaFree around each call (cudaFree waits for the device)
  stream_ordered ///< cudaMallocAsync / cudaFreeAsync on the call's stream
};

/// One call of the normalisation with per-call temporaries, queued behind other work.
struct TemporariesRun {
  Temporaries kind = Temporaries::cuda_malloc;  ///< how the temporaries were allocated
  double queued_ms = 0;     ///< GPU work already queued on the stream when the call was made
  double call_ms = 0;       ///< host time until the call returned
  double per_call_us = 0;   ///< host time per call over many calls on an idle stream
  NormalizeCheck result;    ///< the array afterwards, against the CPU
};

/// A short name, e.g. "cudaMallocAsync / cudaFreeAsync".
const char* temporaries_name(Temporaries kind);

/// Queues @p queued_ms of GPU work on @p stream, copies @p problem's input
/// in, then makes one call normalising it with @p kind temporaries and times
/// how long the call takes to return; then copies out and checks. Finally
/// times @p calls back-to-back calls on the idle stream (per_call_us).
TemporariesRun time_temporaries(NormalizeProblem& problem, Temporaries kind, double queued_ms, int calls,
                                cudaStream_t stream);

}  // namespace ch04
