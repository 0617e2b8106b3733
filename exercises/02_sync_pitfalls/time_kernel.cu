// Exercise 02: make a host timer measure the kernel.
//
// This function times GPU work with a host clock, but the number it returns is
// the time the launch call took, a few microseconds, however long the kernel
// runs. And when the stream already has work queued, a careless fix times
// that work too. Make it return the time of the work `launch` queues, and only
// that. (Chapter 02's table "A host timer around c = a + b, four ways" shows
// what each placement of the synchronisation measures.)
//
// Check your work:  scripts/progress ch02
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch02_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "time_kernel.cuh"
#include "timers.cuh"

namespace exercise02 {

double time_kernel_ms(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream) {
  // TODO: the stream may still be busy with earlier work: wait for it here.
  lab::HostTimer timer;
  launch(stream);
  // TODO: the launch returned at once; wait for the kernel before reading the clock.
  return timer.elapsed_ms();
}

}  // namespace exercise02
