// Chapter 02's lesson, in the page's order: the CPU work, the kernels a host
// timer is put around, the four timers (sections 1 and 2), the host calls of
// section 3 (their probe is implicit_sync.cuh), CPU-work placement (section 4),
// then the code that runs each section's variants side by side.
#include <algorithm>
#include <cmath>
#include <limits>

#include "check.cuh"
#include "clock.cuh"
#include "command_line.hpp"
#include "implicit_sync.cuh"
#include "measure.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "sync_pitfalls.cuh"
#include "timers.cuh"

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "sync_pitfalls.cu must be built without --default-stream per-thread (stream 0 = the legacy default stream)"
#endif

namespace ch02 {

// --- The kernels a host timer is put around ------------------------------------

void queue_timed_kernel(const TimedKernel& kernel, cudaStream_t stream) {
  if (kernel.add != nullptr) {
    // Chapter 01's grid-stride c = a + b, on the grid chapter 01 chose for it.
    ch01::AddProblem& add = *kernel.add;
    const auto grid = static_cast<unsigned>(add.config().grid);
    ch01::add_grid_stride<<<grid, add.config().block, 0, stream>>>(add.a(), add.b(), add.c(), add.n());
    LAB_CHECK_LAUNCH();
  } else {
    lab::launch_spin(stream, kernel.spin_ms);  // spin_kernel<<<1, 1, 0, stream>>>: busy for spin_ms of GPU time
  }
}

// --- Sections 1 and 2: a host timer around a kernel, four ways ----------------

// [snippet:time_with_host_timer]
std::vector<double> time_with_host_timer(SyncCase sync_case, const TimedKernel& kernel, cudaStream_t stream, int runs) {
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    if (syncs_before(sync_case)) LAB_CHECK(cudaStreamSynchronize(stream));  // whatever was queued is done
    lab::HostTimer timer;
    queue_timed_kernel(kernel, stream);                                    // returns as soon as the launch is queued
    if (syncs_after(sync_case)) LAB_CHECK(cudaStreamSynchronize(stream));  // the kernel is done
    samples.push_back(timer.elapsed_ms());
  }
  return samples;
}
// [snippet:time_with_host_timer]

CaseRun run_case(SyncCase sync_case, const TimedKernel& kernel, const Options& o, cudaStream_t stream) {
  CaseRun run;
  run.sync_case = sync_case;
  // Start idle, so that every case sees the same backlog and nothing else.
  LAB_CHECK(cudaStreamSynchronize(stream));
  lab::Event backlog_begin, backlog_end;
  LAB_CHECK(cudaEventRecord(backlog_begin, stream));
  if (o.backlog_ms > 0) lab::launch_spin(stream, o.backlog_ms);
  for (std::int64_t i = 0; i < o.warmup; ++i) queue_timed_kernel(kernel, stream);
  LAB_CHECK(cudaEventRecord(backlog_end, stream));
  // Poisoned after the warm-up launches (which write c), before the timed ones:
  // a case whose timed loop never ran the kernel leaves NaN.
  if (kernel.add != nullptr) kernel.add->poison(stream);
  // No synchronisation here: the warm-up is still running when the first timer starts.
  run.samples_ms = time_with_host_timer(sync_case, kernel, stream, static_cast<int>(o.runs));
  LAB_CHECK(cudaStreamSynchronize(stream));
  run.backlog_ms = lab::Event::elapsed_ms(backlog_begin, backlog_end);
  if (kernel.add != nullptr) run.result = kernel.add->check();
  return run;
}

// --- Section 3: which calls wait for queued work --------------------------------
// The probe is probe_call() in implicit_sync.cuh, included above: in this file
// its stream 0 is the legacy default stream.

// --- Section 4: where the CPU work goes ----------------------------------------

Placement compare_cpu_work_placement(ch01::AddProblem& problem, double gpu_ms, double cpu_ms, cudaStream_t stream) {
  Placement placement;
  std::vector<float> result(static_cast<std::size_t>(problem.n()));

  // The GPU work alone, with events around it.
  problem.poison(stream);
  lab::Event start, stop;
  LAB_CHECK(cudaEventRecord(start, stream));
  lab::launch_spin(stream, gpu_ms);
  problem.launch(stream);
  LAB_CHECK(cudaEventRecord(stop, stream));
  LAB_CHECK(cudaEventSynchronize(stop));
  placement.gpu_ms = lab::Event::elapsed_ms(start, stop);

  // The CPU work alone.
  {
    lab::HostTimer cpu;
    lab::do_cpu_work(cpu_ms);
    placement.cpu_ms = cpu.elapsed_ms();
  }

  // Queue the GPU work, do the CPU work while it runs, then read the result.
  std::fill(result.begin(), result.end(), std::numeric_limits<float>::quiet_NaN());
  problem.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  {
    lab::HostTimer wall;
    lab::launch_spin(stream, gpu_ms);
    problem.launch(stream);
    lab::do_cpu_work(cpu_ms);
    LAB_CHECK(cudaMemcpyAsync(result.data(), problem.c(), problem.c_bytes(), cudaMemcpyDeviceToHost, stream));
    LAB_CHECK(cudaStreamSynchronize(stream));
    placement.work_then_read_ms = wall.elapsed_ms();
  }
  placement.work_then_read = problem.check(result);

  // Read the result first (the host waits for the GPU there), then do the CPU work.
  std::fill(result.begin(), result.end(), std::numeric_limits<float>::quiet_NaN());
  problem.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  {
    lab::HostTimer wall;
    lab::launch_spin(stream, gpu_ms);
    problem.launch(stream);
    LAB_CHECK(cudaMemcpyAsync(result.data(), problem.c(), problem.c_bytes(), cudaMemcpyDeviceToHost, stream));
    LAB_CHECK(cudaStreamSynchronize(stream));
    lab::do_cpu_work(cpu_ms);
    placement.read_then_work_ms = wall.elapsed_ms();
  }
  placement.read_then_work = problem.check(result);
  return placement;
}

// --- The code that runs each section's variants ---------------------------------

HostTimerRun compare_host_timers(const TimedKernel& kernel, const Options& o, cudaStream_t stream) {
  HostTimerRun run;
  run.kernel = kernel.add != nullptr ? "c = a + b (" + lab::format_count(kernel.add->n()) + " floats)"
                                     : "a kernel spinning " + lab::fixed(kernel.spin_ms, 1) + " ms";
  run.id = kernel.add != nullptr ? "add" : "long_kernel";
  run.runs = static_cast<int>(o.runs);
  run.warmup = static_cast<int>(o.warmup);
  run.backlog_kernel_ms = o.backlog_ms;
  // Events on a held stream: no launch gap, but the events' own cost (chapter 03, section 6).
  lab::MeasureConfig gpu_only;
  gpu_only.mode = lab::SampleMode::blocked_stream;
  run.kernel_ms = lab::measure_ms([&](cudaStream_t s) { queue_timed_kernel(kernel, s); }, stream, gpu_only);
  for (SyncCase sync_case : kAllCases) run.cases.push_back(run_case(sync_case, kernel, o, stream));
  return run;
}

ImplicitSyncRun probe_host_calls(ch01::AddProblem& problem, double queued_ms, lab::TimelineSession& timeline) {
  ImplicitSyncRun run;
  run.queued_ms = queued_ms;
  lab::Stream blocking(cudaStreamDefault);  // what cudaStreamCreate makes
  lab::Stream non_blocking(cudaStreamNonBlocking);
  for (WorkSetup setup : kAllSetups) {
    const cudaStream_t work_stream = setup == WorkSetup::non_blocking_stream        ? non_blocking.get()
                                     : setup == WorkSetup::per_thread_legacy_stream ? cudaStreamLegacy
                                                                                    : blocking.get();
    // The probe as compiled in this file (stream 0 = legacy) or in the per-thread file.
    auto probe = built_per_thread(setup) ? probe_host_call_per_thread : probe_call;
    for (HostCall call : kAllHostCalls) {
      CallProbe with_work = probe(call, setup, problem, work_stream, queued_ms);
      // The same call with no spin kernel before it: what the call costs by itself.
      with_work.alone_ms = probe(call, setup, problem, work_stream, 0.0).returned_after_ms;
      run.probes.push_back(with_work);
    }
    // --timeline / --trace: one more cudaMemcpy in this setup, as CUPTI saw it.
    if (timeline.wanted()) {
      constexpr const char* kWhere[] = {
          "work on a blocking stream, default build", "work on a non-blocking stream, default build",
          "work on a blocking stream, per-thread build", "work on the legacy default stream, per-thread build"};
      timeline.begin(std::string(setup_label(setup)) + " " + host_call_name(HostCall::memcpy_blocking) + ", " +
                     kWhere[static_cast<int>(setup)]);
      if (work_stream != cudaStreamLegacy) timeline.name_stream(work_stream, "the work's stream");
      probe(HostCall::memcpy_blocking, setup, problem, work_stream, queued_ms);
      timeline.end();
    }
  }
  return run;
}

}  // namespace ch02
