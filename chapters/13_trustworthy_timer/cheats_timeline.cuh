/// @file cheats_timeline.cuh
/// @brief Chapter 13's `--timeline` / `--trace`: one more call of the
/// side-stream and the late-copy adversaries between a naive event pair,
/// recorded by CUPTI from outside (docs/timeline.md), so the trace shows their
/// work still running after the caller's stop event had completed.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cupti_timeline.cuh"
#include "gallery.cuh"

namespace ch13 {

/// For each of the side-stream and late-copy adversaries, after the measured
/// calls: inputs from @p seed, a poisoned output, an idle GPU, then one call
/// between a naive event pair on @p caller (the code of section 1), recorded
/// as one variant of @p timeline, with the host's span from the start event's
/// record to cudaEventSynchronize(stop) returning marked on the row "the host"
/// and the pair's reading in the mark's name. Does nothing unless a timeline
/// or a trace was asked for.
void record_cheats(Gallery& gallery, std::uint64_t seed, cudaStream_t caller, lab::TimelineSession& timeline);

}  // namespace ch13
