#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "check.cuh"
#include "normalize.cuh"

namespace ch04 {
namespace {

// Kernel 1: each block adds a grid-stride share of `a` and writes one partial sum.
// Each thread loads four floats at once (one float4, 16 bytes): with at most
// kMaxPartials blocks, single floats kept too few bytes in flight to keep the
// memory busy. The last n % 4 floats are added one by one.
__global__ void partial_sums(const float* a, std::size_t n, float* partials) {
  __shared__ float cache[kNormalizeBlock];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  const float4* a4 = reinterpret_cast<const float4*>(a);
  float sum = 0.0f;
  for (std::size_t i = first; i < n / 4; i += stride) {
    const float4 v = a4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  for (std::size_t i = n / 4 * 4 + first; i < n; i += stride) sum += a[i];
  cache[threadIdx.x] = sum;
  __syncthreads();
  // Tree reduction in shared memory: 256 -> 128 -> ... -> 1.
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) cache[threadIdx.x] += cache[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = cache[0];
}

// Kernel 2: a single thread adds the partial sums (in double: a few hundred values).
__global__ void sum_partials(const float* partials, int count, float* total) {
  double sum = 0.0;
  for (int i = 0; i < count; ++i) sum += partials[i];
  *total = static_cast<float>(sum);
}

// Kernel 3: every element divided by the total, four at a time, then the last n % 4.
__global__ void divide(float* a, std::size_t n, const float* total) {
  const float t = *total;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  float4* a4 = reinterpret_cast<float4*>(a);
  for (std::size_t i = first; i < n / 4; i += stride) {
    float4 v = a4[i];
    v.x /= t;
    v.y /= t;
    v.z /= t;
    v.w /= t;
    a4[i] = v;
  }
  for (std::size_t i = n / 4 * 4 + first; i < n; i += stride) a[i] = a[i] / t;
}

// Blocks for the divide: one per 256 float4s, at least one, at most 8192 (62
// per SM on an H100, more than fit at once); the grid-stride loop covers the rest.
unsigned divide_blocks(std::size_t n) {
  const std::size_t quads = (n + 3) / 4;
  return static_cast<unsigned>(std::min<std::size_t>((quads + kNormalizeBlock - 1) / kNormalizeBlock, 8192));
}

}  // namespace

int partial_blocks(std::size_t n) {
  return static_cast<int>(std::min<std::size_t>((n + kNormalizeBlock - 1) / kNormalizeBlock, kMaxPartials));
}

namespace {

// Queues the three kernels on `stream`, the launch's fourth parameter; nothing
// synchronises between them, the stream runs them in order. `data` (n floats,
// 16-byte aligned: the kernels load float4) is normalised in place; `partials`
// holds partial_blocks(n) floats, `total` one.
void launch_normalize(float* data, std::size_t n, float* partials, float* total, cudaStream_t stream) {
  if (reinterpret_cast<std::uintptr_t>(data) % alignof(float4) != 0)
    throw std::invalid_argument("launch_normalize: data must be 16-byte aligned (the kernels load float4)");
  const int blocks = partial_blocks(n);
  //         <<<grid,   block,           shared, stream>>>
  partial_sums<<<blocks, kNormalizeBlock, 0, stream>>>(data, n, partials);
  LAB_CHECK_LAUNCH();
  sum_partials<<<1, 1, 0, stream>>>(partials, blocks, total);
  LAB_CHECK_LAUNCH();
  divide<<<divide_blocks(n), kNormalizeBlock, 0, stream>>>(data, n, total);
  LAB_CHECK_LAUNCH();
}

// The CPU reference: a[i] / sum(a), computed in double.
std::vector<float> normalize_on_cpu(const std::vector<float>& a) {
  double sum = 0.0;
  for (float v : a) sum += v;
  std::vector<float> result(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) result[i] = static_cast<float>(a[i] / sum);
  return result;
}

// `result` against `expected` (from normalize_on_cpu), element by element, and their sum.
NormalizeCheck check_normalized(const float* result, const std::vector<float>& expected) {
  NormalizeCheck check;
  const std::vector<float> actual(result, result + expected.size());
  check.elements = lab::compare(actual, expected, 0.0, kNormalizeTolerance);
  for (std::size_t i = 0; i < actual.size(); ++i) {
    check.sum += actual[i];
    const double error = std::fabs(static_cast<double>(actual[i]) - expected[i]);
    if (std::isfinite(error) && expected[i] != 0.0f)
      check.max_relative_error = std::max(check.max_relative_error, error / std::fabs(expected[i]));
  }
  return check;
}

}  // namespace

void launch_normalize_stream_ordered(float* data, std::size_t n, cudaStream_t stream) {
  float* partials = nullptr;
  float* total = nullptr;
  // The allocations become usable in stream order: kernels queued after them
  // on this stream may use them; the host gets the pointers at once.
  LAB_CHECK(cudaMallocAsync(&partials, static_cast<std::size_t>(partial_blocks(n)) * sizeof(float), stream));
  LAB_CHECK(cudaMallocAsync(&total, sizeof(float), stream));
  launch_normalize(data, n, partials, total, stream);
  // Freed in stream order too: the memory returns to the pool only once the
  // kernels queued before these calls have finished with it.
  LAB_CHECK(cudaFreeAsync(partials, stream));
  LAB_CHECK(cudaFreeAsync(total, stream));
}

void launch_normalize_cuda_malloc(float* data, std::size_t n, cudaStream_t stream) {
  lab::DeviceBuffer<float> partials(static_cast<std::size_t>(partial_blocks(n)));
  lab::DeviceBuffer<float> total(1);
  launch_normalize(data, n, partials.data(), total.data(), stream);
  // The buffers' destructors call cudaFree, which frees at once: the Runtime API
  // promises only that it "may perform implicit synchronization". So the host
  // waits until the three kernels that use the buffers are done, then frees.
  LAB_CHECK(cudaStreamSynchronize(stream));
}

NormalizeProblem::NormalizeProblem(std::size_t n, std::uint64_t seed)
    : n_(n), input_(n), output_(n), data_(n), partials_(static_cast<std::size_t>(partial_blocks(n))), total_(1) {
  // Positive values, so the sum is far from zero (the divide is well conditioned).
  const std::vector<float> values = lab::random_floats(n, seed, 0.25f, 1.0f);
  std::copy(values.begin(), values.end(), input_.begin());
  expected_ = normalize_on_cpu(values);
  poison_output();
  // The device copy starts as the input, so a normalisation queued before any copy in
  // (time_temporaries() runs calls on an idle stream first) reads defined values, not
  // whatever cudaMalloc left there (compute-sanitizer's initcheck reports such reads).
  LAB_CHECK(cudaMemcpy(data_.data(), input_.data(), bytes(), cudaMemcpyHostToDevice));
}

void NormalizeProblem::poison_output() { std::memset(output_.data(), 0xFF, output_.bytes()); }

void NormalizeProblem::enqueue(cudaStream_t stream) {
  enqueue_copy_in(stream);
  launch_normalize(data_.data(), n_, partials_.data(), total_.data(), stream);
  enqueue_copy_out(stream);
}

void NormalizeProblem::enqueue_copy_in(cudaStream_t stream) {
  LAB_CHECK(cudaMemcpyAsync(data_.data(), input_.data(), bytes(), cudaMemcpyHostToDevice, stream));
}

void NormalizeProblem::enqueue_copy_out(cudaStream_t stream) {
  LAB_CHECK(cudaMemcpyAsync(output_.data(), data_.data(), bytes(), cudaMemcpyDeviceToHost, stream));
}

NormalizeCheck NormalizeProblem::check() const { return check_normalized(output_.data(), expected_); }

FirstRun normalize_once(NormalizeProblem& problem, cudaStream_t stream) {
  problem.poison_output();
  problem.enqueue(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  FirstRun run;
  run.n = static_cast<std::int64_t>(problem.size());
  run.result = problem.check();
  return run;
}

}  // namespace ch04
