/// @file implicit_sync.cuh
/// @brief Section 3's probe, compiled twice: by sync_pitfalls.cu (a default
/// build: stream 0, and the stream cudaMemcpy uses, is the legacy default
/// stream) and by implicit_sync_per_thread.cu (built with `--default-stream
/// per-thread`: they are the calling thread's own default stream). The same
/// source text means two different things, which is the lesson (chapter 04
/// measures the two default streams with kernels; here they decide which host
/// calls wait and what the copies read).
///
/// Everything here has internal linkage (an unnamed namespace), so the two
/// files each keep their own copy. The CUDA calls are written out, not taken
/// from the inline helpers of common/: a helper's call on stream 0 would mean
/// different things in the two files. Only the constructors and destructors of
/// buffers and events, which take no stream, come from there.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "add_kernels.cuh"
#include "check.cuh"
#include "clock.cuh"
#include "data.hpp"
#include "memory.cuh"
#include "stream.cuh"
#include "timers.cuh"

namespace ch02 {
namespace {

// The kernel a launch on stream 0 queues: copies c into seen. Whether it finds
// the result of c = a + b or the NaN poison depends on whether stream 0 waits
// for the stream the work is on.
__global__ void copy_c(const float* c, float* seen, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    seen[i] = c[i];
  }
}

// What cudaMalloc and cudaFree allocate and free.
constexpr std::size_t kScratchBytes = std::size_t{1} << 20;

CallProbe probe_call(HostCall call, WorkSetup setup, ch01::AddProblem& problem, cudaStream_t work_stream,
                     double queued_ms) {
  const auto n = static_cast<std::size_t>(problem.n());
  const std::size_t bytes = problem.c_bytes();
  constexpr int block = 256;
  const auto grid = static_cast<unsigned>(std::min<std::int64_t>((problem.n() + block - 1) / block, 1024));
  const float nan = std::numeric_limits<float>::quiet_NaN();

  // Everything the call needs exists before the work is queued, so that only
  // the call is timed. The host buffers hold NaN: a value never copied fails
  // the check (and the pageable pages are resident, as in a real program).
  lab::PinnedBuffer<float> pinned(n);
  std::fill(pinned.begin(), pinned.end(), nan);
  std::vector<float> pageable(n, nan);
  lab::DeviceBuffer<float> seen(call == HostCall::kernel_launch ? n : 0);
  void* scratch = nullptr;
  if (call == HostCall::cuda_free) LAB_CHECK(cudaMalloc(&scratch, kScratchBytes));

  // The first launch of a kernel loads its module (lazy loading), and loading
  // waits for the GPU: launch every kernel once now, while it is idle.
  copy_c<<<1, 1, 0, 0>>>(problem.c(), seen.data(), 0);
  LAB_CHECK_LAUNCH();
  lab::launch_spin(work_stream, 0.0);
  problem.launch(work_stream);
  // Then poison c (and seen): NaN until the kernel writes it.
  LAB_CHECK(cudaMemsetAsync(problem.c(), 0xFF, bytes, work_stream));
  if (seen.size() > 0) LAB_CHECK(cudaMemsetAsync(seen.data(), 0xFF, seen.bytes(), work_stream));
  LAB_CHECK(cudaDeviceSynchronize());

  // The work: queued_ms of spinning, then c = a + b, on work_stream, between two events.
  lab::Event work_start, work_done;
  LAB_CHECK(cudaEventRecord(work_start, work_stream));
  lab::launch_spin(work_stream, queued_ms);
  problem.launch(work_stream);
  LAB_CHECK(cudaEventRecord(work_done, work_stream));

  CallProbe probe;
  probe.call = call;
  probe.setup = setup;
  lab::HostTimer timer;
  switch (call) {
    case HostCall::kernel_launch:
      copy_c<<<grid, block, 0, 0>>>(problem.c(), seen.data(), problem.n());
      LAB_CHECK_LAUNCH();
      break;
    case HostCall::memcpy_async_pinned:
      LAB_CHECK(cudaMemcpyAsync(pinned.data(), problem.c(), bytes, cudaMemcpyDeviceToHost, 0));
      break;
    case HostCall::memcpy_async_pageable:
      LAB_CHECK(cudaMemcpyAsync(pageable.data(), problem.c(), bytes, cudaMemcpyDeviceToHost, 0));
      break;
    case HostCall::memcpy_blocking:
      LAB_CHECK(cudaMemcpy(pageable.data(), problem.c(), bytes, cudaMemcpyDeviceToHost));
      break;
    case HostCall::cuda_malloc: LAB_CHECK(cudaMalloc(&scratch, kScratchBytes)); break;
    case HostCall::cuda_free:
      LAB_CHECK(cudaFree(scratch));
      scratch = nullptr;
      break;
    case HostCall::read_one_value:
      // What PyTorch's `.item()` does: copy one value on the work's own stream and wait for that stream.
      LAB_CHECK(
          cudaMemcpyAsync(&pinned[n - 1], problem.c() + (n - 1), sizeof(float), cudaMemcpyDeviceToHost, work_stream));
      LAB_CHECK(cudaStreamSynchronize(work_stream));
      break;
  }
  probe.returned_after_ms = timer.elapsed_ms();
  // Had the GPU reached the end of the work? cudaEventQuery never blocks: cudaSuccess means yes.
  const cudaError_t work_done_status = cudaEventQuery(work_done);
  if (work_done_status != cudaErrorNotReady) LAB_CHECK(work_done_status);
  probe.work_done_at_return = work_done_status == cudaSuccess;
  LAB_CHECK(cudaDeviceSynchronize());
  probe.work_ms = lab::Event::elapsed_ms(work_start, work_done);
  if (scratch != nullptr) LAB_CHECK(cudaFree(scratch));

  // What the call read of c, now that everything has finished, against the CPU.
  switch (call) {
    case HostCall::kernel_launch: {
      std::vector<float> copied(n);
      LAB_CHECK(cudaMemcpy(copied.data(), seen.data(), bytes, cudaMemcpyDeviceToHost));
      probe.data = problem.check(copied);
      break;
    }
    case HostCall::memcpy_async_pinned: probe.data = problem.check({pinned.begin(), pinned.end()}); break;
    case HostCall::memcpy_async_pageable:
    case HostCall::memcpy_blocking: probe.data = problem.check(pageable); break;
    case HostCall::read_one_value: probe.data = lab::compare({pinned[n - 1]}, {problem.expected()[n - 1]}); break;
    case HostCall::cuda_malloc:
    case HostCall::cuda_free: break;  // they read nothing
  }
  return probe;
}

}  // namespace
}  // namespace ch02
