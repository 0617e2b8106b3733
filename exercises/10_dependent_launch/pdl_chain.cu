// Exercise 10: launch a dependent kernel with programmatic dependent launch (PDL).
//
// launch_dependent() below launches add_step the plain way, with <<<...>>>: it
// starts only once the kernel before it in the stream has completed. Launch it
// with cudaLaunchKernelEx and the launch attribute
// cudaLaunchAttributeProgrammaticStreamSerialization, so that it may start
// while that kernel still runs, as chapter 10's section 1 does; then make
// add_step read `in` only after its cudaGridDependencySynchronize(), or it may
// read before the kernel before has written.
//
// Check your work:  scripts/progress ch10
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch10_')
//   The check needs compute capability 9.0 (an H100, for example); below that it says not checked.
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "pdl_chain.cuh"

namespace exercise10 {

namespace {

constexpr int kThreads = 256;

__global__ void add_step(const float* in, const float* b, float* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  // TODO: this read of in comes before the wait: launched with PDL, the kernel may
  //       run it before the kernel before has written in. Read in after the wait.
  const float x = i < n ? in[i] : 0.0f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900  // the wait exists from compute capability 9.0 on
  cudaGridDependencySynchronize();                  // until the kernel before has completed and its stores are visible
#endif
  if (i < n) out[i] = x + b[i];
}

}  // namespace

void launch_dependent(const float* in, const float* b, float* out, std::int64_t n, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  // TODO: launch with cudaLaunchKernelEx instead: a cudaLaunchConfig_t with this grid, block
  //       and stream, and one cudaLaunchAttribute, cudaLaunchAttributeProgrammaticStreamSerialization,
  //       its value (val.programmaticStreamSerializationAllowed) set to 1.
  add_step<<<blocks, kThreads, 0, stream>>>(in, b, out, n);
  LAB_CHECK_LAUNCH();
}

}  // namespace exercise10
