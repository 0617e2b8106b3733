/// @file time_every_stream.cuh
/// @brief Exercise 13: one event pair that brackets the work of every stream a call uses.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace exercise13 {

/// Times one call of @p call with one start and one stop event and returns
/// the time between them, in µs. @p call queues its work on the stream it is
/// given (@p caller) and on the streams of @p streams (every stream besides
/// @p caller that it uses; it may leave @p caller untouched), and returns
/// without waiting. The window must hold all of that work, and nothing that
/// was queued on @p caller before this function was called (@p caller may
/// still be busy with it): no stream's work may begin before the caller's
/// stream reaches the start event, and the stop event must complete only once
/// every stream's work has ended. Streams are ordered with events; the host
/// waits for the stop event before returning, and for nothing else.
double time_call_us(const std::function<void(cudaStream_t)>& call, cudaStream_t caller,
                    const std::vector<cudaStream_t>& streams);

}  // namespace exercise13
