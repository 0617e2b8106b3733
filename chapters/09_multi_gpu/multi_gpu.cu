#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <thread>

#include "check.cuh"
#include "checks.hpp"
#include "clock.cuh"
#include "memory.cuh"
#include "multi_gpu.cuh"
#include "nvml_link.cuh"
#include "program.hpp"
#include "statistics.hpp"
#include "stream.cuh"
#include "timers.cuh"

namespace ch09 {

// --- Kernels and their CPU references -------------------------------------------------

namespace {

// Grid-stride loops: a fixed grid covers any n on any GPU (chapter 01). 2048
// blocks of 256 threads are about twice what 132 SMs of 2048 threads hold (an
// H100 or H200, for example).
constexpr int kBlocks = 2048;
constexpr int kThreads = 256;
constexpr float kStep = 0.999f;  // v = kStep * v + kShift; its fixed point is about 1
constexpr float kShift = 0.001f;

__global__ void scale_kernel(const float* x, float* y, std::int64_t n, float factor) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    y[i] = factor * x[i];
}

__global__ void fill_kernel(float* out, std::int64_t n, float value) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = value;
}

__global__ void iterate_kernel(const float* x, float* y, std::int64_t n, int iterations) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    float v = x[i];
#pragma unroll 1
    for (int k = 0; k < iterations; ++k) v = fmaf(v, kStep, kShift);
    y[i] = v;
  }
}

// The name of what a call returned, e.g. "cudaErrorInvalidResourceHandle".
// Clears the error it reports, so that the next call starts clean (these
// errors are not sticky: the context stays usable, which the caller checks).
std::string returned(cudaError_t error) {
  (void)cudaGetLastError();
  return cudaGetErrorName(error);
}

// y[i] = factor * x[i] on @p stream (the current device's); x may be another
// GPU's memory once peer access to it is enabled.
void launch_scale(const float* x, float* y, std::int64_t n, float factor, cudaStream_t stream) {
  scale_kernel<<<kBlocks, kThreads, 0, stream>>>(x, y, n, factor);
  LAB_CHECK_LAUNCH();
}

// out[i] = value on @p stream.
void launch_fill(float* out, std::int64_t n, float value, cudaStream_t stream) {
  fill_kernel<<<kBlocks, kThreads, 0, stream>>>(out, n, value);
  LAB_CHECK_LAUNCH();
}

}  // namespace

void launch_iterate(const float* x, float* y, std::int64_t n, int iterations, cudaStream_t stream) {
  iterate_kernel<<<kBlocks, kThreads, 0, stream>>>(x, y, n, iterations);
  LAB_CHECK_LAUNCH();
}

std::vector<float> iterate_reference(const float* x, std::int64_t n, int iterations) {
  // v -> a v + b, k times, is a^k (v - c) + c with c = b / (1 - a), the fixed point
  // (a and b as the GPU holds them, in float: c is 1.00001, not 1).
  const double a = kStep;
  const double b = kShift;
  const double c = b / (1.0 - a);
  const double power = std::pow(a, iterations);
  std::vector<float> y(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(power * (x[i] - c) + c);
  return y;
}

// --- Which devices -------------------------------------------------------------------

DeviceSet choose_devices(std::int64_t requested) {
  DeviceSet devices;
  LAB_CHECK(cudaGetDeviceCount(&devices.visible));
  if (requested > devices.visible)
    throw lab::UsageError("--devices " + std::to_string(requested) + ", but this machine shows " +
                          std::to_string(devices.visible) + " CUDA device(s)");
  devices.used = requested == 0 ? devices.visible : static_cast<int>(requested);
  for (int d = 0; d < devices.used; ++d) {
    cudaDeviceProp properties{};
    LAB_CHECK(cudaGetDeviceProperties(&properties, d));
    devices.names.push_back(properties.name);
  }
  return devices;
}

// --- 1. What belongs to a device -------------------------------------------------------

OwnershipRun probe_ownership(const DeviceSet& devices, std::int64_t n, std::uint64_t seed) {
  OwnershipRun run;
  run.visible = devices.visible;
  // Any machine: one past the last device is no device.
  run.set_invalid_device = returned(cudaSetDevice(devices.visible));
  LAB_CHECK(cudaSetDevice(0));
  run.skipped = two_gpu_reason(devices);
  if (!run.skipped.empty()) return run;

  // The current device belongs to the host thread that set it.
  LAB_CHECK(cudaSetDevice(1));
  LAB_CHECK(cudaGetDevice(&run.main_thread_device));
  std::thread other([&run] {
    if (cudaGetDevice(&run.new_thread_device) != cudaSuccess) run.new_thread_device = -1;
  });
  other.join();

  // Made while GPU 1 is current: they belong to GPU 1.
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  lab::DeviceBuffer<float> on_1(static_cast<std::size_t>(n));
  lab::Stream stream_1(cudaStreamNonBlocking);
  lab::Event event_1;
  cudaPointerAttributes attributes{};
  LAB_CHECK(cudaPointerGetAttributes(&attributes, on_1.data()));
  run.buffer_device = attributes.device;
  LAB_CHECK(cudaMemsetAsync(on_1.data(), 0, bytes, stream_1));
  LAB_CHECK(cudaEventRecord(event_1, stream_1));

  // Made while GPU 0 is current: they belong to GPU 0.
  LAB_CHECK(cudaSetDevice(0));
  const std::vector<float> sent = lab::random_floats(static_cast<std::size_t>(n), seed);
  lab::DeviceBuffer<float> on_0(static_cast<std::size_t>(n));
  on_0.upload(sent);
  lab::Stream stream_0(cudaStreamNonBlocking);
  lab::Event event_0;
  LAB_CHECK(cudaEventRecord(event_0, stream_0));

  // GPU 0 is current from here on; each call's return code is the data.
  const std::string now = "GPU 0 current";
  fill_kernel<<<kBlocks, kThreads, 0, stream_1>>>(on_1.data(), n, 1.0f);
  run.calls.push_back({"kernel launch into a stream of GPU 1", now, false, returned(cudaGetLastError())});
  LAB_CHECK(cudaStreamSynchronize(stream_1));  // whatever that launch did, it is over
  run.calls.push_back({"cudaMemcpyAsync GPU 0 -> GPU 1 on a stream of GPU 1", now, true,
                       returned(cudaMemcpyAsync(on_1.data(), on_0.data(), bytes, cudaMemcpyDefault, stream_1))});
  run.calls.push_back(
      {"cudaEventRecord(event of GPU 1, stream of GPU 0)", now, false, returned(cudaEventRecord(event_1, stream_0))});
  run.calls.push_back({"cudaEventSynchronize(event of GPU 1)", now, true, returned(cudaEventSynchronize(event_1))});
  run.calls.push_back({"cudaEventQuery(event of GPU 1)", now, true, returned(cudaEventQuery(event_1))});
  LAB_CHECK(cudaEventSynchronize(event_0));
  float ms = 0.0f;
  run.calls.push_back({"cudaEventElapsedTime(event of GPU 0, event of GPU 1)", now, false,
                       returned(cudaEventElapsedTime(&ms, event_0, event_1))});
  run.calls.push_back({"cudaStreamWaitEvent(stream of GPU 0, event of GPU 1)", now, true,
                       returned(cudaStreamWaitEvent(stream_0, event_1, 0))});

  // The copy the guide says succeeds: did the bytes arrive?
  LAB_CHECK(cudaStreamSynchronize(stream_1));
  LAB_CHECK(cudaStreamSynchronize(stream_0));
  run.cross_copy = lab::compare(on_1.download(), sent);

  // The refused calls were refused before any work was queued: every device still works.
  run.devices_usable_after = true;
  for (int d = 0; d < devices.used; ++d) {
    LAB_CHECK(cudaSetDevice(d));
    if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) run.devices_usable_after = false;
  }
  LAB_CHECK(cudaSetDevice(0));
  return run;
}

// --- 2. Peer access --------------------------------------------------------------------

PeerMatrix read_peer_matrix(const DeviceSet& devices) {
  PeerMatrix matrix;
  matrix.devices = devices.used;
  matrix.can_access.assign(static_cast<std::size_t>(devices.used) * devices.used, 1);
  for (int from = 0; from < devices.used; ++from)
    for (int to = 0; to < devices.used; ++to)
      if (from != to) LAB_CHECK(cudaDeviceCanAccessPeer(&matrix.can_access[from * devices.used + to], from, to));
  read_nvml_links(matrix);
  return matrix;
}

PeerCopyRun measure_peer_copies(const DeviceSet& devices, std::size_t bytes, int reps, std::uint64_t seed) {
  PeerCopyRun run;
  run.bytes = static_cast<double>(bytes);
  run.skipped = two_gpu_reason(devices);
  if (!run.skipped.empty()) return run;
  const std::size_t n = bytes / sizeof(float);
  const std::vector<float> sent = lab::random_floats(n, seed);
  std::vector<float> doubled(n);
  for (std::size_t i = 0; i < n; ++i) doubled[i] = 2.0f * sent[i];

  // GPU 0's side: the source, where the reverse copy lands, a stream, timing events.
  LAB_CHECK(cudaSetDevice(0));
  lab::DeviceBuffer<float> source_0(n);
  source_0.upload(sent);
  lab::DeviceBuffer<float> back_0(n);
  lab::Stream stream_0(cudaStreamNonBlocking);
  lab::Event start_0, stop_0, staged_0(cudaEventDisableTiming);
  // GPU 1's side: the destination, a source for the reverse copy, the kernel's output.
  LAB_CHECK(cudaSetDevice(1));
  lab::DeviceBuffer<float> arrived_1(n);
  lab::DeviceBuffer<float> source_1(n);
  lab::DeviceBuffer<float> out_1(n);
  lab::Stream stream_1(cudaStreamNonBlocking);
  lab::Event start_1, stop_1, done_1(cudaEventDisableTiming);
  LAB_CHECK(cudaMemsetAsync(source_1.data(), 0, bytes, stream_1));
  LAB_CHECK(cudaStreamSynchronize(stream_1));
  // Pinned host memory for the staged copy; cudaHostAllocPortable: pinned for every device.
  lab::PinnedBuffer<float> staging(n, cudaHostAllocPortable);

  // What arrived on GPU 1 after each way, against what GPU 0 held (the first failure is kept).
  auto check_arrival = [&] {
    LAB_CHECK(cudaSetDevice(1));
    const lab::Comparison result = lab::compare(arrived_1.download(), sent);
    if (run.copy_result.count == 0 || run.copy_result.passed()) run.copy_result = result;
    LAB_CHECK(cudaSetDevice(0));
  };
  // One copy from GPU 0 to GPU 1 on GPU 0's stream, timed by GPU 0's events.
  auto time_peer_copy = [&](std::vector<double>& samples) {
    LAB_CHECK(cudaSetDevice(1));
    arrived_1.poison(stream_1);
    LAB_CHECK(cudaStreamSynchronize(stream_1));
    LAB_CHECK(cudaSetDevice(0));
    for (int rep = 0; rep <= reps; ++rep) {  // rep 0 warms up
      LAB_CHECK(cudaEventRecord(start_0, stream_0));
      LAB_CHECK(cudaMemcpyPeerAsync(arrived_1.data(), 1, source_0.data(), 0, bytes, stream_0));
      LAB_CHECK(cudaEventRecord(stop_0, stream_0));
      LAB_CHECK(cudaEventSynchronize(stop_0));
      if (rep > 0) samples.push_back(lab::Event::elapsed_ms(start_0, stop_0));
    }
    check_arrival();
  };

  int zero_to_one = 0;
  int one_to_zero = 0;
  LAB_CHECK(cudaDeviceCanAccessPeer(&zero_to_one, 0, 1));
  LAB_CHECK(cudaDeviceCanAccessPeer(&one_to_zero, 1, 0));
  if (zero_to_one == 0 || one_to_zero == 0) {
    run.peer_on_skipped = "cudaDeviceCanAccessPeer says GPU 0 and GPU 1 cannot access each other both ways";
  } else {
    // Peer access is enabled by the device that will access: each side once.
    LAB_CHECK(cudaSetDevice(0));
    LAB_CHECK(cudaDeviceEnablePeerAccess(1, 0));
    LAB_CHECK(cudaSetDevice(1));
    LAB_CHECK(cudaDeviceEnablePeerAccess(0, 0));
    time_peer_copy(run.peer_on_ms);

    // Both directions at once. GPU 1's stream waits for GPU 0's start event,
    // GPU 0's stream waits for GPU 1's last copy, so GPU 0's event pair spans both.
    for (int rep = 0; rep <= reps; ++rep) {
      LAB_CHECK(cudaSetDevice(0));
      LAB_CHECK(cudaEventRecord(start_0, stream_0));
      LAB_CHECK(cudaMemcpyPeerAsync(arrived_1.data(), 1, source_0.data(), 0, bytes, stream_0));
      LAB_CHECK(cudaSetDevice(1));
      LAB_CHECK(cudaStreamWaitEvent(stream_1, start_0, 0));
      LAB_CHECK(cudaMemcpyPeerAsync(back_0.data(), 0, source_1.data(), 1, bytes, stream_1));
      LAB_CHECK(cudaEventRecord(done_1, stream_1));
      LAB_CHECK(cudaSetDevice(0));
      LAB_CHECK(cudaStreamWaitEvent(stream_0, done_1, 0));
      LAB_CHECK(cudaEventRecord(stop_0, stream_0));
      LAB_CHECK(cudaEventSynchronize(stop_0));
      if (rep > 0) run.both_ways_ms.push_back(lab::Event::elapsed_ms(start_0, stop_0));
    }
    check_arrival();

    // A kernel on GPU 1 reads its own memory, then GPU 0's, through peer access.
    LAB_CHECK(cudaSetDevice(1));
    for (int rep = 0; rep <= reps; ++rep) {
      LAB_CHECK(cudaEventRecord(start_1, stream_1));
      launch_scale(arrived_1.data(), out_1.data(), static_cast<std::int64_t>(n), 2.0f, stream_1);
      LAB_CHECK(cudaEventRecord(stop_1, stream_1));
      LAB_CHECK(cudaEventSynchronize(stop_1));
      if (rep > 0) run.kernel_local_ms.push_back(lab::Event::elapsed_ms(start_1, stop_1));
    }
    out_1.poison(stream_1);
    for (int rep = 0; rep <= reps; ++rep) {
      LAB_CHECK(cudaEventRecord(start_1, stream_1));
      launch_scale(source_0.data(), out_1.data(), static_cast<std::int64_t>(n), 2.0f, stream_1);
      LAB_CHECK(cudaEventRecord(stop_1, stream_1));
      LAB_CHECK(cudaEventSynchronize(stop_1));
      if (rep > 0) run.kernel_peer_ms.push_back(lab::Event::elapsed_ms(start_1, stop_1));
    }
    run.kernel_result = lab::compare(out_1.download(), doubled);

    // Off again, each side.
    LAB_CHECK(cudaSetDevice(0));
    LAB_CHECK(cudaDeviceDisablePeerAccess(1));
    LAB_CHECK(cudaSetDevice(1));
    LAB_CHECK(cudaDeviceDisablePeerAccess(0));
  }
  time_peer_copy(run.peer_off_ms);

  // Through pinned host memory, written out: GPU 0 -> host on GPU 0's stream,
  // then host -> GPU 1 on GPU 1's stream once GPU 0's copy is done.
  LAB_CHECK(cudaSetDevice(1));
  arrived_1.poison(stream_1);
  LAB_CHECK(cudaStreamSynchronize(stream_1));
  for (int rep = 0; rep <= reps; ++rep) {
    LAB_CHECK(cudaSetDevice(0));
    LAB_CHECK(cudaEventRecord(start_0, stream_0));
    LAB_CHECK(cudaMemcpyAsync(staging.data(), source_0.data(), bytes, cudaMemcpyDeviceToHost, stream_0));
    LAB_CHECK(cudaEventRecord(staged_0, stream_0));
    LAB_CHECK(cudaSetDevice(1));
    LAB_CHECK(cudaStreamWaitEvent(stream_1, staged_0, 0));
    LAB_CHECK(cudaMemcpyAsync(arrived_1.data(), staging.data(), bytes, cudaMemcpyHostToDevice, stream_1));
    LAB_CHECK(cudaEventRecord(done_1, stream_1));
    LAB_CHECK(cudaSetDevice(0));
    LAB_CHECK(cudaStreamWaitEvent(stream_0, done_1, 0));
    LAB_CHECK(cudaEventRecord(stop_0, stream_0));
    LAB_CHECK(cudaEventSynchronize(stop_0));
    if (rep > 0) run.staged_ms.push_back(lab::Event::elapsed_ms(start_0, stop_0));
  }
  check_arrival();
  LAB_CHECK(cudaSetDevice(1));
  LAB_CHECK(cudaDeviceSynchronize());
  LAB_CHECK(cudaSetDevice(0));
  LAB_CHECK(cudaDeviceSynchronize());
  return run;
}

// --- 3. Ordering across devices --------------------------------------------------------

std::string producer_consumer_reason(const DeviceSet& devices) {
  std::string reason = two_gpu_reason(devices);
  if (!reason.empty()) return reason;
  int can_access = 0;
  LAB_CHECK(cudaDeviceCanAccessPeer(&can_access, 1, 0));
  return can_access != 0 ? "" : "GPU 1 cannot access GPU 0's memory (cudaDeviceCanAccessPeer)";
}

void exit_77_without_two_gpus() {
  const std::string reason = producer_consumer_reason(choose_devices(0));
  if (reason.empty()) return;
  std::printf("skipped: %s\n", reason.c_str());
  std::fflush(stdout);
  std::exit(lab::exit_code::no_device);
}

ProducerConsumer::ProducerConsumer(std::int64_t count) : n(count) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  LAB_CHECK(cudaSetDevice(0));  // GPU 0's: the produced buffer, the producer's stream and event
  LAB_CHECK(cudaMalloc(&produced, bytes));
  LAB_CHECK(cudaMemset(produced, 0, bytes));
  LAB_CHECK(cudaStreamCreateWithFlags(&producer_stream, cudaStreamNonBlocking));
  LAB_CHECK(cudaEventCreateWithFlags(&produced_event, cudaEventDisableTiming));
  LAB_CHECK(cudaSetDevice(1));  // GPU 1's: what the consumer saw, its stream, its access to GPU 0
  LAB_CHECK(cudaMalloc(&seen, bytes));
  LAB_CHECK(cudaStreamCreateWithFlags(&consumer_stream, cudaStreamNonBlocking));
  const cudaError_t enabled = cudaDeviceEnablePeerAccess(0, 0);
  if (enabled == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();  // someone else enabled it, and will disable it
  } else {
    LAB_CHECK(enabled);
    enabled_peer_access_ = true;
  }
  LAB_CHECK(cudaDeviceSynchronize());
  LAB_CHECK(cudaSetDevice(0));
}

ProducerConsumer::~ProducerConsumer() {
  // A destructor must not throw: errors here would only be reported.
  cudaSetDevice(1);
  cudaStreamSynchronize(consumer_stream);
  if (enabled_peer_access_) cudaDeviceDisablePeerAccess(0);
  cudaStreamDestroy(consumer_stream);
  cudaFree(seen);
  cudaSetDevice(0);
  cudaStreamSynchronize(producer_stream);
  cudaEventDestroy(produced_event);
  cudaStreamDestroy(producer_stream);
  cudaFree(produced);
}

void queue_producer(ProducerConsumer& pc, double producer_ms, float value) {
  LAB_CHECK(cudaSetDevice(0));
  lab::launch_spin(pc.producer_stream, producer_ms);
  LAB_CHECK_LAUNCH();
  launch_fill(pc.produced, pc.n, value, pc.producer_stream);
}

void queue_consumer(ProducerConsumer& pc) {
  LAB_CHECK(cudaSetDevice(1));
  launch_scale(pc.produced, pc.seen, pc.n, 1.0f, pc.consumer_stream);  // reads GPU 0's memory
}

std::int64_t count_stale(ProducerConsumer& pc, float value) {
  LAB_CHECK(cudaStreamSynchronize(pc.producer_stream));
  LAB_CHECK(cudaStreamSynchronize(pc.consumer_stream));
  std::vector<float> seen(static_cast<std::size_t>(pc.n));
  LAB_CHECK(cudaMemcpy(seen.data(), pc.seen, seen.size() * sizeof(float), cudaMemcpyDeviceToHost));
  LAB_CHECK(cudaSetDevice(0));
  return std::count_if(seen.begin(), seen.end(), [value](float v) { return v != value; });
}

OrderingRun race_across_devices(const DeviceSet& devices, std::int64_t n, double producer_ms, int runs) {
  OrderingRun run;
  run.n = n;
  run.producer_ms = producer_ms;
  run.skipped = producer_consumer_reason(devices);
  if (!run.skipped.empty()) return run;
  ProducerConsumer pc(n);
  for (int r = 1; r <= runs; ++r) {
    // [snippet:event_across_devices]
    // Without an event: nothing orders GPU 1's stream after GPU 0's.
    const float first = static_cast<float>(2 * r);
    queue_producer(pc, producer_ms, first);
    queue_consumer(pc);
    run.stale_without_event.push_back(count_stale(pc, first));

    // With one: GPU 0's stream records it, GPU 1's stream waits for it.
    const float second = static_cast<float>(2 * r + 1);
    queue_producer(pc, producer_ms, second);
    LAB_CHECK(cudaEventRecord(pc.produced_event, pc.producer_stream));
    LAB_CHECK(cudaSetDevice(1));
    LAB_CHECK(cudaStreamWaitEvent(pc.consumer_stream, pc.produced_event, 0));
    queue_consumer(pc);
    run.stale_with_event.push_back(count_stale(pc, second));
    // [snippet:event_across_devices]
  }
  return run;
}

// --- 4. Splitting work over GPUs -------------------------------------------------------

PipelineRun split_pipeline(const DeviceSet& devices, std::int64_t n, int chunks, int iterations, int reps,
                           std::uint64_t seed) {
  PipelineRun run;
  run.n = n;
  run.chunks = chunks;
  run.skipped = two_gpu_reason(devices);
  const int count = devices.used;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  run.link.bytes = static_cast<double>(bytes);

  // Pinned host memory, pinned for every device (cudaHostAllocPortable).
  lab::PinnedBuffer<float> x(static_cast<std::size_t>(n), cudaHostAllocPortable);
  lab::PinnedBuffer<float> y(static_cast<std::size_t>(n), cudaHostAllocPortable);
  const std::vector<float> input = lab::random_floats(static_cast<std::size_t>(n), seed);
  std::copy(input.begin(), input.end(), x.begin());
  const std::vector<float> expected = iterate_reference(x.data(), n, iterations);

  // Each device's buffers (room for all n: chunk k sits at the same offset
  // everywhere) and two streams, made with that device current.
  std::vector<lab::DeviceBuffer<float>> x_on;
  std::vector<lab::DeviceBuffer<float>> y_on;
  std::vector<lab::Stream> streams;  // device d: streams[2d], streams[2d + 1]
  std::vector<lab::Event> starts, stops;
  x_on.reserve(count);
  y_on.reserve(count);
  streams.reserve(2 * count);
  starts.reserve(count);
  stops.reserve(count);
  for (int d = 0; d < count; ++d) {
    LAB_CHECK(cudaSetDevice(d));
    x_on.emplace_back(static_cast<std::size_t>(n));
    y_on.emplace_back(static_cast<std::size_t>(n));
    y_on[d].poison();
    streams.emplace_back(cudaStreamNonBlocking);
    streams.emplace_back(cudaStreamNonBlocking);
    starts.emplace_back();
    stops.emplace_back();
  }
  auto synchronize_all = [&](int used) {
    for (int d = 0; d < used; ++d) {
      LAB_CHECK(cudaSetDevice(d));
      LAB_CHECK(cudaDeviceSynchronize());
    }
  };
  synchronize_all(count);

  // The host link of each GPU alone (event pairs on its own stream).
  for (int d = 0; d < count; ++d) {
    LAB_CHECK(cudaSetDevice(d));
    std::vector<double> h2d, d2h;
    for (int rep = 0; rep <= reps; ++rep) {
      LAB_CHECK(cudaEventRecord(starts[d], streams[2 * d]));
      LAB_CHECK(cudaMemcpyAsync(x_on[d].data(), x.data(), bytes, cudaMemcpyHostToDevice, streams[2 * d]));
      LAB_CHECK(cudaEventRecord(stops[d], streams[2 * d]));
      LAB_CHECK(cudaEventSynchronize(stops[d]));
      if (rep > 0) h2d.push_back(lab::Event::elapsed_ms(starts[d], stops[d]));
      LAB_CHECK(cudaEventRecord(starts[d], streams[2 * d]));
      LAB_CHECK(cudaMemcpyAsync(y.data(), y_on[d].data(), bytes, cudaMemcpyDeviceToHost, streams[2 * d]));
      LAB_CHECK(cudaEventRecord(stops[d], streams[2 * d]));
      LAB_CHECK(cudaEventSynchronize(stops[d]));
      if (rep > 0) d2h.push_back(lab::Event::elapsed_ms(starts[d], stops[d]));
    }
    run.link.h2d_alone_gbps.push_back(lab::gigabytes_per_second(static_cast<double>(bytes), lab::median_or_nan(h2d)));
    run.link.d2h_alone_gbps.push_back(lab::gigabytes_per_second(static_cast<double>(bytes), lab::median_or_nan(d2h)));
  }
  // All GPUs at once (a host timer: no one device's events see the others' copies).
  // The device-to-host copies all land in y; its contents are rewritten below.
  if (count >= 2) {
    std::vector<double> h2d, d2h;
    for (int rep = 0; rep <= reps; ++rep) {
      synchronize_all(count);
      lab::HostTimer in;
      for (int d = 0; d < count; ++d) {
        LAB_CHECK(cudaSetDevice(d));
        LAB_CHECK(cudaMemcpyAsync(x_on[d].data(), x.data(), bytes, cudaMemcpyHostToDevice, streams[2 * d]));
      }
      synchronize_all(count);
      if (rep > 0) h2d.push_back(in.elapsed_ms());
      lab::HostTimer out;
      for (int d = 0; d < count; ++d) {
        LAB_CHECK(cudaSetDevice(d));
        LAB_CHECK(cudaMemcpyAsync(y.data(), y_on[d].data(), bytes, cudaMemcpyDeviceToHost, streams[2 * d]));
      }
      synchronize_all(count);
      if (rep > 0) d2h.push_back(out.elapsed_ms());
    }
    run.link.h2d_together_gbps = lab::gigabytes_per_second(static_cast<double>(bytes) * count, lab::median_or_nan(h2d));
    run.link.d2h_together_gbps = lab::gigabytes_per_second(static_cast<double>(bytes) * count, lab::median_or_nan(d2h));
  }

  // The kernel over all n on GPU 0 alone (x_on[0] holds the input by now).
  LAB_CHECK(cudaSetDevice(0));
  std::vector<double> kernel;
  for (int rep = 0; rep <= reps; ++rep) {
    LAB_CHECK(cudaEventRecord(starts[0], streams[0]));
    launch_iterate(x_on[0].data(), y_on[0].data(), n, iterations, streams[0]);
    LAB_CHECK(cudaEventRecord(stops[0], streams[0]));
    LAB_CHECK(cudaEventSynchronize(stops[0]));
    if (rep > 0) kernel.push_back(lab::Event::elapsed_ms(starts[0], stops[0]));
  }
  run.kernel_ms = lab::median_or_nan(kernel);

  // The pipeline: chunk k goes to GPU k mod used, on one of its two streams.
  const std::int64_t chunk = (n + chunks - 1) / chunks;
  std::vector<int> variants = {1};
  if (count >= 2) variants.push_back(count);
  for (int used : variants) {
    PipelineVariant variant;
    variant.devices = used;
    for (int rep = 0; rep <= reps; ++rep) {
      std::fill(y.begin(), y.end(), std::numeric_limits<float>::quiet_NaN());  // poison the output
      synchronize_all(used);
      lab::HostTimer timer;
      for (int k = 0; k < chunks; ++k) {
        const int d = k % used;
        const cudaStream_t stream = streams[2 * d + (k / used) % 2];
        const std::int64_t offset = k * chunk;
        const std::int64_t size = std::min(chunk, n - offset);
        if (size <= 0) break;
        const std::size_t chunk_bytes = static_cast<std::size_t>(size) * sizeof(float);
        LAB_CHECK(cudaSetDevice(d));
        LAB_CHECK(
            cudaMemcpyAsync(x_on[d].data() + offset, x.data() + offset, chunk_bytes, cudaMemcpyHostToDevice, stream));
        launch_iterate(x_on[d].data() + offset, y_on[d].data() + offset, size, iterations, stream);
        LAB_CHECK(
            cudaMemcpyAsync(y.data() + offset, y_on[d].data() + offset, chunk_bytes, cudaMemcpyDeviceToHost, stream));
      }
      synchronize_all(used);
      if (rep > 0) variant.ms.push_back(timer.elapsed_ms());
    }
    variant.result = lab::compare(std::vector<float>(y.begin(), y.end()), expected, kIterateTolerance);
    variant.bound_ms = pipeline_bound_ms(run, used);
    run.variants.push_back(variant);
  }
  LAB_CHECK(cudaSetDevice(0));
  return run;
}

}  // namespace ch09
