#include <algorithm>
#include <cstring>

#include "check.cuh"
#include "device.cuh"
#include "pinned.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "measure.cuh"
#include "timers.cuh"
#include "verify.hpp"

namespace ch06 {

namespace {


unsigned host_alloc_flags(HostKind kind) {
  switch (kind) {
    case HostKind::write_combined: return cudaHostAllocWriteCombined;
    case HostKind::mapped: return cudaHostAllocMapped;
    default: return cudaHostAllocDefault;
  }
}

cudaMemcpyKind memcpy_kind(Direction direction) {
  return direction == Direction::host_to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
}

// Gives device memory that is about to be copied out defined contents, on
// `stream`, outside any timed sample. cudaMalloc leaves memory unwritten: a
// copy of it to the host moves whatever was there (and compute-sanitizer's
// initcheck reports every such copy), so the bandwidth sweep fills the source
// of its device-to-host copies first.
void fill_before_copying_out(unsigned char* device, std::size_t bytes, cudaStream_t stream) {
  LAB_CHECK(cudaMemsetAsync(device, 0xA5, bytes, stream));
}

}  // namespace

const char* host_kind_name(HostKind kind) {
  switch (kind) {
    case HostKind::pageable: return "pageable";
    case HostKind::pinned: return "pinned";
    case HostKind::write_combined: return "write-combined";
    case HostKind::mapped: return "mapped";
  }
  return "?";
}

HostMemory::HostMemory(HostKind kind, std::size_t bytes) : kind_(kind), bytes_(bytes) {
  if (kind == HostKind::pageable) {
    pageable_.assign(bytes, 0);  // value-initialised: every page is written once here
  } else {
    pinned_ = lab::PinnedBuffer<unsigned char>(bytes, host_alloc_flags(kind));
    std::memset(pinned_.data(), 0, bytes);
  }
}

void fill_random(unsigned char* data, std::size_t bytes, std::uint64_t seed) {
  // splitmix64 of the word's index: fast, and every word differs.
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t z = seed + (i / 8 + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    std::memcpy(data + i, &z, 8);
  }
  for (; i < bytes; ++i) data[i] = static_cast<unsigned char>(seed + i * 131);
}

std::string CopyCheck::detail() const {
  if (intact) return std::to_string(bytes) + " bytes intact";
  return "byte " + std::to_string(first_difference) + " differs (of " + std::to_string(bytes) + ")";
}

CopyCheck compare_bytes(const unsigned char* actual, const unsigned char* expected, std::size_t bytes) {
  CopyCheck check;
  check.bytes = bytes;
  if (bytes == 0 || std::memcmp(actual, expected, bytes) == 0) {
    check.intact = bytes > 0;
    return check;
  }
  check.first_difference = static_cast<std::size_t>(
      std::mismatch(actual, actual + bytes, expected).first - actual);
  return check;
}

std::vector<double> time_copy_ms(Direction direction, unsigned char* host, unsigned char* device, std::size_t bytes,
                                 cudaStream_t stream, int reps) {
  const bool in = direction == Direction::host_to_device;
  if (!in) fill_before_copying_out(device, bytes, stream);
  auto copy = [&](cudaStream_t s) {
    LAB_CHECK(cudaMemcpyAsync(in ? static_cast<void*>(device) : host, in ? static_cast<void*>(host) : device, bytes,
                              memcpy_kind(direction), s));
  };
  return lab::measure_ms(copy, stream, {1, reps, false, lab::SampleMode::isolated, {}});
}

std::vector<double> time_both_directions_ms(unsigned char* host_in, unsigned char* device_in,
                                            unsigned char* device_out, unsigned char* host_out,
                                            std::size_t bytes, cudaStream_t stream, int reps) {
  fill_before_copying_out(device_out, bytes, stream);
  lab::Stream other;
  lab::Event fork(cudaEventDisableTiming), join(cudaEventDisableTiming);
  auto both = [&](cudaStream_t s) {
    fork.record(s);
    LAB_CHECK(cudaStreamWaitEvent(other, fork.get(), 0));
    LAB_CHECK(cudaMemcpyAsync(device_in, host_in, bytes, cudaMemcpyHostToDevice, s));
    LAB_CHECK(cudaMemcpyAsync(host_out, device_out, bytes, cudaMemcpyDeviceToHost, other));
    join.record(other);
    LAB_CHECK(cudaStreamWaitEvent(s, join.get(), 0));
  };
  return lab::measure_ms(both, stream, {1, reps, false, lab::SampleMode::isolated, {}});
}

CopyCheck round_trip(HostMemory& source, unsigned char* device, HostMemory& destination, std::size_t bytes,
                     std::uint64_t seed, cudaStream_t stream) {
  fill_random(source.data(), bytes, seed);
  std::memset(destination.data(), 0xFF, bytes);  // poison: a copy that does not arrive leaves 0xFF
  LAB_CHECK(cudaMemsetAsync(device, 0xFF, bytes, stream));
  LAB_CHECK(cudaMemcpyAsync(device, source.data(), bytes, cudaMemcpyHostToDevice, stream));
  LAB_CHECK(cudaMemcpyAsync(destination.data(), device, bytes, cudaMemcpyDeviceToHost, stream));
  LAB_CHECK(cudaStreamSynchronize(stream));
  return compare_bytes(destination.data(), source.data(), bytes);
}

std::string CallTiming::call() const { return async_call ? "cudaMemcpyAsync" : "cudaMemcpy"; }

void copy_to_device(HostMemory& source, unsigned char* device, bool async_call, cudaStream_t stream) {
  if (async_call) {
    LAB_CHECK(cudaMemcpyAsync(device, source.data(), source.bytes(), cudaMemcpyHostToDevice, stream));
  } else {
    LAB_CHECK(cudaMemcpy(device, source.data(), source.bytes(), cudaMemcpyHostToDevice));
  }
}

CallTiming time_copy_call(HostMemory& source, unsigned char* device, bool async_call, cudaStream_t stream, int reps) {
  CallTiming timing;
  timing.memory = source.kind();
  timing.async_call = async_call;
  const std::size_t bytes = source.bytes();
  fill_random(source.data(), bytes, 6);
  auto copy = [&] { copy_to_device(source, device, async_call, stream); };
  copy();  // warm-up: first-use costs (staging buffers, link power state) stay out of the samples
  LAB_CHECK(cudaDeviceSynchronize());
  for (int rep = 0; rep < reps; ++rep) {
    LAB_CHECK(cudaMemsetAsync(device, 0xFF, bytes, stream));  // poison
    LAB_CHECK(cudaDeviceSynchronize());
    lab::HostTimer timer;
    copy();
    timing.returned_samples.push_back(timer.elapsed_ms());
    LAB_CHECK(cudaDeviceSynchronize());
    timing.done_samples.push_back(timer.elapsed_ms());
  }
  timing.returned_ms = lab::median(timing.returned_samples);
  timing.done_ms = lab::median(timing.done_samples);
  std::vector<unsigned char> back(bytes);
  LAB_CHECK(cudaMemcpy(back.data(), device, bytes, cudaMemcpyDeviceToHost));
  timing.check = compare_bytes(back.data(), source.data(), bytes);
  return timing;
}

lab::HostRegistration upload_registered(std::vector<float>& host, float* device, cudaStream_t stream) {
  const std::size_t bytes = host.size() * sizeof(float);
  lab::HostRegistration registration(host.data(), bytes);
  LAB_CHECK(cudaMemcpyAsync(device, host.data(), bytes, cudaMemcpyHostToDevice, stream));
  return registration;  // the caller keeps the pages locked until the stream is done
}

RegistrationRun time_registration(HostMemory& buffer, unsigned char* device, cudaStream_t stream, int reps) {
  RegistrationRun run;
  const std::size_t bytes = buffer.bytes();
  run.bytes = bytes;
  fill_random(buffer.data(), bytes, 7);
  const std::vector<unsigned char> before(buffer.data(), buffer.data() + bytes);
  std::vector<double> register_ms, unregister_ms;
  std::vector<double> registered_copy_ms;
  const std::vector<double> pageable =
      time_copy_ms(Direction::host_to_device, buffer.data(), device, bytes, stream, reps);
  for (int rep = 0; rep < reps; ++rep) {
    lab::HostTimer timer;
    lab::HostRegistration registration(buffer.data(), bytes);
    register_ms.push_back(timer.elapsed_ms());
    const std::vector<double> copy = time_copy_ms(Direction::host_to_device, buffer.data(), device, bytes, stream, 1);
    registered_copy_ms.push_back(copy[0]);
    timer.restart();
    registration = lab::HostRegistration();  // cudaHostUnregister
    unregister_ms.push_back(timer.elapsed_ms());
  }
  run.register_ms = lab::median(register_ms);
  run.unregister_ms = lab::median(unregister_ms);
  run.pageable_copy_ms = lab::median(pageable);
  run.registered_copy_ms = lab::median(registered_copy_ms);
  run.contents = compare_bytes(buffer.data(), before.data(), bytes);
  std::vector<unsigned char> back(bytes);
  LAB_CHECK(cudaMemcpy(back.data(), device, bytes, cudaMemcpyDeviceToHost));
  run.copied = compare_bytes(back.data(), before.data(), bytes);
  return run;
}

std::uint64_t cpu_work(std::int64_t steps) {
  std::uint64_t x = 0x2545F4914F6CDD1Dull;
  for (std::int64_t i = 0; i < steps; ++i) {  // xorshift64: each step needs the last
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

std::int64_t calibrate_cpu_work(double milliseconds) {
  std::int64_t steps = 1 << 20;
  volatile std::uint64_t sink = 0;
  for (;;) {  // double the steps until one run takes long enough to time well
    lab::HostTimer timer;
    sink = sink + cpu_work(steps);
    const double took = timer.elapsed_ms();
    if (took > 20.0 || steps > (std::int64_t{1} << 40)) {
      return std::max<std::int64_t>(1, static_cast<std::int64_t>(steps * (milliseconds / took)));
    }
    steps *= 2;
  }
}

const char* placement_name(Placement placement) {
  switch (placement) {
    case Placement::after_nonblocking_copy: return "pinned, cudaMemcpyAsync, CPU work, sync";
    case Placement::after_pageable_copy: return "pageable, cudaMemcpyAsync, CPU work, sync";
    case Placement::after_early_sync: return "pinned, cudaMemcpyAsync, sync, CPU work";
  }
  return "?";
}

PlacementRun time_placement(Placement placement, HostMemory& pinned, HostMemory& pageable, unsigned char* device,
                            std::int64_t cpu_steps, cudaStream_t stream, int reps) {
  PlacementRun run;
  run.placement = placement;
  HostMemory& source = placement == Placement::after_pageable_copy ? pageable : pinned;
  const std::size_t bytes = source.bytes();
  fill_random(source.data(), bytes, 8);
  volatile std::uint64_t sink = 0;
  for (int rep = 0; rep <= reps; ++rep) {  // rep 0 is the warm-up
    LAB_CHECK(cudaMemsetAsync(device, 0xFF, bytes, stream));
    LAB_CHECK(cudaStreamSynchronize(stream));
    lab::HostTimer timer;
    LAB_CHECK(cudaMemcpyAsync(device, source.data(), bytes, cudaMemcpyHostToDevice, stream));
    if (placement == Placement::after_early_sync) LAB_CHECK(cudaStreamSynchronize(stream));
    sink = sink + cpu_work(cpu_steps);
    LAB_CHECK(cudaStreamSynchronize(stream));
    if (rep > 0) run.samples.push_back(timer.elapsed_ms());
  }
  run.wall_ms = lab::median(run.samples);
  std::vector<unsigned char> back(bytes);
  LAB_CHECK(cudaMemcpy(back.data(), device, bytes, cudaMemcpyDeviceToHost));
  run.check = compare_bytes(back.data(), source.data(), bytes);
  return run;
}

CpuAccess time_cpu_access(HostMemory& memory, int reps) {
  const std::size_t words = memory.bytes() / sizeof(std::uint64_t);
  auto* data = reinterpret_cast<std::uint64_t*>(memory.data());
  std::vector<double> read_ms, write_ms;
  volatile std::uint64_t sink = 0;
  for (int rep = 0; rep < reps; ++rep) {
    lab::HostTimer timer;
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < words; ++i) sum += data[i];
    sink = sink + sum;
    read_ms.push_back(timer.elapsed_ms());
    timer.restart();
    for (std::size_t i = 0; i < words; ++i) data[i] = i;
    write_ms.push_back(timer.elapsed_ms());
  }
  const double bytes = static_cast<double>(words * sizeof(std::uint64_t));
  return {lab::gigabytes_per_second(bytes, lab::median(read_ms)), lab::gigabytes_per_second(bytes, lab::median(write_ms))};
}

namespace {

// out[i] = passes x in[i], sweeping the whole input `passes` times, so that
// with a large input every pass reads it from where it lives again (over the
// link, when `in` is mapped host memory).
__global__ void sum_passes_kernel(const float* in, float* out, std::size_t n, int passes) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t first = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  for (std::size_t i = first; i < n; i += stride) out[i] = 0.0f;
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = first; i < n; i += stride) out[i] += in[i];
  }
}

void launch_sum_passes(const float* in, float* out, std::size_t n, int passes, cudaStream_t stream) {
  sum_passes_kernel<<<4 * lab::current_device_attribute(cudaDevAttrMultiProcessorCount), 256, 0, stream>>>(in, out, n,
                                                                                                          passes);
  LAB_CHECK_LAUNCH();
}

}  // namespace

ZeroCopyRun time_zero_copy(HostMemory& mapped, std::size_t floats, int passes, cudaStream_t stream, int reps) {
  ZeroCopyRun run;
  run.passes = passes;
  float* host = reinterpret_cast<float*>(mapped.data());
  // Small integers: passes x in[i] is exact in float whatever the order of the adds.
  for (std::size_t i = 0; i < floats; ++i) host[i] = static_cast<float>((i * 7919) % 1024);
  float* mapped_on_device = nullptr;  // with unified addressing the same address, but this is the documented way
  LAB_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped_on_device), host, 0));
  lab::DeviceBuffer<float> in(floats), out(floats);

  auto check = [&](const char* what) {
    const std::vector<float> got = out.download();
    std::vector<float> expected(floats);
    for (std::size_t i = 0; i < floats; ++i) expected[i] = static_cast<float>(passes) * host[i];
    const lab::Comparison c = lab::compare(got, expected);
    run.detail += std::string(run.detail.empty() ? "" : "; ") + what + ": " + c.detail();
    return c.passed();
  };
  auto copy_then_kernel = [&](cudaStream_t s) {
    LAB_CHECK(cudaMemcpyAsync(in.data(), host, floats * sizeof(float), cudaMemcpyHostToDevice, s));
    launch_sum_passes(in.data(), out.data(), floats, passes, s);
  };
  auto zero_copy = [&](cudaStream_t s) { launch_sum_passes(mapped_on_device, out.data(), floats, passes, s); };
  const lab::MeasureConfig config{1, reps, false, lab::SampleMode::isolated, {}};

  out.poison(stream);
  run.copy_then_kernel_ms = lab::median(lab::measure_ms(copy_then_kernel, stream, config));
  const bool copied_right = check("copy then kernel");
  out.poison(stream);
  run.zero_copy_ms = lab::median(lab::measure_ms(zero_copy, stream, config));
  run.correct = check("zero-copy") && copied_right;
  return run;
}

}  // namespace ch06
