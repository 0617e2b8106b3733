// Exercise 09, solved: an event recorded on GPU 0's stream, waited for by GPU 1's
// stream. cudaStreamWaitEvent works across devices; the host goes on at once.
#include "check.cuh"
#include "consume_after_producer.cuh"

namespace exercise09 {

void consume_after_producer(ch09::ProducerConsumer& pc) {
  LAB_CHECK(cudaSetDevice(0));  // the event and the stream are GPU 0's
  LAB_CHECK(cudaEventRecord(pc.produced_event, pc.producer_stream));
  LAB_CHECK(cudaSetDevice(1));
  LAB_CHECK(cudaStreamWaitEvent(pc.consumer_stream, pc.produced_event, 0));
  ch09::queue_consumer(pc);
}

}  // namespace exercise09
