#include <algorithm>
#include <stdexcept>

#include "check.cuh"
#include "clock.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "measure.cuh"
#include "timers.cuh"
#include "vector_add.cuh"

namespace ch01 {

namespace {

// One thread per element. The bounds check matters: the grid is rounded up to
// whole blocks, so the last block has threads with no element.
__global__ void add_one_thread_per_element(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Grid-stride loop: the grid has a fixed number of threads, each handles
// elements i, i + stride, i + 2 * stride, ... The same kernel is correct for any
// n and any grid, so the grid can be sized to the GPU rather than to the data.
__global__ void add_grid_stride(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    c[i] = a[i] + b[i];
  }
}

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

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

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

std::vector<float> add_on_cpu(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) c[i] = a[i] + b[i];
  return c;
}

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
  stream.synchronize();
  return lab::compare(c.download(), add_on_cpu(a_host, b_host));  // exact: one IEEE add per element
}

AddProblem::AddProblem(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device, AddVariant variant,
                       int block)
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

void AddProblem::launch(cudaStream_t stream) { launch_add(variant_, a_.data(), b_.data(), c_.data(), n_, config_, stream); }

lab::Comparison AddProblem::check(const std::vector<float>& result) const {
  return lab::compare(result, expected_);  // exact: one IEEE add per element
}

VariantsRun compare_variants(std::int64_t n, int block, int samples, std::uint64_t seed,
                             const lab::DeviceInfo& device, cudaStream_t stream) {
  // The CPU reference, on random inputs.
  const auto count = static_cast<std::size_t>(n);
  const std::vector<float> a_host = lab::random_floats(count, seed);
  const std::vector<float> b_host = lab::random_floats(count, seed + 1);
  const std::vector<float> expected = add_on_cpu(a_host, b_host);
  lab::DeviceBuffer<float> a(count), b(count), c(count);
  a.upload(a_host);
  b.upload(b_host);

  VariantsRun run;
  run.n = n;
  run.l2_bytes = static_cast<double>(device.l2_bytes);
  lab::MeasureConfig measure;  // events, warm-up first (chapter 03 shows why)
  measure.samples = samples;

  // The reference point: a device-to-device copy of n floats (n read, n written).
  run.copy_samples = lab::measure_ms(
      [&](cudaStream_t s) { LAB_CHECK(cudaMemcpyAsync(c.data(), a.data(), c.bytes(), cudaMemcpyDeviceToDevice, s)); },
      stream, measure);

  for (AddVariant variant : kAllVariants) {
    VariantRun v;
    v.name = variant_name(variant);
    const LaunchConfig config = choose_config(variant, n, block, device);
    v.grid = config.grid;
    v.block = config.block;
    // Poisoned output first: an element no thread writes stays NaN and fails.
    c.poison(stream);
    launch_add(variant, a.data(), b.data(), c.data(), n, config, stream);
    LAB_CHECK(cudaStreamSynchronize(stream));
    v.first = lab::compare(c.download(), expected);  // exact: one IEEE add per element
    v.samples = lab::measure_ms(
        [&](cudaStream_t s) { launch_add(variant, a.data(), b.data(), c.data(), n, config, s); }, stream, measure);
    v.after = lab::compare(c.download(), expected);  // the timing loop must not have broken anything
    run.variants.push_back(std::move(v));
  }
  return run;
}

LaunchErrorDemo launch_with_bad_config(int threads_per_block) {
  constexpr std::int64_t n = 4096;
  lab::DeviceBuffer<float> a(n), b(n), c(n);
  LAB_CHECK(cudaMemset(a.data(), 0, a.bytes()));
  LAB_CHECK(cudaMemset(b.data(), 0, b.bytes()));

  LaunchErrorDemo demo;
  demo.threads_per_block = threads_per_block;
  // The launch itself returns nothing; the configuration error is recorded and
  // handed out by the next cudaGetLastError(), which also clears it.
  add_one_thread_per_element<<<1, threads_per_block>>>(a.data(), b.data(), c.data(), n);
  const cudaError_t error = cudaGetLastError();
  demo.error_code = static_cast<int>(error);
  demo.error_text = std::string(cudaGetErrorName(error)) + " (" + cudaGetErrorString(error) + ")";

  // A configuration error does not break the context: a valid launch works.
  c.poison();
  add_one_thread_per_element<<<ceil_div(n, 256), 256>>>(a.data(), b.data(), c.data(), n);
  const cudaError_t after = cudaGetLastError();
  LAB_CHECK(cudaDeviceSynchronize());
  bool zeros = true;
  for (float v : c.download()) zeros = zeros && v == 0.0f;
  demo.later_launch_ok = after == cudaSuccess && zeros;
  return demo;
}

LaunchReturnTiming time_launch_return(double kernel_ms, cudaStream_t stream) {
  // Warm up first: the first launch of a kernel loads its module (lazy loading),
  // which is a one-off host cost this lesson is not about.
  lab::launch_spin(stream, 0.01);
  LAB_CHECK(cudaStreamSynchronize(stream));

  LaunchReturnTiming timing;
  lab::EventTimer events(stream);
  lab::HostTimer host;
  {
    auto scope = events.scope();
    lab::HostTimer launch;
    lab::launch_spin(stream, kernel_ms);
    timing.launch_call_ms = launch.elapsed_ms();
  }
  LAB_CHECK(cudaStreamSynchronize(stream));
  timing.until_sync_ms = host.elapsed_ms();
  timing.kernel_ms = events.elapsed_ms();
  return timing;
}

}  // namespace ch01
