// Exercise 06: page-lock an existing buffer for the duration of a copy.
//
// The program already has its data in a std::vector (pageable memory). A copy
// from it is staged by the driver with the CPU, and cudaMemcpyAsync waits for
// that. Page-lock the vector's memory first (ch06::HostRegistration, the C++
// counterpart of Numba's `with cuda.pinned(array):`), so the copy engine reads
// it directly and the call returns at once, and keep it locked until the copy
// is done by returning the registration to the caller.
//
// Check your work:  scripts/progress ch06
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch06_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "pin_for_copy.cuh"

namespace exercise06 {

ch06::HostRegistration upload_pinned(std::vector<float>& host, float* device, cudaStream_t stream) {
  const std::size_t bytes = host.size() * sizeof(float);
  // TODO: page-lock `bytes` of host.data() here, before the copy.
  LAB_CHECK(cudaMemcpyAsync(device, host.data(), bytes, cudaMemcpyHostToDevice, stream));
  // TODO: return the registration, so that the pages stay locked until the caller has waited for the copy.
  return ch06::HostRegistration();
}

}  // namespace exercise06
