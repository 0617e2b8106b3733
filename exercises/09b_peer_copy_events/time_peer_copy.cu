// Exercise 09b: time a copy from GPU 0 to GPU 1 with events of the right device.
//
// The function below times the copy from where the data arrives: it makes its
// events with GPU 1 current, so they belong to GPU 1, and records them on GPU
// 1's stream. But the copy is queued on GPU 0's stream, and two streams have no
// order at all: GPU 1's stream reaches both events at once, and the time read
// is that of nothing. Record the events on the stream the copy is queued on.
// They must belong to that stream's device: an event belongs to the device
// current when it is made, and cudaEventRecord fails when the event and the
// stream belong to different devices (chapter 09, section 1).
//
// Check your work:  scripts/progress ch09b   (needs two GPUs)
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch09b_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "stream.cuh"
#include "time_peer_copy.cuh"

namespace exercise09b {

std::vector<double> time_peer_copy_ms(const PeerCopy& copy, int reps) {
  LAB_CHECK(cudaSetDevice(1));  // TODO: make current the device of the stream the copy is queued on
  lab::Event start, stop;       // they belong to the device current now
  std::vector<double> result;
  for (int rep = 0; rep < reps; ++rep) {
    start.record(copy.stream_1);  // TODO: record it on the stream the copy is queued on
    LAB_CHECK(cudaMemcpyPeerAsync(copy.destination, 1, copy.source, 0, copy.bytes, copy.stream_0));
    stop.record(copy.stream_1);  // TODO: the same
    stop.synchronize();
    result.push_back(lab::Event::elapsed_ms(start, stop));
  }
  LAB_CHECK(cudaSetDevice(0));
  return result;
}

}  // namespace exercise09b
