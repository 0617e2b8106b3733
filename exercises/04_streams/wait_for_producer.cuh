/// @file wait_for_producer.cuh
/// @brief Exercise 04: order a consumer stream after a producer stream.
#pragma once

#include <cuda_runtime.h>

namespace exercise04 {

/// Called after the producer's kernel was queued on @p producer and before the
/// consumer's kernel is queued on @p consumer. Make the consumer's later work
/// wait for the producer's work so far, using the event @p produced, without
/// making the host wait. Same signature as ch04::Ordering.
void order_consumer_after_producer(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t produced);

}  // namespace exercise04
