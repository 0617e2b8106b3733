// Chapter 01's experiments, in the page's order: the variants side by side
// (section 2), a launch that returns before its kernel ends (section 3), and a
// bad launch configuration (section 4). The kernels are in add_kernels.cu.
#include "check.cuh"
#include "clock.cuh"
#include "measure.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "timers.cuh"
#include "vector_add.cuh"

namespace ch01 {

TimedCheck time_then_check(const std::function<void(cudaStream_t)>& launch, lab::DeviceBuffer<float>& c,
                           const std::vector<float>& expected, cudaStream_t stream, const lab::MeasureConfig& measure) {
  // Poisoned again: c already holds the right answer from the first run, so
  // without this a launch function that wrote nothing would still pass.
  c.poison(stream);
  TimedCheck timed;
  timed.samples = lab::measure_ms(launch, stream, measure);  // the warm-up and every sample call launch
  timed.after = lab::compare(c.download(), expected);        // an element no launch of the loop wrote is NaN
  return timed;
}

VariantsRun compare_variants(std::int64_t n, int block, int samples, std::uint64_t seed, const lab::DeviceInfo& device,
                             cudaStream_t stream) {
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
    TimedCheck timed =
        time_then_check([&](cudaStream_t s) { launch_add(variant, a.data(), b.data(), c.data(), n, config, s); }, c,
                        expected, stream, measure);
    v.samples = std::move(timed.samples);
    v.after = timed.after;
    run.variants.push_back(std::move(v));
  }
  return run;
}

LaunchReturnTiming time_launch_return(double kernel_ms, cudaStream_t stream) {
  // Warm up first: the first launch of a kernel loads its module (lazy loading),
  // which is a one-off host cost this lesson is not about.
  lab::launch_spin(stream, 0.01);
  LAB_CHECK(cudaStreamSynchronize(stream));

  LaunchReturnTiming timing;
  lab::Event start, stop;
  lab::HostTimer host;
  LAB_CHECK(cudaEventRecord(start, stream));
  lab::HostTimer launch;
  lab::launch_spin(stream, kernel_ms);  // spin_kernel<<<1, 1, 0, stream>>>: busy for kernel_ms of GPU time
  timing.launch_call_ms = launch.elapsed_ms();
  LAB_CHECK(cudaEventRecord(stop, stream));
  LAB_CHECK(cudaStreamSynchronize(stream));  // the host waits here until the kernel has ended
  timing.until_sync_ms = host.elapsed_ms();
  timing.kernel_ms = lab::Event::elapsed_ms(start, stop);
  return timing;
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
  add_one_thread_per_element<<<(n + 255) / 256, 256>>>(a.data(), b.data(), c.data(), n);
  const cudaError_t after = cudaGetLastError();
  LAB_CHECK(cudaDeviceSynchronize());
  bool zeros = true;
  for (float v : c.download()) zeros = zeros && v == 0.0f;
  demo.later_launch_ok = after == cudaSuccess && zeros;
  return demo;
}

}  // namespace ch01
