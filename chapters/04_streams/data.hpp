/// @file data.hpp
/// @brief Chapter 04's data: the structs the experiments of normalize.cuh and
/// streams.cuh return, one group per section of the chapter page. checks.hpp
/// judges them, tables.hpp prints them. Plain C++ with no CUDA header, tested
/// on hand-made data in tests/ch04_checks_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace.hpp"
#include "verify.hpp"

namespace ch04 {

// --- 1. The normalisation ------------------------------------------------------

/// Relative tolerance of every normalised element, and absolute tolerance of their sum.
constexpr double kNormalizeTolerance = 1e-5;

/// One normalised array against the double-precision CPU reference.
struct NormalizeCheck {
  lab::Comparison elements;       ///< every element, within kNormalizeTolerance relative
  double max_relative_error = 0;  ///< largest |gpu - cpu| / |cpu| over the finite elements
  double sum = 0;                 ///< the result's sum, added up in double on the host
};

/// Section 1: one array normalised on one stream.
struct FirstRun {
  std::int64_t n = 0;     ///< floats in the array
  NormalizeCheck result;  ///< its output against the CPU
};

// --- 2. One stream against many ------------------------------------------------

/// One run of the array workload, timed with events: every array does copy in -> three kernels -> copy out.
struct ArraysRun {
  int streams = 0;                      ///< streams the arrays were spread over (array i on stream i % streams)
  double total_ms = 0;                  ///< the earliest begin event to the latest end event (lab::span_ms)
  std::vector<double> per_array_ms;     ///< each array's own begin/end events (includes waiting for engines)
  std::vector<NormalizeCheck> results;  ///< each array's output against the CPU
};

/// One more run of the same workload, recorded by CUPTI from outside the lesson's code.
struct ArraysRecording {
  int streams = 0;                  ///< streams, as in ArraysRun
  bool recorded = false;            ///< false: CUPTI could not record (built without it, a tool holds it)
  std::string why_not;              ///< why not recorded
  std::vector<lab::Interval> work;  ///< every copy and kernel, ns after the recording began
  std::size_t dropped = 0;          ///< records CUPTI dropped
  bool all_correct = false;         ///< every array of this run was correct
};

/// Both cases, every repetition, and one recording of each.
struct StreamsComparison {
  std::int64_t n = 0;             ///< floats per array
  int arrays = 0;                 ///< arrays
  int many = 0;                   ///< streams of the many-streams case
  int copy_engines = 0;           ///< cudaDeviceProp::asyncEngineCount
  std::vector<ArraysRun> one;     ///< every run on 1 stream
  std::vector<ArraysRun> lots;    ///< every run on `many` streams
  ArraysRecording one_recorded;   ///< CUPTI's record of one more run on 1 stream
  ArraysRecording lots_recorded;  ///< and on `many` streams
};

// --- 3. The default stream -----------------------------------------------------

/// Three spin kernels queued A -> middle -> B: A and B on two created streams,
/// the middle one on "the default stream" as the build defines it, or on an explicit handle.
struct DefaultStreamRun {
  std::string build;               ///< "legacy" or "per-thread"
  std::string side_streams;        ///< how A and B were created: "blocking" or "non-blocking"
  std::string middle;              ///< where the middle kernel went: "stream 0" or "cudaStreamLegacy"
  double spin_ms = 0;              ///< each kernel's length
  double wall_ms = 0;              ///< host time from the first launch to cudaDeviceSynchronize returning
  double begin_ms[3] = {0, 0, 0};  ///< each kernel's start (%globaltimer, ms after the earliest start)
  double end_ms[3] = {0, 0, 0};    ///< each kernel's end, same clock
  bool all_ran = false;            ///< every kernel ran for at least spin_ms
};

/// The four cases: legacy build with blocking and non-blocking A/B; per-thread build with stream 0 and
/// cudaStreamLegacy.
struct DefaultStreamCases {
  DefaultStreamRun legacy;          ///< legacy build, blocking A/B, middle on stream 0
  DefaultStreamRun non_blocking;    ///< legacy build, non-blocking A/B, middle on stream 0
  DefaultStreamRun per_thread;      ///< per-thread build, blocking A/B, middle on stream 0
  DefaultStreamRun legacy_by_name;  ///< per-thread build, blocking A/B, middle on cudaStreamLegacy
};

// --- 4. A race between two streams ----------------------------------------------

/// The producer/consumer race, repeated, without ordering and with an event.
struct RaceRun {
  std::int64_t n = 0;          ///< floats the producer writes
  double delay_ms = 0;         ///< how long the producer's stream is held first
  int runs = 0;                ///< runs of each
  int raced_wrong = 0;         ///< runs with a wrong result, no ordering
  int fixed_wrong = 0;         ///< runs with a wrong result, event + cudaStreamWaitEvent
  lab::Comparison raced_last;  ///< the last unordered run
  lab::Comparison fixed_last;  ///< the last ordered run
};

// --- 5. Stream-ordered memory -----------------------------------------------------

/// One call of the normalisation with per-call temporaries, queued behind other work.
struct TemporariesRun {
  std::string kind;       ///< "cudaMalloc / cudaFree" or "cudaMallocAsync / cudaFreeAsync"
  double queued_ms = 0;   ///< GPU work already queued on the stream when the call was made
  double call_ms = 0;     ///< host time until the call returned
  NormalizeCheck result;  ///< the array afterwards, against the CPU
};

/// Host time of single allocation calls, each timed alone, in microseconds.
struct AllocationTimes {
  std::size_t bytes = 0;                       ///< bytes per allocation (the normalisation's partial sums)
  double queued_ms = 0;                        ///< spin kernel queued before each "behind queued work" sample
  std::vector<double> malloc_idle_us;          ///< cudaMalloc, idle GPU
  std::vector<double> free_idle_us;            ///< cudaFree, idle GPU
  std::vector<double> malloc_async_idle_us;    ///< cudaMallocAsync, idle stream
  std::vector<double> free_async_idle_us;      ///< cudaFreeAsync, idle stream
  std::vector<double> malloc_queued_us;        ///< cudaMalloc behind queued work
  std::vector<double> free_queued_us;          ///< cudaFree behind queued work
  std::vector<double> malloc_async_queued_us;  ///< cudaMallocAsync behind queued work on its stream
  std::vector<double> free_async_queued_us;    ///< cudaFreeAsync behind queued work on its stream
};

/// The default pool with one release threshold: what a sync left reserved, and the next large allocation.
struct ThresholdCase {
  std::uint64_t threshold = 0;               ///< cudaMemPoolAttrReleaseThreshold set for this case
  std::uint64_t reserved_after_sync = 0;     ///< cudaMemPoolAttrReservedMemCurrent after the last sync
  std::vector<double> malloc_after_sync_us;  ///< host time of cudaMallocAsync(bytes) right after a sync
};

/// The release threshold at 0 and at UINT64_MAX, restored afterwards.
struct ThresholdRun {
  std::size_t bytes = 0;      ///< the large block
  bool restored = false;      ///< read back equal to the original
  ThresholdCase release_all;  ///< threshold 0
  ThresholdCase keep_all;     ///< threshold UINT64_MAX
};

/// One allocation made while a block freed with cudaFreeAsync was still waiting on a held stream.
struct ReuseCase {
  std::string name;               ///< what was allocated where, e.g. "other stream, no event"
  bool measured = false;          ///< false: the holding kernel timed out before release
  bool same_address = false;      ///< the new allocation got the freed block's address
  bool checked_wait = false;      ///< whether the allocating stream's wait was probed
  bool allocator_waited = false;  ///< the allocating stream's later work did not finish while the free was held
};

/// The default pool's reuse attributes and four allocations after a pending free.
struct ReuseRun {
  std::size_t bytes = 0;                 ///< each allocation
  int follow_event_dependencies = -1;    ///< cudaMemPoolReuseFollowEventDependencies as read
  int allow_opportunistic = -1;          ///< cudaMemPoolReuseAllowOpportunistic as read
  int allow_internal_dependencies = -1;  ///< cudaMemPoolReuseAllowInternalDependencies as read
  bool restored = false;                 ///< the attribute changed for one case read back as before
  ReuseCase same_stream;                 ///< allocated on the freeing stream
  ReuseCase other_stream;                ///< on another stream, no event, default attributes
  ReuseCase other_stream_no_internal;    ///< the same with cudaMemPoolReuseAllowInternalDependencies = 0
  ReuseCase other_stream_event;          ///< on another stream that waits for an event recorded after the free
};

/// All of section 5.
struct MemoryRun {
  TemporariesRun cuda_malloc;     ///< temporaries from cudaMalloc / cudaFree
  TemporariesRun stream_ordered;  ///< from cudaMallocAsync / cudaFreeAsync
  AllocationTimes calls;          ///< the calls alone
  ThresholdRun threshold;         ///< the release threshold
  ReuseRun reuse;                 ///< reuse after a pending free
};

}  // namespace ch04
