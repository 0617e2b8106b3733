// Chapter 03's lesson, one function per section of the chapter page.
//
// The CPU reference and the kernel are chapter 01's: ch01::AddProblem holds
// random a and b, the CPU's c (ch01::add_on_cpu) and launches
// add<<<grid, block, 0, stream>>>(a, b, c, n) on the stream it is given. The
// long kernel is lab::launch_spin: one thread that spins for a set time.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "add_kernels.cuh"
#include "check.cuh"
#include "checks.hpp"
#include "child_process.hpp"
#include "clock.cuh"
#include "cpu_work.hpp"
#include "cupti_timeline.cuh"
#include "events.cuh"
#include "l2_flush.cuh"
#include "memory.cuh"
#include "statistics.hpp"
#include "stream.cuh"
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

// Loads the spin kernel's module and leaves the stream idle, so no one-off cost lands in a timed region.
void warm_up_spin(cudaStream_t stream) {
  lab::launch_spin(stream, 0.01);
  LAB_CHECK(cudaStreamSynchronize(stream));
}

// Waits for the stop event, then reads the pair in microseconds.
double elapsed_us(const lab::Event& start, const lab::Event& stop) {
  LAB_CHECK(cudaEventSynchronize(stop));
  return static_cast<double>(lab::Event::elapsed_ms(start, stop)) * 1e3;
}

constexpr char kHeldTooLong[] =
    "the held stream timed out before its sample was queued (is a profiler serialising kernels?)";

}  // namespace

// --- 1. Events as a stopwatch --------------------------------------------------

StopwatchRun time_long_kernel(double kernel_ms, int samples, cudaStream_t stream) {
  StopwatchRun run;
  run.kernel_ms = kernel_ms;
  warm_up_spin(stream);
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  LAB_CHECK(cudaEventCreate(&start));
  LAB_CHECK(cudaEventCreate(&stop));
  try {
    // [snippet:stopwatch]
    for (int i = 0; i < samples; ++i) {
      lab::HostTimer host;                        // the stream is idle: nothing earlier can count
      LAB_CHECK(cudaEventRecord(start, stream));  // a marker in the stream, timestamped when the GPU reaches it
      lab::launch_spin(stream, kernel_ms);        // spin_kernel<<<1, 1, 0, stream>>>
      LAB_CHECK(cudaEventRecord(stop, stream));
      LAB_CHECK(cudaEventSynchronize(stop));  // the host waits until the GPU has passed the stop marker
      run.host_ms.push_back(host.elapsed_ms());
      float ms = 0.0f;
      LAB_CHECK(cudaEventElapsedTime(&ms, start, stop));
      run.event_ms.push_back(ms);
    }
    // [snippet:stopwatch]
  } catch (...) {
    cudaEventDestroy(start);  // already failing: the first error is the one reported
    cudaEventDestroy(stop);
    throw;
  }
  LAB_CHECK(cudaEventDestroy(start));
  LAB_CHECK(cudaEventDestroy(stop));
  return run;
}

// --- 2. What an event costs ----------------------------------------------------

EventCostRun measure_event_costs(int pairs, int records, cudaStream_t stream) {
  EventCostRun run;
  // Both events are queued behind a held stream, so the GPU meets them one
  // right after the other: the reading is the pair's own floor, not the time
  // the host took between the two cudaEventRecord calls.
  lab::StreamBlocker blocker;
  lab::Event first, second;
  for (int i = 0; i < pairs; ++i) {
    blocker.block(stream);
    LAB_CHECK(cudaEventRecord(first, stream));
    LAB_CHECK(cudaEventRecord(second, stream));
    blocker.release();
    run.empty_pair_us.push_back(elapsed_us(first, second));
    if (blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
  }
  // One cudaEventRecord, timed on the host, for each kind of event.
  for (unsigned flags : {cudaEventDefault, cudaEventDisableTiming}) {
    lab::Event event(flags);  // cudaEventCreateWithFlags(&event, flags)
    std::vector<double>& costs = flags == cudaEventDefault ? run.record_default_us : run.record_disable_timing_us;
    for (int i = 0; i < records; ++i) {
      lab::HostTimer host;
      LAB_CHECK(cudaEventRecord(event, stream));
      costs.push_back(host.elapsed_ms() * 1e3);
    }
    LAB_CHECK(cudaStreamSynchronize(stream));
  }
  return run;
}

// --- 3. Waiting: spin or sleep -------------------------------------------------

WaitCost wait_for_kernel(WaitCall call, unsigned event_flags, double kernel_ms, cudaStream_t stream) {
  warm_up_spin(stream);
  const bool on_event = call == WaitCall::event_synchronize;
  WaitCost cost;
  cudaEvent_t done = nullptr;
  if (on_event) LAB_CHECK(cudaEventCreateWithFlags(&done, event_flags));
  try {
    lab::launch_spin(stream, kernel_ms);
    if (on_event) LAB_CHECK(cudaEventRecord(done, stream));
    const double cpu_before = thread_cpu_ms();
    lab::HostTimer wall;
    switch (call) {
      case WaitCall::event_synchronize:
        // Spin or sleep: its page says the event's flag (cudaEventBlockingSync) decides.
        LAB_CHECK(cudaEventSynchronize(done));
        break;
      case WaitCall::stream_synchronize:
        // Its page says the device's scheduling flag (cudaDeviceScheduleBlockingSync) decides.
        LAB_CHECK(cudaStreamSynchronize(stream));
        break;
      case WaitCall::device_synchronize:
        // The same, for all the device's work in this process.
        LAB_CHECK(cudaDeviceSynchronize());
        break;
    }
    cost.wall_ms = wall.elapsed_ms();
    cost.cpu_ms = thread_cpu_ms() - cpu_before;
  } catch (...) {
    if (done != nullptr) cudaEventDestroy(done);
    throw;
  }
  if (done != nullptr) LAB_CHECK(cudaEventDestroy(done));
  return cost;
}

WaitCost wait_for_kernel(unsigned event_flags, double kernel_ms, cudaStream_t stream) {
  return wait_for_kernel(WaitCall::event_synchronize, event_flags, kernel_ms, stream);
}

std::string scheduling_flag_name(unsigned device_flags) {
  switch (device_flags & cudaDeviceScheduleMask) {
    case cudaDeviceScheduleAuto: return "cudaDeviceScheduleAuto";
    case cudaDeviceScheduleSpin: return "cudaDeviceScheduleSpin";
    case cudaDeviceScheduleYield: return "cudaDeviceScheduleYield";
    case cudaDeviceScheduleBlockingSync: return "cudaDeviceScheduleBlockingSync";
    default: return "scheduling flags " + std::to_string(device_flags & cudaDeviceScheduleMask);
  }
}

std::vector<WaitCase> wait_with_blocking_sync_flag(bool before_context, double kernel_ms,
                                                   const std::vector<WaitCall>& calls) {
  // cudaFree(nullptr) makes the runtime create this process's context, with the default flags.
  if (!before_context) LAB_CHECK(cudaFree(nullptr));
  // The device's scheduling flag: how every thread of this process waits for this device.
  const cudaError_t set = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
  if (set != cudaSuccess) (void)cudaGetLastError();  // the refusal is the result: report it, and go on
  unsigned flags = 0;
  LAB_CHECK(cudaGetDeviceFlags(&flags));
  lab::Stream stream;
  std::vector<WaitCase> cases;
  for (WaitCall call : calls) {
    WaitCase c;
    c.call = call;
    c.set_flags_result = cudaGetErrorName(set);
    c.device_flag = scheduling_flag_name(flags);
    c.cost = wait_for_kernel(call, cudaEventDefault, kernel_ms, stream);
    c.measured = true;
    cases.push_back(c);
  }
  return cases;
}

namespace {

// Runs ch03_wait_child for @p calls and reads back its line for each; a case
// it could not measure says why.
std::vector<WaitCase> wait_in_child(const std::string& program, bool before_context, double kernel_ms,
                                    const std::vector<WaitCall>& calls) {
  std::vector<std::string> arguments{before_context ? "before" : "after", lab::fixed(kernel_ms, 3)};
  for (WaitCall call : calls) arguments.push_back(wait_call_name(call));
  const lab::ChildOutput out = lab::run_child(program, arguments, 60.0);
  std::vector<WaitCase> cases;
  for (WaitCall call : calls) {
    WaitCase c;
    c.call = call;
    if (!out.error.empty()) {
      c.why_not = out.error;
    } else if (out.exit_code != 0 || !read_wait_case_line(out.text, call, c)) {
      c.why_not = lab::child_failure("ch03_wait_child", out);
    }
    cases.push_back(c);
  }
  return cases;
}

}  // namespace

std::string wait_child_program() { return lab::program_beside_this_one("ch03_wait_child"); }

WaitRun compare_waits(double kernel_ms, cudaStream_t stream, const std::string& child_program) {
  WaitRun run;
  run.kernel_ms = kernel_ms;
  run.logical_cores = std::thread::hardware_concurrency();
  unsigned flags = 0;
  LAB_CHECK(cudaGetDeviceFlags(&flags));  // this process's flags, never changed here

  run.default_event.cost = wait_for_kernel(WaitCall::event_synchronize, cudaEventDefault, kernel_ms, stream);
  run.blocking_event.cost = wait_for_kernel(WaitCall::event_synchronize, cudaEventBlockingSync, kernel_ms, stream);
  run.stream_sync.call = WaitCall::stream_synchronize;
  run.stream_sync.cost = wait_for_kernel(WaitCall::stream_synchronize, cudaEventDefault, kernel_ms, stream);
  run.device_sync.call = WaitCall::device_synchronize;
  run.device_sync.cost = wait_for_kernel(WaitCall::device_synchronize, cudaEventDefault, kernel_ms, stream);
  for (WaitCase* c : {&run.default_event, &run.blocking_event, &run.stream_sync, &run.device_sync}) {
    c->device_flag = scheduling_flag_name(flags);
    c->measured = true;
  }
  // The device flag is the process's: set in a fresh process, so this one's stays as it is.
  const std::vector<WaitCase> before =
      wait_in_child(child_program, true, kernel_ms,
                    {WaitCall::event_synchronize, WaitCall::stream_synchronize, WaitCall::device_synchronize});
  run.flag_before_context = before[0];
  run.flag_before_stream_sync = before[1];
  run.flag_before_device_sync = before[2];
  // Set once the context exists: does the new flag reach it? cudaStreamSynchronize tells, since
  // the flag is documented to govern it (a default event's wait may not move either way).
  const std::vector<WaitCase> after =
      wait_in_child(child_program, false, kernel_ms, {WaitCall::event_synchronize, WaitCall::stream_synchronize});
  run.flag_after_context = after[0];
  run.flag_after_stream_sync = after[1];
  return run;
}

// --- 4. The host stays free ----------------------------------------------------

FreeHostRun poll_while_kernel_runs(double kernel_ms, cudaStream_t stream) {
  warm_up_spin(stream);
  FreeHostRun run;
  lab::Event start, done;
  LAB_CHECK(cudaEventRecord(start, stream));
  lab::launch_spin(stream, kernel_ms);
  LAB_CHECK(cudaEventRecord(done, stream));
  lab::HostTimer host;
  for (;;) {
    const cudaError_t status = cudaEventQuery(done);  // answers at once: done, or cudaErrorNotReady
    if (status == cudaSuccess) break;
    if (status != cudaErrorNotReady) LAB_CHECK(status);
    ++run.polls;
    run.work_iterations += lab::cpu_work_slice();
  }
  run.host_ms = host.elapsed_ms();
  run.kernel_ms = elapsed_us(start, done) * 1e-3;
  return run;
}

// --- 5. Pitfall 1: what the events bracket ------------------------------------

BracketingRun time_copy_and_kernel(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device, int samples,
                                   cudaStream_t stream) {
  ch01::AddProblem add(n, seed, device);
  // The copy's source is pinned: from pageable memory cudaMemcpyAsync makes
  // the host wait (chapter 02), and this pitfall is about the GPU's side.
  lab::PinnedBuffer<float> source(static_cast<std::size_t>(n));
  std::fill(source.begin(), source.end(), 1.0f);
  lab::DeviceBuffer<float> destination(static_cast<std::size_t>(n));
  const std::size_t bytes = source.bytes();
  BracketingRun run;
  run.copy_mib = static_cast<double>(bytes) / (1 << 20);
  lab::Event start, stop;

  // Warm-up, so module loading and first-touch costs stay out of the samples.
  LAB_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyHostToDevice, stream));
  add.launch(stream);
  add.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  for (int i = 0; i < samples; ++i) {
    // The pitfall: the start event goes in before the copy, so the pair times the copy too.
    LAB_CHECK(cudaEventRecord(start, stream));
    LAB_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyHostToDevice, stream));
    add.launch(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    run.copy_and_kernel_us.push_back(elapsed_us(start, stop));

    // The fix: queue the copy first, then the start event. The pair still
    // reads more than the kernel alone (section 6 times it behind a held
    // stream and by CUPTI): it holds whatever passes before the kernel starts.
    LAB_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyHostToDevice, stream));
    LAB_CHECK(cudaEventRecord(start, stream));
    add.launch(stream);
    LAB_CHECK(cudaEventRecord(stop, stream));
    run.after_copy_us.push_back(elapsed_us(start, stop));

    // The copy alone.
    LAB_CHECK(cudaEventRecord(start, stream));
    LAB_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyHostToDevice, stream));
    LAB_CHECK(cudaEventRecord(stop, stream));
    run.copy_only_us.push_back(elapsed_us(start, stop));
  }
  run.result = add.check();  // c was poisoned before the loop
  return run;
}

// --- 6. Pitfall 2: the launch gap, against CUPTI -------------------------------

namespace {

// Before each method's loop: CUPTI recording (while it can); one untimed launch
// of the timed kernel and of the holding kernel, so that nothing the recording
// sets up at a first launch waits behind a held stream; then c poisoned, the stream idle.
void begin_loop(ch01::AddProblem& add, lab::StreamBlocker& blocker, lab::TimelineRecorder& recorder, bool& cupti,
                std::string& why, cudaStream_t stream) {
  if (cupti) cupti = recorder.start(&why);
  add.launch(stream);  // the recording's first kernel: end_loop takes the timed kernel's name from it
  blocker.block(stream);
  blocker.release();
  add.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
}

// After it: the events read, CUPTI's kernels of the same launches, c checked.
void end_loop(GapMethod& method, const std::vector<lab::Event>& start, const std::vector<lab::Event>& stop,
              ch01::AddProblem& add, lab::TimelineRecorder& recorder, bool cupti, const std::string& why) {
  for (std::size_t i = 0; i < start.size(); ++i) method.events_us.push_back(elapsed_us(start[i], stop[i]));
  if (!cupti) {
    method.cupti_missing = why;
  } else {
    std::vector<lab::Interval> kernels;
    for (const lab::Interval& work : recorder.stop()) {  // waits for the device first
      if (work.kind == lab::Interval::Kind::kernel) kernels.push_back(work);
    }
    std::sort(kernels.begin(), kernels.end(),
              [](const lab::Interval& x, const lab::Interval& y) { return x.start_ns < y.start_ns; });
    // The first is begin_loop's untimed launch; the loop's launches are the
    // later kernels of the same name (not the holding kernel, nor anything else).
    std::vector<double> durations;
    for (std::size_t i = 1; i < kernels.size(); ++i) {
      if (kernels[i].name == kernels.front().name)
        durations.push_back((kernels[i].end_ns - kernels[i].start_ns) * 1e-3);
    }
    if (durations.size() != start.size() || recorder.dropped() > 0) {
      method.cupti_missing = "CUPTI recorded " + std::to_string(durations.size()) + " timed kernels for " +
                             std::to_string(start.size()) + " launches (" + std::to_string(recorder.dropped()) +
                             " records dropped)";
    } else {
      method.cupti_us = durations;
    }
  }
  method.result = add.check();
}

}  // namespace

LaunchGapSize time_launch_gap(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device, int samples,
                              double empty_pair_us, cudaStream_t stream) {
  ch01::AddProblem add(n, seed, device);
  LaunchGapSize size;
  size.n = n;
  size.empty_pair_us = empty_pair_us;
  lab::StreamBlocker blocker;
  lab::L2Flusher flusher;
  size.l2_flush_bytes = flusher.bytes();
  lab::TimelineRecorder recorder;  // CUPTI: records every kernel's start and end, from outside the loops
  bool cupti = true;
  std::string why;
  std::vector<lab::Event> start(static_cast<std::size_t>(samples));
  std::vector<lab::Event> stop(static_cast<std::size_t>(samples));

  // Warm-up: every kernel is loaded before a stream is held (a module loaded
  // lazily behind a held stream would wait for it: nvbench issue #136).
  add.launch(stream);
  blocker.block(stream);
  blocker.release();
  flusher.flush(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  // In each loop below, begin_loop poisons c and starts CUPTI; end_loop reads
  // the events and CUPTI's kernel durations, and checks c.

  // Back to back: every sample queued, one wait at the end. Once the host is
  // ahead of the GPU the kernels run without gaps; the first may still wait.
  begin_loop(add, blocker, recorder, cupti, why, stream);
  for (int i = 0; i < samples; ++i) {
    LAB_CHECK(cudaEventRecord(start[i], stream));
    add.launch(stream);
    LAB_CHECK(cudaEventRecord(stop[i], stream));
  }
  end_loop(size.back_to_back, start, stop, add, recorder, cupti, why);

  // Isolated: the host waits after every sample, so each launch meets an idle
  // GPU, which timestamps the start event before the kernel has arrived.
  begin_loop(add, blocker, recorder, cupti, why, stream);
  for (int i = 0; i < samples; ++i) {
    LAB_CHECK(cudaEventRecord(start[i], stream));
    add.launch(stream);
    LAB_CHECK(cudaEventRecord(stop[i], stream));
    LAB_CHECK(cudaEventSynchronize(stop[i]));
  }
  end_loop(size.isolated, start, stop, add, recorder, cupti, why);

  // Blocked stream (nvbench): a kernel holds the stream while the sample is
  // queued; once released, the GPU meets start, kernel and stop back to back.
  begin_loop(add, blocker, recorder, cupti, why, stream);
  for (int i = 0; i < samples; ++i) {
    blocker.block(stream);
    LAB_CHECK(cudaEventRecord(start[i], stream));
    add.launch(stream);
    LAB_CHECK(cudaEventRecord(stop[i], stream));
    blocker.release();
    LAB_CHECK(cudaEventSynchronize(stop[i]));
    if (blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
  }
  end_loop(size.blocked, start, stop, add, recorder, cupti, why);

  // The same with a cold L2, in nvbench's order: flush, wait, hold, queue, release.
  begin_loop(add, blocker, recorder, cupti, why, stream);
  for (int i = 0; i < samples; ++i) {
    flusher.flush(stream);
    LAB_CHECK(cudaStreamSynchronize(stream));
    blocker.block(stream);
    LAB_CHECK(cudaEventRecord(start[i], stream));
    add.launch(stream);
    LAB_CHECK(cudaEventRecord(stop[i], stream));
    blocker.release();
    LAB_CHECK(cudaEventSynchronize(stop[i]));
    if (blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
  }
  end_loop(size.blocked_flushed, start, stop, add, recorder, cupti, why);
  return size;
}

LaunchGapRun time_launch_gap(std::int64_t n, std::int64_t n_large, std::uint64_t seed, const lab::DeviceInfo& device,
                             int samples, const EventCostRun& costs, cudaStream_t stream) {
  const double empty_pair_us = lab::median(costs.empty_pair_us);
  LaunchGapRun run{time_launch_gap(n, seed, device, samples, empty_pair_us, stream),
                   time_launch_gap(n_large, seed + 10, device, samples, empty_pair_us, stream)};
  run.small.option = "n";  // the option each size came from: the tables' ids
  run.large.option = "n_large";
  return run;
}

// --- 7. Timing many streams ----------------------------------------------------

ManyStreamsRun time_many_streams(int streams, std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device) {
  std::vector<ch01::AddProblem> problems;
  std::vector<lab::Stream> stream_list;
  for (int i = 0; i < streams; ++i) {
    problems.emplace_back(n, seed + 2 * static_cast<std::uint64_t>(i), device);
    stream_list.emplace_back();
  }
  std::vector<lab::Event> begin(static_cast<std::size_t>(streams));
  std::vector<lab::Event> end(static_cast<std::size_t>(streams));
  ManyStreamsRun run;

  // One kernel with the GPU to itself: ten back to back on the first stream, after a warm-up.
  constexpr int kAlone = 10;
  std::vector<lab::Event> alone_start(kAlone), alone_stop(kAlone);
  problems[0].launch(stream_list[0]);
  for (int i = 0; i < kAlone; ++i) {
    LAB_CHECK(cudaEventRecord(alone_start[i], stream_list[0]));
    problems[0].launch(stream_list[0]);
    LAB_CHECK(cudaEventRecord(alone_stop[i], stream_list[0]));
  }
  std::vector<double> alone_ms;
  for (int i = 0; i < kAlone; ++i) alone_ms.push_back(elapsed_us(alone_start[i], alone_stop[i]) * 1e-3);
  run.one_kernel_ms = lab::median(alone_ms);

  for (int i = 0; i < streams; ++i) problems[i].poison(stream_list[i]);
  LAB_CHECK(cudaDeviceSynchronize());
  lab::HostTimer host;
  for (int i = 0; i < streams; ++i) {
    LAB_CHECK(cudaEventRecord(begin[i], stream_list[i]));
    problems[i].launch(stream_list[i]);
    LAB_CHECK(cudaEventRecord(end[i], stream_list[i]));
  }
  LAB_CHECK(cudaDeviceSynchronize());
  run.host_ms = host.elapsed_ms();

  // The whole runs from the earliest begin event to the latest end event,
  // whichever streams they are on. The order of issue promises no order on the
  // GPU across streams, so begin[0] need not be the earliest: every event is
  // read against begin[0], and one timestamped before it reads negative.
  std::vector<double> begins_ms, ends_ms;
  for (int i = 0; i < streams; ++i) {
    run.per_stream_ms.push_back(elapsed_us(begin[i], end[i]) * 1e-3);
    begins_ms.push_back(elapsed_us(begin[0], begin[i]) * 1e-3);
    ends_ms.push_back(elapsed_us(begin[0], end[i]) * 1e-3);
  }
  run.earliest_begin_to_latest_end_ms = lab::span_ms(begins_ms, ends_ms);
  for (const ch01::AddProblem& p : problems) run.results.push_back(p.check());
  return run;
}

// --- 8. Pitfall 3: events on another stream -----------------------------------

WrongStreamRun time_on_wrong_stream(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device, int samples) {
  ch01::AddProblem add(n, seed, device);
  // Two streams that never wait for each other, nor for the legacy stream 0:
  // a library's stream and a benchmark's timer stream are often two such.
  cudaStream_t work = nullptr;
  cudaStream_t other = nullptr;
  LAB_CHECK(cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking));
  LAB_CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  lab::Event start, stop;                // to be recorded on the work's stream: the right pair
  lab::Event other_start, other_stop;    // to be recorded on the other stream: the mistake
  lab::Event joined_start, joined_stop;  // on the other stream too, ordered both ways against the work: the fix
  WrongStreamRun run;
  run.n = n;
  try {
    add.launch(work);  // warm-up; then c poisoned, so an unwritten element shows
    add.poison(work);
    LAB_CHECK(cudaStreamSynchronize(work));
    for (int i = 0; i < samples; ++i) {
      lab::HostTimer host;  // the check: the host's clock around the same work, to its end
      // The fix when the timer's stream is not the work's: order both ends.
      // Fork: the work's stream waits for the timer's start before the work.
      LAB_CHECK(cudaEventRecord(joined_start, other));
      LAB_CHECK(cudaStreamWaitEvent(work, joined_start, 0));
      LAB_CHECK(cudaEventRecord(other_start, other));  // after the fork: ordered against nothing on work
      LAB_CHECK(cudaEventRecord(start, work));
      add.launch(work);  // add<<<grid, block, 0, work>>>
      LAB_CHECK(cudaEventRecord(stop, work));
      LAB_CHECK(cudaEventRecord(other_stop, other));  // nothing ahead of it on other: it completes at once
      // Join: the timer's stream waits for the work's stop event, then records its own stop.
      LAB_CHECK(cudaStreamWaitEvent(other, stop, 0));
      LAB_CHECK(cudaEventRecord(joined_stop, other));
      // What a timer on the wrong stream does: wait for its own stop event
      // (which does not wait for the work), then read its pair.
      LAB_CHECK(cudaEventSynchronize(other_stop));
      float ms = 0.0f;
      LAB_CHECK(cudaEventElapsedTime(&ms, other_start, other_stop));
      run.other_stream_us.push_back(ms * 1e3);
      // Had the work ended by then? Its own stop event answers at once.
      const cudaError_t ended = cudaEventQuery(stop);
      if (ended == cudaErrorNotReady) {
        ++run.unfinished;
      } else {
        LAB_CHECK(ended);
      }
      LAB_CHECK(cudaStreamSynchronize(work));  // the work's own stream: now the work has ended
      run.host_us.push_back(host.elapsed_ms() * 1e3);
      LAB_CHECK(cudaEventElapsedTime(&ms, start, stop));
      run.own_stream_us.push_back(ms * 1e3);
      LAB_CHECK(cudaEventSynchronize(joined_stop));  // other's last event: it may complete just after stop
      LAB_CHECK(cudaEventElapsedTime(&ms, joined_start, joined_stop));
      run.joined_us.push_back(ms * 1e3);
    }
  } catch (...) {
    cudaStreamDestroy(work);  // already failing: the first error is the one reported
    cudaStreamDestroy(other);
    throw;
  }
  LAB_CHECK(cudaStreamDestroy(work));
  LAB_CHECK(cudaStreamDestroy(other));
  run.result = add.check();  // c was poisoned before the loop
  return run;
}

}  // namespace ch03
