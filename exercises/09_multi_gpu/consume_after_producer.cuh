/// @file consume_after_producer.cuh
/// @brief Exercise 09: order a consumer on GPU 1 after a producer on GPU 0.
#pragma once

#include "multi_gpu.cuh"

namespace exercise09 {

/// Called after the producer's work was queued on @p pc.producer_stream (GPU 0).
/// Queue the consumer (ch09::queue_consumer, on GPU 1's stream) so that it runs
/// only after that work, using the event @p pc.produced_event (an event of GPU 0),
/// without making the host wait.
void consume_after_producer(ch09::ProducerConsumer& pc);

}  // namespace exercise09
