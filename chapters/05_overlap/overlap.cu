// Chapter 05's lesson, in the order of the chapter page: the CPU reference, the
// kernel, async.cu's schedules and the sweep, the copies and kernels alone
// (section 1), the work-queue test (section 3) and the CUPTI recording (section 4).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "check.cuh"
#include "child_output.hpp"
#include "child_process.hpp"
#include "clock.cuh"
#include "cupti_timeline.cuh"
#include "overlap.cuh"
#include "statistics.hpp"

namespace ch05 {

// --- the CPU reference and the kernel ---------------------------------------------

std::vector<float> transform_on_cpu(const std::vector<float>& input, int iterations) {
  std::vector<float> result(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) result[i] = static_cast<float>(double{input[i]} + iterations);
  return result;
}

__global__ void transform(float* data, std::size_t count, int iterations) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    float v = data[i];
    for (int step = 0; step < iterations; ++step) {
      float s, c;
      sincosf(v, &s, &c);
      v = v + sqrtf(s * s + c * c);
    }
    data[i] = v;
  }
}

unsigned grid_for(std::size_t count) {
  return static_cast<unsigned>(std::clamp<std::size_t>((count + kBlock - 1) / kBlock, 1, 8192));
}

OverlapProblem::OverlapProblem(std::size_t n, std::uint64_t seed)
    : n_(n), input_(n), output_(n), data_(n), scratch_(n), values_(lab::random_floats(n, seed)) {
  std::copy(values_.begin(), values_.end(), input_.begin());
  poison_output();
  // The device array starts as the input: the link measurements copy it out and run the
  // kernel over it before any schedule has copied anything in, and reading memory nothing
  // wrote is a bug (compute-sanitizer's initcheck reports it) even when only its time counts.
  data_.upload(values_);
}

OverlapProblem::OverlapProblem(const Options& o) : OverlapProblem(floats(o), static_cast<std::uint64_t>(o.seed)) {}

void OverlapProblem::poison_output() { std::memset(output_.data(), 0xFF, output_.bytes()); }

lab::Comparison OverlapProblem::check(int iterations) const {
  auto reference = references_.find(iterations);
  if (reference == references_.end()) {
    reference = references_.emplace(iterations, transform_on_cpu(values_, iterations)).first;
  }
  const std::vector<float> actual(output_.data(), output_.data() + n_);
  return lab::compare(actual, reference->second, 5e-7 * iterations, 1.2e-7 * iterations);
}

// --- 2. the schedules: async.cu's three versions ------------------------------------

// [snippet:schedules]
void queue_sequential(OverlapProblem& problem, cudaStream_t stream, int steps) {
  const std::size_t n = problem.size();
  float* d_a = problem.device_data();
  LAB_CHECK(cudaMemcpyAsync(d_a, problem.host_input(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
  transform<<<grid_for(n), kBlock, 0, stream>>>(d_a, n, steps);
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaMemcpyAsync(problem.host_output(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
}

void queue_v1(OverlapProblem& problem, const std::vector<cudaStream_t>& stream, int steps) {
  // async.cu's streamSize and streamBytes: equal chunks (time_schedule checks that they divide the data).
  const std::size_t chunk = problem.size() / stream.size(), chunk_bytes = chunk * sizeof(float);
  const float* a = problem.host_input();
  float *d_a = problem.device_data(), *out = problem.host_output();
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::size_t offset = i * chunk;
    LAB_CHECK(cudaMemcpyAsync(&d_a[offset], &a[offset], chunk_bytes, cudaMemcpyHostToDevice, stream[i]));
    transform<<<grid_for(chunk), kBlock, 0, stream[i]>>>(&d_a[offset], chunk, steps);
    LAB_CHECK_LAUNCH();
    LAB_CHECK(cudaMemcpyAsync(&out[offset], &d_a[offset], chunk_bytes, cudaMemcpyDeviceToHost, stream[i]));
  }
}

void queue_v2(OverlapProblem& problem, const std::vector<cudaStream_t>& stream, int steps) {
  const std::size_t chunk = problem.size() / stream.size(), chunk_bytes = chunk * sizeof(float);
  const float* a = problem.host_input();
  float *d_a = problem.device_data(), *out = problem.host_output();
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::size_t offset = i * chunk;
    LAB_CHECK(cudaMemcpyAsync(&d_a[offset], &a[offset], chunk_bytes, cudaMemcpyHostToDevice, stream[i]));
  }
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::size_t offset = i * chunk;
    transform<<<grid_for(chunk), kBlock, 0, stream[i]>>>(&d_a[offset], chunk, steps);
    LAB_CHECK_LAUNCH();
  }
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const std::size_t offset = i * chunk;
    LAB_CHECK(cudaMemcpyAsync(&out[offset], &d_a[offset], chunk_bytes, cudaMemcpyDeviceToHost, stream[i]));
  }
}
// [snippet:schedules]

// Warm-up and repetition, outside the schedules: each run between two events on the legacy
// default stream, which waits for every blocking stream and they for it (async.cu's method).
ScheduleRun time_schedule(OverlapProblem& problem, Schedule schedule, const std::vector<cudaStream_t>& stream,
                          int steps, int warmups, int reps) {
  if (stream.empty() || problem.size() % stream.size() != 0) {
    throw std::invalid_argument("time_schedule: the chunks (one per stream) must divide the data");
  }
  ScheduleRun run;
  lab::Event start, stop;
  for (int r = -warmups; r < reps; ++r) {
    if (r == reps - 1) problem.poison_output();  // the last run's output is checked
    LAB_CHECK(cudaDeviceSynchronize());
    LAB_CHECK(cudaEventRecord(start, 0));
    if (schedule == Schedule::sequential) queue_sequential(problem, stream[0], steps);
    if (schedule == Schedule::v1_per_chunk) queue_v1(problem, stream, steps);
    if (schedule == Schedule::v2_per_stage) queue_v2(problem, stream, steps);
    LAB_CHECK(cudaEventRecord(stop, 0));
    LAB_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    LAB_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0) run.samples_ms.push_back(ms);
  }
  run.result = problem.check(steps);
  return run;
}

std::vector<cudaStream_t> handles(const std::vector<lab::Stream>& streams) {
  return std::vector<cudaStream_t>(streams.begin(), streams.end());
}

SweepRun sweep_schedules(OverlapProblem& problem, const Options& o, LinkRun& link) {
  SweepRun sweep;
  const char* connections = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  sweep.connections = connections != nullptr ? connections : "";
  auto add_row = [&](const std::string& kernel, int steps, Schedule schedule, int chunks) {
    const std::vector<lab::Stream> stream(static_cast<std::size_t>(chunks));  // made outside the events
    ScheduleRun run = time_schedule(problem, schedule, handles(stream), steps, 1, static_cast<int>(o.reps));
    sweep.rows.push_back({kernel, schedule, chunks, std::move(run.samples_ms), std::move(run.result)});
  };
  auto add_rows = [&](const std::string& kernel, int steps) {
    add_row(kernel, steps, Schedule::sequential, 1);
    for (int chunks : chunk_counts(o)) {
      add_row(kernel, steps, Schedule::v1_per_chunk, chunks);
      add_row(kernel, steps, Schedule::v2_per_stage, chunks);
    }
  };
  add_rows("light", 1);
  add_rows("heavy", link.heavy_steps);
  sample_link_and_kernels(problem, static_cast<int>(o.reps), link);  // the link again, after the sweep
  return sweep;
}

// --- 1. the link and the kernels alone ---------------------------------------------

namespace {

// What section 1 times alone: all the data copied in, out, or both at once (each direction
// on a stream of its own), or the kernel of `steps` steps over all of it (0: no kernel).
struct Alone {
  bool copy_in = false, copy_out = false;
  int steps = 0;
};

// One warm-up, then `reps` samples, each by itself (the host waits after it) between two
// events on the legacy default stream, which waits for the blocking streams and they for it,
// as time_schedule() takes its samples.
std::vector<double> time_alone(OverlapProblem& problem, Alone alone, int reps) {
  const std::size_t n = problem.size();
  const lab::Stream in, out, kernel;
  lab::Event start, stop;
  std::vector<double> samples_ms;
  for (int r = -1; r < reps; ++r) {
    LAB_CHECK(cudaDeviceSynchronize());
    LAB_CHECK(cudaEventRecord(start, 0));
    if (alone.copy_in) {
      LAB_CHECK(cudaMemcpyAsync(problem.device_scratch(), problem.host_input(), n * sizeof(float),
                                cudaMemcpyHostToDevice, in));
    }
    if (alone.copy_out) {
      LAB_CHECK(cudaMemcpyAsync(problem.host_output(), problem.device_data(), n * sizeof(float), cudaMemcpyDeviceToHost,
                                out));
    }
    if (alone.steps > 0) {
      transform<<<grid_for(n), kBlock, 0, kernel>>>(problem.device_data(), n, alone.steps);
      LAB_CHECK_LAUNCH();
    }
    LAB_CHECK(cudaEventRecord(stop, 0));
    LAB_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    LAB_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0) samples_ms.push_back(ms);
  }
  return samples_ms;
}

void append(std::vector<double>& to, const std::vector<double>& samples) {
  to.insert(to.end(), samples.begin(), samples.end());
}

}  // namespace

void sample_link_and_kernels(OverlapProblem& problem, int reps, LinkRun& link) {
  link.bytes = problem.bytes();
  append(link.h2d_ms, time_alone(problem, {true, false, 0}, reps));
  append(link.d2h_ms, time_alone(problem, {false, true, 0}, reps));
  append(link.both_ms, time_alone(problem, {true, true, 0}, reps));
  append(link.light_ms, time_alone(problem, {false, false, 1}, reps));
  append(link.heavy_ms, time_alone(problem, {false, false, link.heavy_steps}, reps));
}

LinkRun measure_link(OverlapProblem& problem, int copy_engines, const Options& o) {
  LinkRun link;
  link.copy_engines = copy_engines;
  link.heavy_steps = static_cast<int>(o.heavy_iterations);
  link.heavy_calibrated = link.heavy_steps < 1;
  if (link.heavy_calibrated) {  // as long as the copy in (the median of three samples of it)
    link.heavy_steps = calibrate_iterations(problem, lab::median(time_alone(problem, {true, false, 0}, 3)));
  }
  sample_link_and_kernels(problem, static_cast<int>(o.reps), link);
  return link;
}

int calibrate_iterations(OverlapProblem& problem, double target_ms) {
  constexpr int kProbe = 16;
  const double probe_ms = lab::median(time_alone(problem, {false, false, kProbe}, 3));
  return std::clamp(static_cast<int>(std::lround(kProbe * target_ms / probe_ms)), 1, 100000);
}

// --- 3. the hardware's work queues --------------------------------------------------

StreamOrder time_stream_orders(int streams, double spin_ms, int reps) {
  StreamOrder order;
  order.streams = streams;
  std::vector<lab::Stream> stream(static_cast<std::size_t>(streams));  // blocking streams, made once
  lab::Event start, stop;
  for (bool depth_first : {true, false}) {
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up (loads the spin kernel)
      LAB_CHECK(cudaDeviceSynchronize());
      LAB_CHECK(cudaEventRecord(start, 0));  // the legacy default stream brackets the blocking streams
      if (depth_first) {                     // stream by stream: a, b on stream 0, then a, b on stream 1, ...
        for (int i = 0; i < streams; ++i) {
          lab::launch_spin(stream[i], spin_ms);
          lab::launch_spin(stream[i], spin_ms);
        }
      } else {  // kernel by kernel: every stream's a, then every stream's b
        for (int i = 0; i < streams; ++i) lab::launch_spin(stream[i], spin_ms);
        for (int i = 0; i < streams; ++i) lab::launch_spin(stream[i], spin_ms);
      }
      LAB_CHECK(cudaEventRecord(stop, 0));
      LAB_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      LAB_CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (r >= 0) (depth_first ? order.depth_first_ms : order.breadth_first_ms).push_back(ms);
    }
  }
  return order;
}

namespace {

constexpr double kSpinMs = 2.0;  // long enough that a launch (a few us) does not count

}  // namespace

std::string measure_queues_as_text(int mib, int reps) {
  QueueChild child;
  const char* seen = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  child.seen = seen != nullptr ? seen : "";
  OverlapProblem problem(static_cast<std::size_t>(mib) * (std::size_t{1} << 20) / sizeof(float), 21);
  for (int chunks : {4, 8}) {
    const std::vector<lab::Stream> stream(static_cast<std::size_t>(chunks));
    const ScheduleRun v1 = time_schedule(problem, Schedule::v1_per_chunk, handles(stream), 1, 1, reps);
    const ScheduleRun v2 = time_schedule(problem, Schedule::v2_per_stage, handles(stream), 1, 1, reps);
    child.schedules.push_back({chunks, v1.samples_ms, v2.samples_ms, v1.result.passed() && v2.result.passed()});
  }
  child.spin_ms = kSpinMs;
  for (int streams : {4, 8, 16, 32}) child.orders.push_back(time_stream_orders(streams, kSpinMs, reps));
  return child_output_text(child);
}

QueueRun measure_queues(const Options& o, bool instrumented) {
  if (!instrumented) {
    return compare_connections(queue_child_program(), {"1", "2", "", "32"}, static_cast<int>(o.queue_mib),
                               static_cast<int>(o.reps));
  }
  QueueRun skipped;
  skipped.skipped =
      "an instrumented run (compute-sanitizer or a profiler) starts no child process: the tool "
      "would follow it, and its times would measure the tool";
  return skipped;
}

std::string queue_child_program() { return lab::program_beside_this_one("ch05_queue_child"); }

QueueRun compare_connections(const std::string& child_program, const std::vector<std::string>& asked, int mib,
                             int reps) {
  QueueRun run;
  run.mib = mib;
  for (const std::string& value : asked) {
    QueueChild child;
    child.asked = value;
    // The variable as asked, or removed ("": the driver's default); the child
    // creates its context with it.
    const std::string variable = "CUDA_DEVICE_MAX_CONNECTIONS" + (value.empty() ? "" : "=" + value);
    const lab::ChildOutput out =
        lab::run_child(child_program, {std::to_string(mib), std::to_string(reps)}, 120.0, {variable});
    if (!out.error.empty() || out.exit_code != 0) {
      child.why_not = lab::child_failure("ch05_queue_child", out, 300);
    } else {
      read_child_output(out.text, child);
    }
    run.children.push_back(child);
  }
  return run;
}

// --- 4. the schedules as CUPTI recorded them ----------------------------------------

RecordedSchedule record_schedule(OverlapProblem& problem, Schedule schedule, int chunks) {
  RecordedSchedule run;
  run.schedule = schedule;
  run.chunks = schedule == Schedule::sequential ? 1 : chunks;
  const std::vector<lab::Stream> stream(static_cast<std::size_t>(run.chunks));
  LAB_CHECK(cudaDeviceSynchronize());
  lab::TimelineRecorder recorder;  // CUPTI records from outside the schedule's loops
  run.recorded = recorder.start(&run.why_not);
  if (run.recorded) {
    for (int c = 0; c < run.chunks; ++c) recorder.name_stream(stream[c], "stream " + std::to_string(c));
  }
  run.result = time_schedule(problem, schedule, handles(stream), 1, 0, 1).result;
  if (run.recorded) {
    run.work = recorder.stop();
    if (recorder.dropped() > 0) {
      run.recorded = false;
      run.why_not = "CUPTI dropped " + std::to_string(recorder.dropped()) + " records";
    }
  }
  return run;
}

std::vector<RecordedSchedule> record_schedules(OverlapProblem& problem, const Options& o,
                                               lab::TimelineSession& timeline) {
  std::vector<RecordedSchedule> runs;
  for (Schedule schedule : {Schedule::sequential, Schedule::v1_per_chunk, Schedule::v2_per_stage}) {
    runs.push_back(record_schedule(problem, schedule, static_cast<int>(o.chart_chunks)));
    if (!timeline.wanted()) continue;  // --timeline / --trace: one more run, charted
    const int chunks = runs.back().chunks;
    const std::vector<lab::Stream> stream(static_cast<std::size_t>(chunks));
    timeline.begin(std::string(schedule_name(schedule)) + ", light kernel, " + std::to_string(chunks) + " chunk(s)");
    for (int c = 0; c < chunks; ++c) timeline.name_stream(stream[c], "stream " + std::to_string(c));
    time_schedule(problem, schedule, handles(stream), 1, 0, 1);
    timeline.end();
  }
  return runs;
}

}  // namespace ch05
