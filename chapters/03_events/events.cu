#include <time.h>

#include <algorithm>
#include <stdexcept>

#include "check.cuh"
#include "clock.cuh"
#include "events.cuh"
#include "memory.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "sync_pitfalls.cuh"
#include "measure.cuh"
#include "stream_blocker.cuh"
#include "timers.cuh"

namespace ch03 {

namespace {

// CPU time this thread has used, in ms (not wall time: a sleeping thread uses none).
double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// Loads the spin kernel's module, so no one-off cost lands in a timed region.
void warm_up_spin(cudaStream_t stream) {
  lab::launch_spin(stream, 0.001);
  LAB_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace

float time_with_raw_events(const GpuWork& work, cudaStream_t stream) {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  LAB_CHECK(cudaEventCreate(&start));
  LAB_CHECK(cudaEventCreate(&stop));
  float ms = 0.0f;
  try {
    LAB_CHECK(cudaEventRecord(start, stream));  // a marker in the stream: timestamped when the GPU reaches it
    work(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    LAB_CHECK(cudaEventSynchronize(stop));  // the host waits until the GPU has passed the stop marker
    LAB_CHECK(cudaEventElapsedTime(&ms, start, stop));
  } catch (...) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    throw;
  }
  LAB_CHECK(cudaEventDestroy(start));
  LAB_CHECK(cudaEventDestroy(stop));
  return ms;
}

EventVsHost time_events_and_host(const GpuWork& work, cudaStream_t stream) {
  LAB_CHECK(cudaStreamSynchronize(stream));
  EventVsHost t;
  lab::EventTimer events(stream);
  lab::HostTimer host;
  {
    auto scope = events.scope();
    work(stream);
  }
  LAB_CHECK(cudaStreamSynchronize(stream));
  t.host_ms = host.elapsed_ms();
  t.event_ms = events.elapsed_ms();
  return t;
}

std::vector<double> back_to_back_events_ms(cudaStream_t stream, int samples) {
  // Both events are queued behind a blocked stream, so the GPU meets them one
  // right after the other: the reading is the pair's own floor, not the time
  // the host took between the two cudaEventRecord calls.
  std::vector<double> readings;
  lab::Event first, second;
  lab::StreamBlocker blocker;
  for (int i = 0; i < samples; ++i) {
    blocker.block(stream);
    first.record(stream);
    second.record(stream);
    blocker.release();
    second.synchronize();
    if (blocker.timed_out()) throw std::runtime_error("back_to_back_events_ms: the blocked stream timed out");
    readings.push_back(lab::Event::elapsed_ms(first, second));
  }
  return readings;
}

double record_cost_us(unsigned flags, cudaStream_t stream, int count) {
  lab::Event event(flags);
  std::vector<double> costs;
  costs.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    lab::HostTimer timer;
    event.record(stream);
    costs.push_back(timer.elapsed_ms() * 1e3);
  }
  LAB_CHECK(cudaStreamSynchronize(stream));
  return lab::summarize(costs).median;
}

WaitCost wait_for_kernel(unsigned event_flags, double kernel_ms, cudaStream_t stream) {
  warm_up_spin(stream);
  lab::Event done(event_flags);
  lab::launch_spin(stream, kernel_ms);
  done.record(stream);
  WaitCost cost;
  const double cpu_before = thread_cpu_ms();
  lab::HostTimer wall;
  done.synchronize();
  cost.wall_ms = wall.elapsed_ms();
  cost.cpu_ms = thread_cpu_ms() - cpu_before;
  return cost;
}

FreeHost poll_while_kernel_runs(double kernel_ms, cudaStream_t stream) {
  warm_up_spin(stream);
  FreeHost free_host;
  lab::Event start, done;
  start.record(stream);
  lab::launch_spin(stream, kernel_ms);
  done.record(stream);
  lab::HostTimer host;
  // cudaEventQuery never blocks: it answers "done" or cudaErrorNotReady.
  while (!done.query()) {
    ++free_host.polls;
    free_host.work_iterations += ch02::cpu_work_slice();
  }
  free_host.host_ms = host.elapsed_ms();
  free_host.kernel_ms = lab::Event::elapsed_ms(start, done);
  return free_host;
}

Bracketing time_copy_and_kernel(ch01::AddProblem& add, int samples, cudaStream_t stream) {
  // The copy's source must be pinned: from pageable memory cudaMemcpyAsync
  // makes the host wait (chapter 02), and this lesson is about the GPU side.
  lab::PinnedBuffer<float> a_pinned(add.a_host().size());
  std::copy(add.a_host().begin(), add.a_host().end(), a_pinned.begin());
  auto copy_in = [&] {
    LAB_CHECK(cudaMemcpyAsync(add.a(), a_pinned.data(), a_pinned.bytes(), cudaMemcpyHostToDevice, stream));
  };
  // Warm up both, so module loading and first-touch costs stay out.
  copy_in();
  add.launch(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));

  Bracketing b;
  lab::EventTimer timer(stream);
  for (int i = 0; i < samples; ++i) {
    {
      auto scope = timer.scope();  // the events bracket the copy too
      copy_in();
      add.launch(stream);
    }
    b.copy_and_kernel_ms.push_back(timer.elapsed_ms());

    copy_in();
    {
      auto scope = timer.scope();  // the copy is queued before the start event
      add.launch(stream);
    }
    b.kernel_only_ms.push_back(timer.elapsed_ms());

    {
      auto scope = timer.scope();
      copy_in();
    }
    b.copy_only_ms.push_back(timer.elapsed_ms());
  }
  add.poison(stream);
  copy_in();
  add.launch(stream);
  b.result = add.check();
  return b;
}

ManyStreams time_many_streams(int streams, std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device) {
  std::vector<ch01::AddProblem> problems;
  std::vector<lab::Stream> stream_list;
  std::vector<lab::Event> begins, ends;
  for (int i = 0; i < streams; ++i) {
    problems.emplace_back(n, seed + 2 * static_cast<std::uint64_t>(i), device);
    stream_list.emplace_back();
    begins.emplace_back();
    ends.emplace_back();
  }
  ManyStreams m;
  lab::MeasureConfig config;
  config.samples = 10;
  m.one_kernel_ms =
      lab::summarize(lab::measure_ms([&](cudaStream_t s) { problems[0].launch(s); }, stream_list[0], config)).median;

  for (int i = 0; i < streams; ++i) problems[i].poison(stream_list[i]);
  LAB_CHECK(cudaDeviceSynchronize());
  lab::HostTimer host;
  for (int i = 0; i < streams; ++i) {
    begins[i].record(stream_list[i]);
    problems[i].launch(stream_list[i]);
    ends[i].record(stream_list[i]);
  }
  LAB_CHECK(cudaDeviceSynchronize());
  m.host_ms = host.elapsed_ms();

  // The first begin event is the one recorded first (stream 0); the whole
  // ends at the latest end event, whichever stream it is on.
  for (int i = 0; i < streams; ++i) {
    m.per_stream_ms.push_back(lab::Event::elapsed_ms(begins[i], ends[i]));
    m.first_begin_to_last_end_ms =
        std::max(m.first_begin_to_last_end_ms, static_cast<double>(lab::Event::elapsed_ms(begins[0], ends[i])));
  }
  for (const ch01::AddProblem& p : problems) m.results.push_back(p.check());
  return m;
}

}  // namespace ch03
