/// @file time_across_streams.cuh
/// @brief Exercise 04b: time work spread over several streams with one pair of events.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace exercise04b {

/// Queues the work of stream i on it: `work(i, streams[i])`.
using WorkOnStream = std::function<void(std::size_t i, cudaStream_t stream)>;

/// Queues `work(i, streams[i])` for every stream and returns, in ms, the time
/// from the moment `streams[0]` reaches this call's start event to the moment
/// the work of every stream has finished: one start event and one end event,
/// both on `streams[0]`. `streams[0]` may still be busy with earlier work when
/// the function is called: none of that, and none of this call's work, may
/// begin outside the events. @p work queues on the stream it is given and never
/// synchronises. Waits for the end event before returning.
double time_across_streams(const WorkOnStream& work, const std::vector<cudaStream_t>& streams);

}  // namespace exercise04b
