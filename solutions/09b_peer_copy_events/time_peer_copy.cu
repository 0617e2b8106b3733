// Exercise 09b, solved: GPU 0's events, made with GPU 0 current, recorded on
// GPU 0's stream around the copy queued on it.
#include "check.cuh"
#include "stream.cuh"
#include "time_peer_copy.cuh"

namespace exercise09b {

std::vector<double> time_peer_copy_ms(const PeerCopy& copy, int reps) {
  LAB_CHECK(cudaSetDevice(0));  // the copy's stream is GPU 0's
  lab::Event start, stop;       // they belong to the device current now
  std::vector<double> result;
  for (int rep = 0; rep < reps; ++rep) {
    start.record(copy.stream_0);
    LAB_CHECK(cudaMemcpyPeerAsync(copy.destination, 1, copy.source, 0, copy.bytes, copy.stream_0));
    stop.record(copy.stream_0);
    stop.synchronize();
    result.push_back(lab::Event::elapsed_ms(start, stop));
  }
  LAB_CHECK(cudaSetDevice(0));
  return result;
}

}  // namespace exercise09b
