// Exercise 04, solved: an event recorded on the producer's stream, waited for
// by the consumer's stream. The GPU orders the two; the host goes on at once.
#include "check.cuh"
#include "wait_for_producer.cuh"

namespace exercise04 {

void order_consumer_after_producer(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t produced) {
  LAB_CHECK(cudaEventRecord(produced, producer));
  LAB_CHECK(cudaStreamWaitEvent(consumer, produced, 0));
}

}  // namespace exercise04
