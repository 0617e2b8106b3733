// Exercise 01: write a grid-stride loop.
//
// The launch below uses only 4 blocks of 128 threads (512 threads in all), but
// the check asks for up to a million elements. A kernel that handles one
// element per thread leaves most of c untouched, and the check, which poisons c
// with NaN first, will say so. Make every thread walk the array in steps of the
// grid's total thread count.
//
// Check your work:  scripts/progress ch01
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch01_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "grid_stride_add.cuh"

namespace exercise01 {

__global__ void grid_stride_add(const float* a, const float* b, float* c, std::int64_t n) {
  // TODO: compute this thread's first index (block index x block size + thread index)
  // TODO: compute the stride (the number of threads in the whole grid)
  // TODO: loop from the first index while i < n, adding the stride each time,
  //       and set c[i] = a[i] + b[i]
}

void launch_grid_stride_add(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream) {
  grid_stride_add<<<4, 128, 0, stream>>>(a, b, c, n);  // deliberately few threads
  LAB_CHECK_LAUNCH();
}

}  // namespace exercise01
