// Solution to exercise 01: the grid-stride loop.
// It differs from exercises/01_kernel_launch/grid_stride_add.cu only inside the kernel.
#include "check.cuh"
#include "grid_stride_add.cuh"

namespace exercise01 {

__global__ void grid_stride_add(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t first = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = first; i < n; i += stride) c[i] = a[i] + b[i];
}

void launch_grid_stride_add(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream) {
  grid_stride_add<<<4, 128, 0, stream>>>(a, b, c, n);  // deliberately few threads
  LAB_CHECK_LAUNCH();
}

}  // namespace exercise01
