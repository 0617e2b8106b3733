/// @file block_timeline.cuh
/// @brief Section 1's lesson: a block-level timeline. The add kernel c = a + b
/// records each block's start, end and SM (common/lesson/block_recorder.cuh) when it is
/// given a record buffer, and records nothing when given nullptr; the same
/// launches are timed by CUPTI and by events, so the recorder's span is read
/// beside both, and recording's cost is the difference between the two launches.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "data.hpp"

namespace ch11 {

/// 1. @p samples pairs of launches of the add kernel on @p n random floats
/// (seeded by @p seed), one not recording and one recording, each pair queued
/// behind a held stream (not when @p instrumented: a tool's work per launch can
/// outlast any hold), timed by events and by CUPTI (when it can record), c
/// poisoned first and checked after the loop.
BlockTimelineRun run_block_timeline(std::int64_t n, int samples, std::uint64_t seed, bool instrumented);

/// Writes @p path (nothing when it is ""): the block records of @p timeline's last
/// launch and of each case of @p priorities, one track per SM (lab::block_intervals),
/// the runs placed one after another on one time axis, as a Chrome trace.
void write_block_trace(const std::string& path, const BlockTimelineRun& timeline, const PriorityRun& priorities,
                       const std::string& device_name);

}  // namespace ch11
