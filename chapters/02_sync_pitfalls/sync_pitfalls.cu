#include <algorithm>
#include <cmath>
#include <limits>

#include "check.cuh"
#include "clock.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "sync_pitfalls.cuh"
#include "timers.cuh"

namespace ch02 {

const char* case_name(SyncCase sync_case) {
  switch (sync_case) {
    case SyncCase::before_and_after: return "sync before and after";
    case SyncCase::before_only: return "sync before only";
    case SyncCase::after_only: return "sync after only";
    case SyncCase::never: return "no sync";
  }
  return "?";
}

const char* case_contents(SyncCase sync_case, bool first_run) {
  switch (sync_case) {
    case SyncCase::before_and_after: return "launch + kernel + sync";
    case SyncCase::before_only: return "launch only";
    case SyncCase::after_only: return first_run ? "backlog + launch + kernel + sync" : "launch + kernel + sync";
    case SyncCase::never: return "launch only (kernels pile up)";
  }
  return "?";
}

bool syncs_before(SyncCase sync_case) {
  return sync_case == SyncCase::before_and_after || sync_case == SyncCase::before_only;
}

bool syncs_after(SyncCase sync_case) {
  return sync_case == SyncCase::before_and_after || sync_case == SyncCase::after_only;
}

std::vector<double> time_with_host_timer(SyncCase sync_case, const GpuWork& work, cudaStream_t stream, int runs,
                                         const std::function<void(bool started)>& on_timer) {
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    if (syncs_before(sync_case)) LAB_CHECK(cudaStreamSynchronize(stream));
    lab::HostTimer timer;
    if (on_timer) on_timer(true);
    work(stream);
    if (syncs_after(sync_case)) LAB_CHECK(cudaStreamSynchronize(stream));
    samples.push_back(timer.elapsed_ms());
    if (on_timer) on_timer(false);
  }
  return samples;
}

CaseRun run_case(SyncCase sync_case, const GpuWork& work, cudaStream_t stream, int warmup, double backlog_ms,
                 int runs, const std::function<void(bool started)>& on_timer) {
  // Start idle, so that every case sees the same backlog and nothing else.
  LAB_CHECK(cudaStreamSynchronize(stream));
  lab::Event backlog_begin, backlog_end;
  backlog_begin.record(stream);
  if (backlog_ms > 0) lab::launch_spin(stream, backlog_ms);
  for (int i = 0; i < warmup; ++i) work(stream);
  backlog_end.record(stream);
  // No synchronisation here: the warm-up is still running when the timer starts.
  CaseRun run;
  run.samples_ms = time_with_host_timer(sync_case, work, stream, runs, on_timer);
  LAB_CHECK(cudaStreamSynchronize(stream));
  run.backlog_ms = lab::Event::elapsed_ms(backlog_begin, backlog_end);
  return run;
}

const char* host_call_name(HostCall call) {
  switch (call) {
    case HostCall::kernel_launch: return "kernel launch";
    case HostCall::memcpy_async_to_pinned: return "cudaMemcpyAsync D2H into pinned memory";
    case HostCall::memcpy_async_to_pageable: return "cudaMemcpyAsync D2H into pageable memory";
    case HostCall::blocking_memcpy: return "cudaMemcpy D2H";
    case HostCall::malloc_and_free: return "cudaMalloc + cudaFree";
    case HostCall::read_one_value: return "read one result on the host";
  }
  return "?";
}

bool documented_to_wait(HostCall call) {
  return call != HostCall::kernel_launch && call != HostCall::memcpy_async_to_pinned;
}

ImplicitSync probe_implicit_sync(HostCall call, ch01::AddProblem& problem, double queued_ms, cudaStream_t stream) {
  const auto n = static_cast<std::size_t>(problem.n());
  // Everything the call needs is allocated before the GPU work is queued, so
  // that only the call itself is timed.
  lab::PinnedBuffer<float> pinned(n);
  std::vector<float> pageable(n);

  problem.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  lab::launch_spin(stream, queued_ms);  // the work queued before the call
  problem.launch(stream);

  ImplicitSync probe;
  probe.queued_ms = queued_ms;
  lab::HostTimer timer;
  switch (call) {
    case HostCall::kernel_launch: problem.launch(stream); break;
    case HostCall::memcpy_async_to_pinned:
      LAB_CHECK(cudaMemcpyAsync(pinned.data(), problem.c(), problem.c_bytes(), cudaMemcpyDeviceToHost, stream));
      break;
    case HostCall::memcpy_async_to_pageable:
      LAB_CHECK(cudaMemcpyAsync(pageable.data(), problem.c(), problem.c_bytes(), cudaMemcpyDeviceToHost, stream));
      break;
    case HostCall::blocking_memcpy:
      LAB_CHECK(cudaMemcpy(pageable.data(), problem.c(), problem.c_bytes(), cudaMemcpyDeviceToHost));
      break;
    case HostCall::malloc_and_free: {
      void* scratch = nullptr;
      LAB_CHECK(cudaMalloc(&scratch, 1 << 20));
      LAB_CHECK(cudaFree(scratch));
      break;
    }
    case HostCall::read_one_value:
      // What `.item()` does: copy one value, wait for it, use it.
      LAB_CHECK(cudaMemcpyAsync(pinned.data() + n - 1, problem.c() + n - 1, sizeof(float), cudaMemcpyDeviceToHost,
                                stream));
      LAB_CHECK(cudaStreamSynchronize(stream));
      break;
  }
  probe.returned_after_ms = timer.elapsed_ms();
  probe.waited = probe.returned_after_ms > 0.5 * queued_ms;
  LAB_CHECK(cudaStreamSynchronize(stream));

  switch (call) {
    case HostCall::memcpy_async_to_pinned: probe.result = problem.check({pinned.begin(), pinned.end()}); break;
    case HostCall::memcpy_async_to_pageable:
    case HostCall::blocking_memcpy: probe.result = problem.check(pageable); break;
    case HostCall::read_one_value:
      probe.result = lab::compare({pinned[n - 1]}, {problem.expected()[n - 1]});
      break;
    case HostCall::kernel_launch:
    case HostCall::malloc_and_free: probe.result = problem.check(); break;
  }
  return probe;
}

std::uint64_t cpu_work_slice() {
  // Dependent multiply-adds: real work for the core that the compiler cannot
  // fold away, because the result is stored where it cannot see the reader.
  static volatile double sink = 1.0;
  double x = sink;
  constexpr int kIterations = 4096;
  for (int i = 0; i < kIterations; ++i) x = std::fma(x, 1.0000001, 1e-9);
  sink = x;
  return kIterations;
}

std::uint64_t do_cpu_work(double ms) {
  lab::HostTimer timer;
  std::uint64_t iterations = 0;
  while (timer.elapsed_ms() < ms) iterations += cpu_work_slice();  // the clock is read every few microseconds
  return iterations;
}

Placement compare_cpu_work_placement(ch01::AddProblem& problem, double gpu_ms, double cpu_ms, cudaStream_t stream) {
  Placement placement;
  placement.cpu_ms = cpu_ms;
  std::vector<float> result(static_cast<std::size_t>(problem.n()));
  auto queue_gpu_work = [&] {
    lab::launch_spin(stream, gpu_ms);
    problem.launch(stream);
  };
  // cudaMemcpy on the legacy default stream waits for the (blocking) stream
  // the kernel is on: reading the result is the synchronisation.
  auto read_result = [&] {
    std::fill(result.begin(), result.end(), std::numeric_limits<float>::quiet_NaN());
    LAB_CHECK(cudaMemcpy(result.data(), problem.c(), problem.c_bytes(), cudaMemcpyDeviceToHost));
  };

  // The GPU work alone, for reference.
  problem.poison(stream);
  {
    lab::EventTimer events(stream);
    {
      auto scope = events.scope();
      queue_gpu_work();
    }
    placement.gpu_ms = events.elapsed_ms();
  }

  // Queue the GPU work, do the CPU work while it runs, then read the result.
  problem.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  {
    lab::HostTimer wall;
    queue_gpu_work();
    do_cpu_work(cpu_ms);
    read_result();
    placement.work_then_sync_ms = wall.elapsed_ms();
  }
  placement.work_then_sync = problem.check(result);

  // Read the result too early (the implicit synchronisation), then do the CPU work.
  problem.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  {
    lab::HostTimer wall;
    queue_gpu_work();
    read_result();
    do_cpu_work(cpu_ms);
    placement.sync_then_work_ms = wall.elapsed_ms();
  }
  placement.sync_then_work = problem.check(result);
  return placement;
}

}  // namespace ch02
