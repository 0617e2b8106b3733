// Exercise 10, solved: add_step launched with programmatic dependent launch,
// and its read of in after cudaGridDependencySynchronize().
#include "check.cuh"
#include "pdl_chain.cuh"

namespace exercise10 {

namespace {

constexpr int kThreads = 256;

__global__ void add_step(const float* in, const float* b, float* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900  // the wait exists from compute capability 9.0 on
  cudaGridDependencySynchronize();                  // until the kernel before has completed and its stores are visible
#endif
  if (i < n) out[i] = in[i] + b[i];  // the read of in after the wait
}

}  // namespace

void launch_dependent(const float* in, const float* b, float* out, std::int64_t n, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  LAB_CHECK(cudaLaunchKernelEx(&config, add_step, in, b, out, n));
  LAB_CHECK_LAUNCH();
}

}  // namespace exercise10
