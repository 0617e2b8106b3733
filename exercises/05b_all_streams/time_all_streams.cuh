/// @file time_all_streams.cuh
/// @brief Exercise 05b: time a schedule that runs on many streams with one event pair.
#pragma once

#include <functional>

#include "overlap.cuh"

namespace exercise05b {

/// Queues a schedule's work on the pipeline's streams (chunk i on stream i);
/// never waits. ch05::enqueue_v1 and ch05::enqueue_v2 are schedules.
using Schedule = std::function<void(ch05::Pipeline&)>;

/// Runs @p schedule once on @p pipeline and returns its time in ms, read from
/// two events that bracket the work of every chunk's stream: the start event
/// comes before any chunk's work begins, the stop event after every chunk's
/// work has ended. Uses only the pipeline's own streams (not the legacy default
/// stream, which would bracket them only because they are blocking streams).
/// Returns once the stop event has completed.
double time_all_streams_ms(ch05::Pipeline& pipeline, const Schedule& schedule);

}  // namespace exercise05b
