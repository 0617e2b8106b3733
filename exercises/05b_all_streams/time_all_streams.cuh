/// @file time_all_streams.cuh
/// @brief Exercise 05b: time a schedule that runs on many streams with one event pair.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace exercise05b {

/// Queues a schedule's work on the streams it is given (chunk i on stream[i]);
/// never waits. Chapter 05's V1 and V2 (ch05::queue_v1, ch05::queue_v2) are schedules.
using Schedule = std::function<void(const std::vector<cudaStream_t>& stream)>;

/// Runs @p schedule once on @p stream and returns its time in ms, read from
/// two events that bracket the work of every chunk's stream: the start event
/// comes before any chunk's work begins, the stop event after every chunk's
/// work has ended. Uses only these streams (not the legacy default stream,
/// which would bracket them only because they are blocking streams).
/// Returns once the stop event has completed.
double time_all_streams_ms(const std::vector<cudaStream_t>& stream, const Schedule& schedule);

}  // namespace exercise05b
