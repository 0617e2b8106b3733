/// @file streams.cuh
/// @brief Chapter 04's lesson: independent work in several streams, what the
/// default stream does to them, a race between two streams and its fix, and
/// memory allocated and freed in stream order. Each function returns the data
/// of one section (the structs of data.hpp); none prints.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cupti_timeline.cuh"
#include "data.hpp"
#include "memory.cuh"
#include "normalize.cuh"
#include "options.hpp"

namespace ch04 {

/// The arrays every section uses: --arrays arrays of --n floats, array i seeded by --seed + i.
std::vector<NormalizeProblem> make_arrays(const Options& o);

// --- 2. one stream vs many ---------------------------------------------------

/// Queues every array of @p arrays on @p streams streams (array i on stream
/// i % streams, all queued before any waiting), each between a begin and an
/// end event, waits, and reads the events. Poisons the outputs first and
/// checks them afterwards.
ArraysRun run_arrays(std::vector<NormalizeProblem>& arrays, int streams);

/// run_arrays() once more while CUPTI records every copy and kernel (from
/// outside: the lesson's code is the same). Not recorded, with the reason,
/// when CUPTI cannot record (a build without it, or a tool holding it).
ArraysRecording record_arrays(std::vector<NormalizeProblem>& arrays, int streams);

/// A warm-up, then --reps runs on 1 stream and on --streams streams,
/// alternating so that drift hits both alike, then one recorded run of each.
StreamsComparison compare_streams(std::vector<NormalizeProblem>& arrays, const Options& o, int copy_engines);

/// For `--timeline` / `--trace` (nothing otherwise): one more run on --streams
/// streams and one on 1, each as CUPTI saw it, into @p timeline.
void record_timelines(lab::TimelineSession& timeline, std::vector<NormalizeProblem>& arrays, const Options& o);

// --- 3. the default stream -----------------------------------------------------

/// The experiment compiled in a translation unit built the default way: the
/// middle kernel goes to stream 0 (the legacy default stream). @p side_flags:
/// cudaStreamDefault (blocking) or cudaStreamNonBlocking for A and B.
DefaultStreamRun default_stream_legacy_build(unsigned side_flags, double spin_ms);

/// The same code compiled with `--default-stream per-thread`
/// (default_stream_per_thread.cu): stream 0 now means this thread's default
/// stream. With @p use_legacy_handle the middle kernel goes to the explicit
/// handle cudaStreamLegacy instead, which still synchronises with blocking streams.
DefaultStreamRun default_stream_per_thread_build(unsigned side_flags, double spin_ms, bool use_legacy_handle);

/// The four cases of the section, in the table's order.
DefaultStreamCases run_default_stream_cases(double spin_ms);

// --- 4. a race between two streams ----------------------------------------------

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

/// --race-reps runs without ordering and as many with wait_for_producer,
/// alternating: --race-n floats, the producer held --race-delay-ms first.
RaceRun run_race(const Options& o);

// --- 5. stream-ordered memory ---------------------------------------------------

/// How the normalisation's temporaries (partial sums, total) are allocated.
enum class Temporaries {
  cuda_malloc,    ///< cudaMalloc / cudaFree around each call (the host waits for the stream before cudaFree)
  stream_ordered  ///< cudaMallocAsync / cudaFreeAsync on the call's stream
};

/// A short name, e.g. "cudaMallocAsync / cudaFreeAsync".
const char* temporaries_name(Temporaries kind);

/// Queues @p queued_ms of GPU work on @p stream and @p problem's copy in, then
/// makes one call normalising it with @p kind temporaries and times how long
/// the call takes to return; then copies out, waits and checks.
TemporariesRun time_temporaries(NormalizeProblem& problem, Temporaries kind, double queued_ms, cudaStream_t stream);

/// Host time of cudaMalloc, cudaFree, cudaMallocAsync and cudaFreeAsync of
/// @p bytes, each call timed alone: @p samples times on an idle GPU, and
/// @p queued_samples times behind a @p queued_ms spin kernel on @p stream.
AllocationTimes time_allocation_calls(std::size_t bytes, double queued_ms, int samples, int queued_samples,
                                      cudaStream_t stream);

/// The default pool's release threshold set to 0, then UINT64_MAX: each
/// sample synchronises @p stream, reads the pool's reserved memory and times
/// cudaMallocAsync of @p bytes. The threshold is restored afterwards and the
/// pool trimmed, so later sections find it as it was.
ThresholdRun measure_release_threshold(std::size_t bytes, int samples, cudaStream_t stream);

/// A block of @p bytes freed with cudaFreeAsync on a held stream, then one
/// allocation of the same size: on that stream, on another stream, on another
/// stream with cudaMemPoolReuseAllowInternalDependencies off (restored
/// afterwards), and on another stream that waits for an event recorded after
/// the free. Reads the pool's reuse attributes first.
ReuseRun observe_reuse(std::size_t bytes);

/// All of section 5: the temporaries (with @p problem, behind --queued-ms of
/// work), the calls alone, the release threshold (a block of --pool-mib) and reuse.
MemoryRun study_memory(NormalizeProblem& problem, const Options& o, cudaStream_t stream);

}  // namespace ch04
