// Chapter 05's lesson, in the order of the chapter page: the CPU reference, the
// kernel, the pipeline and async.cu's schedules, the code that times them, the
// work-queue test (section 3) and the CUPTI recording (section 4).
#include "overlap.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "check.cuh"
#include "child_process.hpp"
#include "clock.cuh"
#include "cupti_timeline.cuh"
#include "measure.cuh"
#include "statistics.hpp"

namespace ch05 {

// --- the CPU reference and the kernel ---------------------------------------------

std::vector<float> transform_on_cpu(const std::vector<float>& input, int iterations) {
  std::vector<float> result(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) result[i] = static_cast<float>(double{input[i]} + iterations);
  return result;
}

namespace {

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

}  // namespace

void launch_transform(float* data, std::size_t count, int iterations, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 8192));
  transform<<<blocks, 256, 0, stream>>>(data, count, iterations);
  LAB_CHECK_LAUNCH();
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

void OverlapProblem::poison_output() { std::memset(output_.data(), 0xFF, output_.bytes()); }

lab::Comparison OverlapProblem::check(int iterations) const {
  auto reference = references_.find(iterations);
  if (reference == references_.end()) {
    reference = references_.emplace(iterations, transform_on_cpu(values_, iterations)).first;
  }
  const std::vector<float> actual(output_.data(), output_.data() + n_);
  return lab::compare(actual, reference->second, 5e-7 * iterations, 1.2e-7 * iterations);
}

// --- the pipeline and the schedules ------------------------------------------------

Pipeline::Pipeline(OverlapProblem& problem, int chunks, int iterations)
    : problem_(problem),
      iterations_(iterations),
      chunk_((problem.size() + static_cast<std::size_t>(std::max(chunks, 1)) - 1) /
             static_cast<std::size_t>(std::max(chunks, 1))),
      streams_(static_cast<std::size_t>(std::max(chunks, 1))) {
  if (chunks < 1 || problem.size() / static_cast<std::size_t>(chunks) < 1) {
    throw std::invalid_argument("Pipeline: every chunk needs at least one element");
  }
}

std::size_t Pipeline::offset(int chunk) const { return static_cast<std::size_t>(chunk) * chunk_; }

std::size_t Pipeline::count(int chunk) const {
  return std::min(problem_.size(), offset(chunk) + chunk_) - std::min(problem_.size(), offset(chunk));
}

void Pipeline::copy_in(int chunk) {
  LAB_CHECK(cudaMemcpyAsync(problem_.device_data() + offset(chunk), problem_.host_input() + offset(chunk),
                            count(chunk) * sizeof(float), cudaMemcpyHostToDevice, stream(chunk)));
  log_.push_back("in " + std::to_string(chunk));
}

void Pipeline::run_kernel(int chunk) {
  if (count(chunk) > 0) launch_transform(problem_.device_data() + offset(chunk), count(chunk), iterations_, stream(chunk));
  log_.push_back("kernel " + std::to_string(chunk));
}

void Pipeline::copy_out(int chunk) {
  LAB_CHECK(cudaMemcpyAsync(problem_.host_output() + offset(chunk), problem_.device_data() + offset(chunk),
                            count(chunk) * sizeof(float), cudaMemcpyDeviceToHost, stream(chunk)));
  log_.push_back("out " + std::to_string(chunk));
}

void enqueue_v1(Pipeline& pipeline) {
  for (int i = 0; i < pipeline.chunks(); ++i) {
    pipeline.copy_in(i);
    pipeline.run_kernel(i);
    pipeline.copy_out(i);
  }
}

void enqueue_v2(Pipeline& pipeline) {
  for (int i = 0; i < pipeline.chunks(); ++i) pipeline.copy_in(i);
  for (int i = 0; i < pipeline.chunks(); ++i) pipeline.run_kernel(i);
  for (int i = 0; i < pipeline.chunks(); ++i) pipeline.copy_out(i);
}

void enqueue(Schedule schedule, Pipeline& pipeline) {
  if (schedule == Schedule::v2_per_stage) {
    enqueue_v2(pipeline);
  } else {
    enqueue_v1(pipeline);  // sequential: one chunk, so V1 is copy all in, kernel, copy all out
  }
}

// --- timing the schedules -------------------------------------------------------------

namespace {

int chunks_of(Schedule schedule, int chunks) { return schedule == Schedule::sequential ? 1 : chunks; }

}  // namespace

ScheduleRun time_schedule(OverlapProblem& problem, Schedule schedule, int chunks, int iterations, int reps) {
  ScheduleRun run;
  lab::Event start, stop;
  for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
    if (r == reps - 1) problem.poison_output();
    Pipeline pipeline(problem, chunks_of(schedule, chunks), iterations);  // streams made outside the events
    LAB_CHECK(cudaDeviceSynchronize());
    start.record(0);  // the legacy default stream: waits for all blocking streams, and they for it
    enqueue(schedule, pipeline);
    stop.record(0);
    stop.synchronize();
    if (r >= 0) run.samples_ms.push_back(lab::Event::elapsed_ms(start, stop));
  }
  run.result = problem.check(iterations);
  return run;
}

std::vector<ScheduleRow> sweep(OverlapProblem& problem, const std::string& kernel, int steps,
                               const std::vector<int>& chunk_counts, int reps) {
  std::vector<ScheduleRow> rows;
  auto run = [&](Schedule schedule, int chunks) {
    ScheduleRun r = time_schedule(problem, schedule, chunks, steps, reps);
    rows.push_back({kernel, schedule, chunks, std::move(r.samples_ms), std::move(r.result)});
  };
  run(Schedule::sequential, 1);
  for (int chunks : chunk_counts) {
    run(Schedule::v1_per_chunk, chunks);
    run(Schedule::v2_per_stage, chunks);
  }
  return rows;
}

// --- the link and the kernels alone ----------------------------------------------------

namespace {

// `reps` samples from the project's measuring routine: one warm-up, then each
// sample alone (the host waits after it), as time_schedule() does. Timed on
// `stream`; the legacy default stream (0) brackets work queued on any blocking stream.
std::vector<double> samples_ms(int reps, cudaStream_t stream, const std::function<void(cudaStream_t)>& work) {
  lab::MeasureConfig config;
  config.warmup = 1;
  config.samples = reps;
  config.mode = lab::SampleMode::isolated;
  return lab::measure_ms(work, stream, config);
}

void append(std::vector<double>& to, const std::vector<double>& samples) {
  to.insert(to.end(), samples.begin(), samples.end());
}

}  // namespace

void sample_link_and_kernels(OverlapProblem& problem, int reps, LinkRun& link) {
  lab::Stream in, out, kernel;
  const std::size_t bytes = problem.size() * sizeof(float);
  auto copy_in = [&](cudaStream_t) {
    LAB_CHECK(cudaMemcpyAsync(problem.device_scratch(), problem.host_input(), bytes, cudaMemcpyHostToDevice, in));
  };
  auto copy_out = [&](cudaStream_t) {
    LAB_CHECK(cudaMemcpyAsync(problem.host_output(), problem.device_data(), bytes, cudaMemcpyDeviceToHost, out));
  };
  link.bytes = problem.bytes();
  // The copies run on their own streams; events on the legacy default stream bracket them.
  append(link.h2d_ms, samples_ms(reps, 0, copy_in));
  append(link.d2h_ms, samples_ms(reps, 0, copy_out));
  append(link.both_ms, samples_ms(reps, 0, [&](cudaStream_t legacy) {
           copy_in(legacy);
           copy_out(legacy);
         }));
  auto kernel_of = [&](int steps) {
    return [&problem, steps](cudaStream_t s) { launch_transform(problem.device_data(), problem.size(), steps, s); };
  };
  append(link.light_ms, samples_ms(reps, kernel, kernel_of(1)));
  append(link.heavy_ms, samples_ms(reps, kernel, kernel_of(link.heavy_steps)));
}

LinkRun measure_link(OverlapProblem& problem, int copy_engines, int heavy_steps, int reps) {
  LinkRun link;
  link.copy_engines = copy_engines;
  link.heavy_calibrated = heavy_steps < 1;
  if (link.heavy_calibrated) {  // as long as the copy in (three samples of it)
    lab::Stream in;
    const double h2d_ms = lab::median(samples_ms(3, 0, [&](cudaStream_t) {
      LAB_CHECK(cudaMemcpyAsync(problem.device_scratch(), problem.host_input(), problem.size() * sizeof(float),
                                cudaMemcpyHostToDevice, in));
    }));
    heavy_steps = calibrate_iterations(problem, h2d_ms);
  }
  link.heavy_steps = heavy_steps;
  sample_link_and_kernels(problem, reps, link);
  return link;
}

int calibrate_iterations(OverlapProblem& problem, double target_ms) {
  constexpr int kProbe = 16;
  lab::Stream stream;
  const double probe_ms = lab::median(samples_ms(
      3, stream, [&](cudaStream_t s) { launch_transform(problem.device_data(), problem.size(), kProbe, s); }));
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
      start.record(0);  // the legacy default stream brackets the blocking streams
      if (depth_first) {  // stream by stream: a, b on stream 0, then a, b on stream 1, ...
        for (int i = 0; i < streams; ++i) {
          lab::launch_spin(stream[i], spin_ms);
          lab::launch_spin(stream[i], spin_ms);
        }
      } else {  // kernel by kernel: every stream's a, then every stream's b
        for (int i = 0; i < streams; ++i) lab::launch_spin(stream[i], spin_ms);
        for (int i = 0; i < streams; ++i) lab::launch_spin(stream[i], spin_ms);
      }
      stop.record(0);
      stop.synchronize();
      if (r >= 0) (depth_first ? order.depth_first_ms : order.breadth_first_ms).push_back(lab::Event::elapsed_ms(start, stop));
    }
  }
  return order;
}

namespace {

std::string joined(const std::vector<double>& values) {
  std::string text;
  for (double v : values) text += (text.empty() ? "" : ",") + lab::fixed(v, 4);
  return text;
}

constexpr double kSpinMs = 2.0;  // long enough that a launch (a few us) does not count

}  // namespace

std::string measure_queues_as_text(int mib, int reps) {
  std::ostringstream out;
  const char* seen = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  out << "connections " << (seen != nullptr && *seen != '\0' ? seen : "unset") << "\n";
  OverlapProblem problem(static_cast<std::size_t>(mib) * (std::size_t{1} << 20) / sizeof(float), 21);
  for (int chunks : {4, 8}) {
    const ScheduleRun v1 = time_schedule(problem, Schedule::v1_per_chunk, chunks, 1, reps);
    const ScheduleRun v2 = time_schedule(problem, Schedule::v2_per_stage, chunks, 1, reps);
    out << "schedules " << chunks << " " << (v1.result.passed() && v2.result.passed() ? 1 : 0) << " "
        << joined(v1.samples_ms) << " " << joined(v2.samples_ms) << "\n";
  }
  out << "spin " << lab::fixed(kSpinMs, 3) << "\n";
  for (int streams : {4, 8, 16, 32}) {
    const StreamOrder order = time_stream_orders(streams, kSpinMs, reps);
    out << "orders " << streams << " " << joined(order.depth_first_ms) << " " << joined(order.breadth_first_ms)
        << "\n";
  }
  out << "done\n";
  return out.str();
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
    if (!out.error.empty()) {
      child.why_not = out.error;
    } else if (out.exit_code != 0) {
      std::string text = out.text;
      while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
      child.why_not = "ch05_queue_child exited with code " + std::to_string(out.exit_code) +
                      (text.empty() ? "" : ": " + text.substr(text.size() > 300 ? text.size() - 300 : 0));
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
  run.chunks = chunks_of(schedule, chunks);
  Pipeline pipeline(problem, run.chunks, 1);
  problem.poison_output();
  LAB_CHECK(cudaDeviceSynchronize());
  lab::TimelineRecorder recorder;  // CUPTI records from outside the schedule's loops
  run.recorded = recorder.start(&run.why_not);
  if (run.recorded) {
    for (int c = 0; c < pipeline.chunks(); ++c) recorder.name_stream(pipeline.stream(c), "stream " + std::to_string(c));
  }
  enqueue(schedule, pipeline);
  LAB_CHECK(cudaDeviceSynchronize());
  if (run.recorded) {
    run.work = recorder.stop();
    if (recorder.dropped() > 0) {
      run.recorded = false;
      run.why_not = "CUPTI dropped " + std::to_string(recorder.dropped()) + " records";
    }
  }
  run.result = problem.check(1);
  return run;
}

}  // namespace ch05
