// Exercise 11: give the urgent work the greatest priority.
//
// create_urgent_stream() below makes a plain non-blocking stream. Its priority
// is the default, 0, which on the H100 is the least of its range (0 to -5): a
// kernel launched on it while a long kernel on another stream fills the GPU
// waits behind that kernel's blocks still to be dispatched. Chapter 11, section 2 measured it on an H100: the
// urgent kernel began a median 725.6 us after its launch on a stream of equal
// priority, and 17.7 us after it on a stream of the greatest priority (run 6). Ask the device for
// its range of priorities and create the stream with the greatest one.
//
// Check your work:  scripts/progress ch11
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch11_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "urgent_stream.cuh"

namespace exercise11 {

cudaStream_t create_urgent_stream() {
  // TODO: ask the device for its range of priorities (cudaDeviceGetStreamPriorityRange: the least, then the
  //       greatest; lower numbers are greater priorities)
  cudaStream_t stream = nullptr;
  // TODO: create the stream with the greatest priority: cudaStreamCreateWithPriority, same flags
  LAB_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return stream;
}

}  // namespace exercise11
