#include <cuda_fp16.h>
#include <mma.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "cache_clock.cuh"
#include "check.cuh"
#include "clock.cuh"
#include "nvml.cuh"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "timers.cuh"

namespace ch07 {

namespace {

// --- kernels ------------------------------------------------------------------------------

__global__ void scale_kernel(const float* x, float* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    y[i] = 2.0f * x[i];
}

// Every thread runs `steps` dependent FMAs from a start value of its own; the
// first thread of block 0 stamps cycles and nanoseconds around its work:
// stamp[0] = SM cycles, stamp[1] = ns.
__global__ void clocked_load_kernel(float* out, int steps, unsigned long long* stamp) {
  const bool stamper = blockIdx.x == 0 && threadIdx.x == 0;
  unsigned long long t0 = 0;
  long long c0 = 0;
  if (stamper) {
    t0 = lab::globaltimer_ns();
    c0 = clock64();
  }
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  float x = static_cast<float>(id % 64) * 1e-3f;
  for (int i = 0; i < steps; ++i) x = fmaf(x, 0.9999f, 1e-4f);
  out[id] = x;
  if (stamper) {
    const long long c1 = clock64();
    const unsigned long long t1 = lab::globaltimer_ns();
    stamp[0] = static_cast<unsigned long long>(c1 - c0);
    stamp[1] = t1 - t0;
  }
}

// How finely %globaltimer counts: one thread reads it `reads` times and keeps the
// smallest change it saw. result[0] = smallest step (ns), result[1] = mean step (ns).
__global__ void timer_step_kernel(int reads, unsigned long long* result) {
  const unsigned long long first = lab::globaltimer_ns();
  unsigned long long last = first;
  unsigned long long smallest = ~0ull;
  unsigned long long changes = 0;
  for (int i = 0; i < reads; ++i) {
    const unsigned long long now = lab::globaltimer_ns();
    if (now != last) {
      smallest = min(smallest, now - last);
      ++changes;
      last = now;
    }
  }
  result[0] = changes > 0 ? smallest : 0;
  result[1] = changes > 0 ? (last - first) / changes : 0;
}

// The heavy load: every warp multiplies 16x16 half tiles on the tensor cores
// (WMMA), four independent accumulators, until `duration_ns` of %globaltimer
// have passed. A holds ones and B holds 1/1024, so every product and every sum
// is exact: each step adds 16/1024 = 1/64 to each accumulator element, and after
// `rounds` steps every element is rounds / 64. Lane 0 decides when to stop and
// tells the warp, so the warp stays converged for mma_sync.
constexpr int kTensorThreads = 256;
constexpr int kAccumulators = 4;
constexpr int kRoundsPerCheck = 64;
constexpr int kTile = 16 * 16;

__global__ void tensor_load_kernel(unsigned long long duration_ns, float* out, unsigned long long* rounds_out,
                                   unsigned long long* stamp) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  using namespace nvcuda;
  __shared__ __align__(32) half a_tile[kTile];
  __shared__ __align__(32) half b_tile[kTile];
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) {
    a_tile[i] = __float2half(1.0f);
    b_tile[i] = __float2half(1.0f / 1024);
  }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::load_matrix_sync(a, a_tile, 16);
  wmma::load_matrix_sync(b, b_tile, 16);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kAccumulators];
#pragma unroll
  for (int k = 0; k < kAccumulators; ++k) wmma::fill_fragment(acc[k], 0.0f);

  const unsigned long long t0 = __shfl_sync(0xffffffffu, lab::globaltimer_ns(), 0);
  const long long c0 = clock64();
  unsigned long long rounds = 0;
  bool more = true;
  while (more) {
    for (int r = 0; r < kRoundsPerCheck; ++r) {
#pragma unroll
      for (int k = 0; k < kAccumulators; ++k) wmma::mma_sync(acc[k], a, b, acc[k]);
    }
    rounds += kRoundsPerCheck;
    more = __shfl_sync(0xffffffffu, lab::globaltimer_ns() - t0 < duration_ns ? 1 : 0, 0) != 0;
  }
  const long long c1 = clock64();
  const unsigned long long t1 = lab::globaltimer_ns();

  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
#pragma unroll
  for (int k = 0; k < kAccumulators; ++k)
    wmma::store_matrix_sync(out + (static_cast<std::size_t>(warp) * kAccumulators + k) * kTile, acc[k], 16,
                            wmma::mem_row_major);
  if (threadIdx.x % 32 == 0) rounds_out[warp] = rounds;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    stamp[0] = static_cast<unsigned long long>(c1 - c0);
    stamp[1] = t1 - t0;
    stamp[2] = t0;
  }
#else
  __trap();  // WMMA needs compute capability 7.0
#endif
}

// Memory traffic beside the tensor load: copy src to dst, pass after pass,
// until `duration_ns` have passed. Thread 0 writes how many passes it made.
__global__ void copy_load_kernel(const float4* src, float4* dst, std::size_t count, unsigned long long duration_ns,
                                 unsigned long long* passes_out) {
  const unsigned long long t0 = lab::globaltimer_ns();
  unsigned long long passes = 0;
  do {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
         i += std::size_t{gridDim.x} * blockDim.x)
      dst[i] = src[i];
    ++passes;
  } while (lab::globaltimer_ns() - t0 < duration_ns);
  if (blockIdx.x == 0 && threadIdx.x == 0) *passes_out = passes;
}

constexpr int kLoadThreads = 256;

// Reads the buffer once. The sum (of zeros) is written only if it is
// 0xFFFFFFFF: never, but the compiler cannot drop the reads.
__global__ void read_flush_kernel(const uint4* buffer, std::size_t count, unsigned* sink) {
  unsigned sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = buffer[i];
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == 0xFFFFFFFFu) *sink = sum;
}

}  // namespace

// --- 1. warm and cold L2 --------------------------------------------------------------------

namespace {

constexpr int kScaleThreads = 256;
constexpr int kWarmup = 2;  // runs of the preceding work and the kernel before the first sample

// Enough blocks to fill every SM several times over; the grid-stride loop covers the rest.
int scale_blocks() { return 8 * lab::current_device_attribute(cudaDevAttrMultiProcessorCount); }

}  // namespace

ScaleProblem::ScaleProblem(std::size_t working_set_bytes, std::uint64_t seed)
    : x_host_(lab::random_floats(working_set_bytes / 2 / sizeof(float), seed)), x_(x_host_.size()), y_(x_host_.size()) {
  x_.upload(x_host_);
}

void ScaleProblem::launch(cudaStream_t stream) {
  scale_kernel<<<scale_blocks(), kScaleThreads, 0, stream>>>(x_.data(), y_.data(), x_.size());
  LAB_CHECK_LAUNCH();
}

lab::Comparison ScaleProblem::check() const {
  std::vector<float> expected(x_host_.size());
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = 2.0f * x_host_[i];
  return lab::compare(y_.download(), expected);
}

PrecedingWork::PrecedingWork(double spin_ms) : spin_ms_(spin_ms), read_buffer_(write_flusher_.bytes()), read_sink_(1) {
  LAB_CHECK(cudaMemset(read_buffer_.data(), 0, read_buffer_.bytes()));
}

void PrecedingWork::flush_by_reading(cudaStream_t stream) {
  LAB_CHECK(cudaCtxResetPersistingL2Cache());
  read_flush_kernel<<<4 * lab::current_device_attribute(cudaDevAttrMultiProcessorCount), 512, 0, stream>>>(
      reinterpret_cast<const uint4*>(read_buffer_.data()), read_buffer_.bytes() / sizeof(uint4), read_sink_.data());
  LAB_CHECK_LAUNCH();
}

std::vector<double> time_kernel(ScaleProblem& problem, PrecedingWork& work, Preceding preceding, Placement placement,
                                int samples, cudaStream_t stream, lab::Comparison* check) {
  // The work before each sample, queued on the same stream before the start event: it runs first, untimed.
  auto queue_preceding = [&] {
    switch (preceding) {
      case Preceding::nothing: break;
      case Preceding::spin: lab::launch_spin(stream, work.spin_ms()); break;   // busy, touches no memory
      case Preceding::write_flush: work.write_flusher().flush(stream); break;  // cudaMemsetAsync over 2 x L2
      case Preceding::read_flush: work.flush_by_reading(stream); break;        // a kernel reads 2 x L2
    }
  };
  const int blocks = scale_blocks();
  // blocked_stream: a kernel holds the stream until the whole sample is queued (chapter 03), so no launch gap counts.
  std::optional<lab::StreamBlocker> blocker;
  if (placement == Placement::blocked_stream) blocker.emplace();
  problem.poison(stream);

  // Warm-up: loads every kernel, the holding kernel's too, before the stream is ever held.
  for (int i = 0; i < kWarmup; ++i) {
    queue_preceding();
    scale_kernel<<<blocks, kScaleThreads, 0, stream>>>(problem.x(), problem.y(), problem.size());
    LAB_CHECK_LAUNCH();
  }
  if (blocker) {
    blocker->block(stream);
    blocker->release();
  }
  LAB_CHECK(cudaStreamSynchronize(stream));

  // The samples, as llm.c's benchmark_kernel takes them: flush, record, launch, record, wait.
  lab::Event start, stop;
  std::vector<double> ms;
  for (int i = 0; i < samples; ++i) {
    // [snippet:sample]
    if (blocker) blocker->block(stream);
    queue_preceding();
    LAB_CHECK(cudaEventRecord(start, stream));
    scale_kernel<<<blocks, kScaleThreads, 0, stream>>>(problem.x(), problem.y(), problem.size());
    LAB_CHECK_LAUNCH();
    LAB_CHECK(cudaEventRecord(stop, stream));
    if (blocker) blocker->release();
    LAB_CHECK(cudaEventSynchronize(stop));
    if (blocker && blocker->timed_out())
      throw std::runtime_error("time_kernel: the held stream ran before the sample was queued (a profiler?)");
    float elapsed_ms = 0;
    LAB_CHECK(cudaEventElapsedTime(&elapsed_ms, start, stop));
    ms.push_back(elapsed_ms);
    // [snippet:sample]
  }
  if (check != nullptr) *check = problem.check();  // checked again after timing: y was poisoned before it
  return ms;
}

WorkingSetRun compare_cache_states(const std::string& role, std::size_t bytes, std::uint64_t seed, PrecedingWork& work,
                                   int samples, cudaStream_t stream) {
  ScaleProblem problem(bytes, seed);
  WorkingSetRun run;
  run.role = role;
  run.bytes = problem.working_set_bytes();
  run.l2_bytes = static_cast<std::size_t>(lab::current_device_attribute(cudaDevAttrL2CacheSize));
  for (Preceding preceding : {Preceding::nothing, Preceding::spin, Preceding::write_flush, Preceding::read_flush}) {
    for (Placement placement : {Placement::isolated, Placement::blocked_stream}) {
      CacheCase c;
      c.preceding = preceding;
      c.placement = placement;
      lab::Comparison check;
      c.ms = time_kernel(problem, work, preceding, placement, samples, stream, &check);
      c.correct = check.passed();
      c.detail = check.detail();
      run.cases.push_back(std::move(c));
    }
  }
  return run;
}

CacheRun compare_cache(const Options& o, const lab::DeviceInfo& device, cudaStream_t stream) {
  PrecedingWork work(o.spin_ms);
  CacheRun run;
  const auto seed = static_cast<std::uint64_t>(o.seed);
  const int samples = static_cast<int>(o.samples);
  run.small = compare_cache_states("small", small_working_set_bytes(o, device.l2_bytes), seed, work, samples, stream);
  run.large = compare_cache_states("large", large_working_set_bytes(o, device.l2_bytes), seed, work, samples, stream);
  return run;
}

// --- 2. the SM clock ------------------------------------------------------------------------

namespace {

constexpr double kLoadLaunchMs = 20;  // each launch of the load: short enough for a clock reading every 20 ms

// The smallest and the mean step of %globaltimer, measured in a kernel.
void measure_timer_step(cudaStream_t stream, ClockRun& run) {
  lab::DeviceBuffer<unsigned long long> result(2);
  timer_step_kernel<<<1, 1, 0, stream>>>(200000, result.data());
  LAB_CHECK_LAUNCH();
  const std::vector<unsigned long long> host = result.download();
  run.timer_step_ns = static_cast<double>(host[0]);
  run.timer_mean_step_ns = static_cast<double>(host[1]);
}

// Every accumulator element of every warp must be rounds / 64 (exact, see the kernel).
std::string check_tensor_load(const std::vector<float>& out, const std::vector<unsigned long long>& rounds) {
  for (std::size_t warp = 0; warp < rounds.size(); ++warp) {
    if (rounds[warp] == 0) return "warp " + std::to_string(warp) + " made no rounds";
    const float expected = static_cast<float>(rounds[warp]) / 64.0f;
    for (std::size_t i = 0; i < std::size_t{kAccumulators} * kTile; ++i) {
      const float got = out[warp * kAccumulators * kTile + i];
      if (got != expected)
        return "warp " + std::to_string(warp) + ", element " + std::to_string(i) + ": " + std::to_string(got) +
               " instead of " + std::to_string(expected);
    }
  }
  return "";
}

}  // namespace

NvmlReading read_nvml(int ordinal) noexcept {
  const lab::Nvml nvml(ordinal);
  NvmlReading reading;
  unsigned value = 0;
  constexpr int kClockSm = 1;  // NVML_CLOCK_SM
  if (nvml.query("nvmlDeviceGetClockInfo", kClockSm, &value)) reading.sm_clock_mhz = value;
  // Power in milliwatts.
  if (nvml.query("nvmlDeviceGetPowerUsage", &value)) reading.power_watts = value / 1000.0;
  if (nvml.query("nvmlDeviceGetEnforcedPowerLimit", &value)) reading.power_limit_watts = value / 1000.0;
  // The reasons for a lower clock; the older name of the same query is still exported.
  reading.clock_reasons_known = nvml.query("nvmlDeviceGetCurrentClocksEventReasons", &reading.clock_reasons) ||
                                nvml.query("nvmlDeviceGetCurrentClocksThrottleReasons", &reading.clock_reasons);
  return reading;
}

ClockRun measure_clock(const lab::DeviceInfo& device, int probes, double load_ms, cudaStream_t stream) {
  ClockRun run;
  run.nominal_mhz = device.nominal_sm_clock_mhz;
  run.probe_ms = 2.0;
  const NvmlReading before = read_nvml(device.ordinal);
  run.power_limit_watts = before.power_limit_watts;
  run.idle_power_watts = before.power_watts;
  // nvmlDeviceGetPowerUsage averages over 1 s on Ampere except GA100 (compute capability 8.0) and newer.
  run.power_averaged = device.cc_major * 10 + device.cc_minor > 80;
  // NVML finds the device by its PCI bus id: under MIG that is the whole GPU, whose clock and power it reports.
  unsigned mig_now = 0, mig_pending = 0;
  run.nvml_whole_gpu = lab::Nvml(device.ordinal).query("nvmlDeviceGetMigMode", &mig_now, &mig_pending) && mig_now == 1;

  // Idle: probes one after the other, NVML read right after each.
  for (int i = 0; i < probes; ++i) {
    run.idle_kernel_mhz.push_back(lab::measure_sm_clock_mhz(stream, run.probe_ms));
    const NvmlReading now = read_nvml(device.ordinal);
    if (now.sm_clock_mhz > 0) run.idle_nvml_mhz.push_back(now.sm_clock_mhz);
  }
  measure_timer_step(stream, run);

  // The load: tensor-core work on every SM (stream) beside a copy (copy_stream),
  // launch after launch; each tensor launch stamps its clock.
  const int tensor_blocks = 2 * device.sm_count;
  const std::size_t warps = static_cast<std::size_t>(tensor_blocks) * kTensorThreads / 32;
  const int launches = std::max(1, static_cast<int>(std::ceil(load_ms / kLoadLaunchMs)));
  const auto launch_ns = static_cast<unsigned long long>(std::min(load_ms, kLoadLaunchMs) * 1e6);
  lab::DeviceBuffer<float> tensor_out(warps * kAccumulators * kTile);
  lab::DeviceBuffer<unsigned long long> rounds(warps);
  lab::DeviceBuffer<unsigned long long> stamps(3 * static_cast<std::size_t>(launches));
  const std::vector<float> source = lab::random_floats(2 * device.l2_bytes / sizeof(float), 11);
  lab::DeviceBuffer<float> src(source.size());
  lab::DeviceBuffer<float> dst(source.size());
  lab::DeviceBuffer<unsigned long long> passes(1);
  src.upload(source);
  dst.poison(stream);
  lab::Stream copy_stream;
  lab::Event start, tensor_done, copy_done;
  LAB_CHECK(cudaStreamSynchronize(stream));

  LAB_CHECK(cudaEventRecord(start, stream));
  LAB_CHECK(cudaStreamWaitEvent(copy_stream, start, 0));
  for (int i = 0; i < launches; ++i) {
    tensor_load_kernel<<<tensor_blocks, kTensorThreads, 0, stream>>>(launch_ns, tensor_out.data(), rounds.data(),
                                                                     stamps.data() + 3 * i);
    LAB_CHECK_LAUNCH();
    copy_load_kernel<<<device.sm_count, 512, 0, copy_stream>>>(reinterpret_cast<const float4*>(src.data()),
                                                               reinterpret_cast<float4*>(dst.data()),
                                                               src.bytes() / sizeof(float4), launch_ns, passes.data());
    LAB_CHECK_LAUNCH();
  }
  LAB_CHECK(cudaEventRecord(tensor_done, stream));
  LAB_CHECK(cudaEventRecord(copy_done, copy_stream));
  // While the GPU works, the host reads NVML (each reading opens NVML anew, so
  // they come as fast as that allows, at most every 20 ms).
  lab::HostTimer host;
  while (!tensor_done.query() || !copy_done.query()) {
    const NvmlReading now = read_nvml(device.ordinal);
    run.load_nvml.push_back(
        {host.elapsed_ms(), now.sm_clock_mhz, now.power_watts, now.clock_reasons_known, now.clock_reasons});
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  float tensor_ms = 0, copy_ms = 0;
  LAB_CHECK(cudaEventElapsedTime(&tensor_ms, start, tensor_done));
  LAB_CHECK(cudaEventElapsedTime(&copy_ms, start, copy_done));
  run.load_ms = std::max(tensor_ms, copy_ms);

  // The clock of every launch, and what the last launch achieved.
  const std::vector<unsigned long long> stamp = stamps.download();
  for (int i = 0; i < launches; ++i) {
    const double ns = static_cast<double>(stamp[3 * i + 1]);
    run.load_kernel_mhz.push_back(ns > 0 ? static_cast<double>(stamp[3 * i]) / ns * 1e3 : 0.0);
  }
  const std::vector<unsigned long long> last_rounds = rounds.download();
  double flops = 0;
  for (unsigned long long r : last_rounds) flops += static_cast<double>(r) * kAccumulators * 2.0 * 16 * 16 * 16;
  const double last_ns = static_cast<double>(stamp[3 * (launches - 1) + 1]);
  run.load_tflops = last_ns > 0 ? flops / last_ns / 1e3 : 0.0;
  const double copy_passes = static_cast<double>(passes.download()[0]);
  run.load_copy_gbps = copy_passes * 2.0 * static_cast<double>(src.bytes()) / (static_cast<double>(launch_ns));

  const std::string tensor_problem = check_tensor_load(tensor_out.download(), last_rounds);
  const lab::Comparison copy = lab::compare(dst.download(), source);
  run.load_correct = tensor_problem.empty() && copy.passed();
  run.load_detail = "tensor cores: " + (tensor_problem.empty() ? std::string("every element exact") : tensor_problem) +
                    "; copy: " + copy.detail();

  run.after_kernel_mhz = lab::measure_sm_clock_mhz(stream, run.probe_ms);
  run.after_nvml_mhz = read_nvml(device.ordinal).sm_clock_mhz;
  return run;
}

// --- 3. many samples --------------------------------------------------------------------------

ClockedLoad::ClockedLoad(int blocks, int steps)
    : blocks_(blocks), steps_(steps), out_(static_cast<std::size_t>(blocks) * kLoadThreads), stamps_(2) {}

std::vector<ClockedLoad::Sample> ClockedLoad::run(int samples, cudaStream_t stream) {
  stamps_ = lab::DeviceBuffer<unsigned long long>(2 * static_cast<std::size_t>(std::max(samples, 1)));
  clocked_load_kernel<<<blocks_, kLoadThreads, 0, stream>>>(out_.data(), steps_, stamps_.data());  // warm-up
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaStreamSynchronize(stream));
  std::vector<Sample> result(static_cast<std::size_t>(samples));
  lab::Event start, stop;
  for (std::size_t i = 0; i < result.size(); ++i) {
    LAB_CHECK(cudaEventRecord(start, stream));
    clocked_load_kernel<<<blocks_, kLoadThreads, 0, stream>>>(out_.data(), steps_, stamps_.data() + 2 * i);
    LAB_CHECK_LAUNCH();
    LAB_CHECK(cudaEventRecord(stop, stream));
    LAB_CHECK(cudaEventSynchronize(stop));
    float elapsed_ms = 0;
    LAB_CHECK(cudaEventElapsedTime(&elapsed_ms, start, stop));
    result[i].ms = elapsed_ms;
  }
  const std::vector<unsigned long long> host = stamps_.download();
  for (std::size_t i = 0; i < result.size(); ++i) {
    const double ns = static_cast<double>(host[2 * i + 1]);
    result[i].clock_mhz = ns > 0 ? static_cast<double>(host[2 * i]) / ns * 1e3 : 0.0;
  }
  return result;
}

bool ClockedLoad::correct() const {
  float expected[64];
  for (int start = 0; start < 64; ++start) {  // the same FMAs on the CPU: fmaf rounds once, exactly as on the GPU
    float x = static_cast<float>(start) * 1e-3f;
    for (int i = 0; i < steps_; ++i) x = std::fmaf(x, 0.9999f, 1e-4f);
    expected[start] = x;
  }
  const std::vector<float> got = out_.download();
  for (std::size_t id = 0; id < got.size(); ++id) {
    if (got[id] != expected[id % 64]) return false;
  }
  return !got.empty();
}

SamplesRun sample_many(int samples, int steps, double nominal_mhz, cudaStream_t stream) {
  ClockedLoad load(4 * lab::current_device_attribute(cudaDevAttrMultiProcessorCount), steps);
  SamplesRun run;
  run.steps = steps;
  run.nominal_mhz = nominal_mhz;
  for (const ClockedLoad::Sample& s : load.run(samples, stream)) {
    run.ms.push_back(s.ms);
    run.clock_mhz.push_back(s.clock_mhz);
  }
  run.correct = load.correct();
  return run;
}

}  // namespace ch07
