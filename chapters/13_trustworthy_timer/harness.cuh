/// @file harness.cuh
/// @brief Chapter 13's timers: a naive event pair, the reference harness, and
/// a short kernel's cost alone and in a sequence. One function per section of
/// the chapter page, in its order; each returns the data of data.hpp and
/// prints nothing. CUPTI (lab::TimelineRecorder) records every call from
/// outside, so each reading has what really ran beside it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cupti_timeline.cuh"
#include "data.hpp"
#include "gallery.cuh"

namespace ch13 {

/// What CUPTI saw of one call: its kernels and copies, not the harness's own
/// (the holding kernel, the read of the output, the poisoning memset).
struct GpuWork {
  double span_us = 0;     ///< first start to last end
  double busy_us = 0;     ///< sum of the durations
  bool recorded = false;  ///< false: CUPTI could not record, dropped records, or saw no work
};

/// Records one call at a time with CUPTI (every stream of the device), for the
/// timers below and the exercise checks of exercises/13*; after the first
/// refusal (a profiler holds CUPTI) it stops trying and says why.
class CallRecorder {
 public:
  void begin();                                        ///< starts recording
  GpuWork end();                                       ///< waits for the device, then keeps the call's own work
  const std::string& why_not() const { return why_; }  ///< why it could not record ("" when it could)

 private:
  lab::TimelineRecorder recorder_;
  std::string why_;
};

/// 1. Times @p samples calls of every workload with an event pair on the
/// caller's stream (cudaEventRecord(start, caller); call; cudaEventRecord(stop,
/// caller); cudaEventSynchronize(stop)), no warm-up, each call on an idle GPU,
/// inputs from @p seed, the output poisoned before each call and checked once
/// the GPU is idle. CUPTI records each call to the end of all its work.
GalleryRun time_naive(Gallery& gallery, int samples, std::uint64_t seed, cudaStream_t caller);

/// 2. Times @p samples calls of every workload with the reference harness and
/// adds them, and @p samples empty pairs, to @p run: one untimed warm-up call,
/// then per call fresh inputs (seed @p seed + the call's number), a poisoned
/// output, the L2 flushed where the workload asks; the caller's stream held
/// (lab::StreamBlocker) while the start event, a fork of every declared
/// stream, the call, their join and the stop event are queued; then the
/// declared streams queried (cudaStreamQuery) and the output read at the stop event.
void time_reference(Gallery& gallery, int samples, std::uint64_t seed, cudaStream_t caller, GalleryRun& run);

/// 3. The cost of @p kernels calls of the short add on inputs in L2 in a
/// sequence, @p samples times: queued behind a held stream between one event
/// pair, and captured as one CUDA graph (cudaStreamBeginCapture ...
/// cudaGraphLaunch), each / @p kernels, beside the same workload's lone
/// reading in @p measured (section 2; NaN when it is not there) and CUPTI.
SequenceRun time_sequence(Gallery& gallery, const GalleryRun& measured, int kernels, int samples, std::uint64_t seed,
                          cudaStream_t caller);

}  // namespace ch13
