// Chapter 01's kernels and their launchers, in llm.c's order: the CPU
// reference, the kernels, the launch code, then the ready-made problem that
// later chapters time.
#include <algorithm>
#include <stdexcept>

#include "add_kernels.cuh"
#include "check.cuh"
#include "stream.cuh"

namespace ch01 {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

// --- CPU reference ---------------------------------------------------------------

std::vector<float> add_on_cpu(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) c[i] = a[i] + b[i];
  return c;
}

// --- GPU kernels -----------------------------------------------------------------

// One thread per element. The bounds check matters: the grid is rounded up to
// whole blocks, so the last block has threads with no element.
__global__ void add_one_thread_per_element(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Grid-stride loop: the grid has a fixed number of threads, each handles
// elements i, i + stride, i + 2 * stride, ... The same kernel is correct for any
// n and any grid, so the grid can be sized to the GPU rather than to the data.
// [snippet:add_grid_stride]
__global__ void add_grid_stride(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    c[i] = a[i] + b[i];
  }
}
// [snippet:add_grid_stride]

// Grid-stride over float4: one 16-byte load per operand per iteration instead
// of four 4-byte ones, so fewer instructions for the same bytes. The n % 4
// elements past the last whole float4 are done by the first threads.
__global__ void add_grid_stride_float4(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t first = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t vectors = n / 4;
  const auto* a4 = reinterpret_cast<const float4*>(a);
  const auto* b4 = reinterpret_cast<const float4*>(b);
  auto* c4 = reinterpret_cast<float4*>(c);
  for (std::int64_t i = first; i < vectors; i += stride) {
    const float4 x = a4[i];
    const float4 y = b4[i];
    c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  const std::int64_t tail = vectors * 4 + first;
  if (tail < n) c[tail] = a[tail] + b[tail];
}

// --- Kernel launchers --------------------------------------------------------------

const char* variant_name(AddVariant variant) {
  switch (variant) {
    case AddVariant::one_thread_per_element: return "one thread per element";
    case AddVariant::grid_stride: return "grid-stride";
    case AddVariant::grid_stride_float4: return "grid-stride float4";
  }
  return "?";
}

LaunchConfig choose_config(AddVariant variant, std::int64_t n, int block, const lab::DeviceInfo& device) {
  LaunchConfig config;
  config.block = block;
  if (variant == AddVariant::one_thread_per_element) {
    config.grid = ceil_div(n, block);
    if (config.grid > device.max_grid_dim[0]) {
      throw std::invalid_argument("n needs more blocks than the grid's x dimension allows");
    }
    return config;
  }
  int resident_per_sm = 0;
  const void* kernel = variant == AddVariant::grid_stride ? reinterpret_cast<const void*>(add_grid_stride)
                                                          : reinterpret_cast<const void*>(add_grid_stride_float4);
  LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident_per_sm, kernel, block, 0));
  const std::int64_t items = variant == AddVariant::grid_stride ? n : ceil_div(n, 4);
  config.grid = std::max<std::int64_t>(
      1, std::min<std::int64_t>(static_cast<std::int64_t>(resident_per_sm) * device.sm_count, ceil_div(items, block)));
  return config;
}

// [snippet:launch_add]
void launch_add(AddVariant variant, const float* a, const float* b, float* c, std::int64_t n,
                const LaunchConfig& config, cudaStream_t stream) {
  const auto grid = static_cast<unsigned>(config.grid);
  switch (variant) {
    case AddVariant::one_thread_per_element:
      add_one_thread_per_element<<<grid, config.block, 0, stream>>>(a, b, c, n);
      break;
    case AddVariant::grid_stride: add_grid_stride<<<grid, config.block, 0, stream>>>(a, b, c, n); break;
    case AddVariant::grid_stride_float4:
      if (!aligned16(a) || !aligned16(b) || !aligned16(c)) {
        throw std::invalid_argument("the float4 variant needs 16-byte aligned pointers");
      }
      add_grid_stride_float4<<<grid, config.block, 0, stream>>>(a, b, c, n);
      break;
  }
  LAB_CHECK_LAUNCH();
}
// [snippet:launch_add]

// --- Checked problems --------------------------------------------------------------

lab::Comparison check_add(const AddLauncher& launch, std::int64_t n, std::uint64_t seed) {
  const auto count = static_cast<std::size_t>(n);
  const std::vector<float> a_host = lab::random_floats(count, seed);
  const std::vector<float> b_host = lab::random_floats(count, seed + 1);
  lab::DeviceBuffer<float> a(count), b(count), c(count);
  a.upload(a_host);
  b.upload(b_host);
  lab::Stream stream;
  c.poison(stream);  // an element the kernel misses stays NaN and fails the comparison
  launch(a.data(), b.data(), c.data(), n, stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  return lab::compare(c.download(), add_on_cpu(a_host, b_host));  // exact: one IEEE add per element
}

AddProblem::AddProblem(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device, AddVariant variant, int block)
    : n_(n),
      variant_(variant),
      config_(choose_config(variant, n, block, device)),
      a_host_(lab::random_floats(static_cast<std::size_t>(n), seed)),
      a_(static_cast<std::size_t>(n)),
      b_(static_cast<std::size_t>(n)),
      c_(static_cast<std::size_t>(n)) {
  const std::vector<float> b_host = lab::random_floats(static_cast<std::size_t>(n), seed + 1);
  expected_ = add_on_cpu(a_host_, b_host);
  a_.upload(a_host_);
  b_.upload(b_host);
}

void AddProblem::launch(cudaStream_t stream) {
  launch_add(variant_, a_.data(), b_.data(), c_.data(), n_, config_, stream);
}

lab::Comparison AddProblem::check(const std::vector<float>& result) const {
  return lab::compare(result, expected_);  // exact: one IEEE add per element
}

}  // namespace ch01
