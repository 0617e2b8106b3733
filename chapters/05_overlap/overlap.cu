#include "overlap.cuh"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "check.cuh"
#include "statistics.hpp"
#include "timeline.hpp"
#include "measure.cuh"

namespace ch05 {
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

const char* schedule_name(Schedule schedule) {
  switch (schedule) {
    case Schedule::sequential: return "sequential";
    case Schedule::v1_per_chunk: return "V1";
    case Schedule::v2_per_stage: return "V2";
  }
  return "?";
}

OverlapProblem::OverlapProblem(std::size_t n, std::uint64_t seed)
    : n_(n), input_(n), output_(n), data_(n), scratch_(n), values_(lab::random_floats(n, seed)) {
  std::copy(values_.begin(), values_.end(), input_.begin());
  poison_output();
  // The device array starts as the input: the model's measurements copy it out and run the
  // kernel over it before any schedule has copied anything in, and reading memory nothing
  // wrote is a bug (compute-sanitizer's initcheck reports it) even when only its time counts.
  data_.upload(values_);
}

void OverlapProblem::poison_output() { std::memset(output_.data(), 0xFF, output_.bytes()); }

lab::Comparison OverlapProblem::check(int iterations) const {
  const std::vector<float> actual(output_.data(), output_.data() + n_);
  return lab::compare(actual, transform_on_cpu(values_, iterations), 5e-7 * iterations, 1.2e-7 * iterations);
}

void launch_transform(float* data, std::size_t count, int iterations, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 8192));
  transform<<<blocks, 256, 0, stream>>>(data, count, iterations);
  LAB_CHECK_LAUNCH();
}

std::vector<float> transform_on_cpu(const std::vector<float>& input, int iterations) {
  std::vector<float> result(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) result[i] = static_cast<float>(double{input[i]} + iterations);
  return result;
}

// --- the pipeline -------------------------------------------------------------

Pipeline::Pipeline(OverlapProblem& problem, int chunks, int iterations, lab::EventTimeline* timeline)
    : problem_(problem),
      iterations_(iterations),
      chunk_((problem.size() + static_cast<std::size_t>(chunks) - 1) / static_cast<std::size_t>(chunks)),
      streams_(static_cast<std::size_t>(chunks)),
      timeline_(timeline) {
  if (chunks < 1 || problem.size() / static_cast<std::size_t>(chunks) < 1) {
    throw std::invalid_argument("Pipeline: every chunk needs at least one element");
  }
}

std::size_t Pipeline::offset(int chunk) const { return static_cast<std::size_t>(chunk) * chunk_; }

std::size_t Pipeline::count(int chunk) const {
  return std::min(problem_.size(), offset(chunk) + chunk_) - std::min(problem_.size(), offset(chunk));
}

template <class Enqueue>
void Pipeline::traced(int chunk, char symbol, const char* name, Enqueue enqueue) {
  cudaStream_t s = stream(chunk);
  const int before = timeline_ != nullptr ? timeline_->mark(s) : -1;
  enqueue(s);
  if (timeline_ != nullptr) timeline_->span("stream " + std::to_string(chunk), symbol, before, timeline_->mark(s));
  log_.push_back(std::string(name) + " " + std::to_string(chunk));
}

void Pipeline::copy_in(int chunk) {
  traced(chunk, lab::kCopyIn, "in", [&](cudaStream_t s) {
    LAB_CHECK(cudaMemcpyAsync(problem_.device_data() + offset(chunk), problem_.host_input() + offset(chunk),
                              count(chunk) * sizeof(float), cudaMemcpyHostToDevice, s));
  });
}

void Pipeline::run_kernel(int chunk) {
  traced(chunk, lab::kKernel, "kernel", [&](cudaStream_t s) {
    if (count(chunk) > 0) launch_transform(problem_.device_data() + offset(chunk), count(chunk), iterations_, s);
  });
}

void Pipeline::copy_out(int chunk) {
  traced(chunk, lab::kCopyOut, "out", [&](cudaStream_t s) {
    LAB_CHECK(cudaMemcpyAsync(problem_.host_output() + offset(chunk), problem_.device_data() + offset(chunk),
                              count(chunk) * sizeof(float), cudaMemcpyDeviceToHost, s));
  });
}

// --- the schedules ---------------------------------------------------------------

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

std::vector<lab::Span> trace_schedule(OverlapProblem& problem, Schedule schedule, int chunks, int iterations) {
  const int n = chunks_of(schedule, chunks);
  LAB_CHECK(cudaDeviceSynchronize());
  lab::Stream origin;
  lab::EventTimeline timeline(origin, 6 * n);  // origin on an idle stream, before all the work
  Pipeline pipeline(problem, n, iterations, &timeline);
  enqueue(schedule, pipeline);
  LAB_CHECK(cudaDeviceSynchronize());
  std::vector<lab::Span> spans = timeline.spans();
  lab::queue_copies_one_at_a_time(spans);
  return spans;
}

// --- the model's inputs ----------------------------------------------------------

namespace {

// The median of `reps` samples from the project's measuring routine: one
// warm-up, then each sample alone (the host waits after it), as
// time_schedule() does. Timed on `stream`; the legacy default stream (0)
// brackets work queued on any blocking stream.
double median_ms(int reps, cudaStream_t stream, const std::function<void(cudaStream_t)>& work) {
  lab::MeasureConfig config;
  config.warmup = 1;
  config.samples = reps;
  config.mode = lab::SampleMode::isolated;
  return lab::summarize(lab::measure_ms(work, stream, config)).median;
}

}  // namespace

LinkAndKernel measure_link_and_kernel(OverlapProblem& problem, int iterations, int copy_engines, int reps) {
  lab::Stream in, out;
  const std::size_t bytes = problem.size() * sizeof(float);
  auto copy_in = [&](cudaStream_t) {
    LAB_CHECK(cudaMemcpyAsync(problem.device_scratch(), problem.host_input(), bytes, cudaMemcpyHostToDevice, in));
  };
  auto copy_out = [&](cudaStream_t) {
    LAB_CHECK(cudaMemcpyAsync(problem.host_output(), problem.device_data(), bytes, cudaMemcpyDeviceToHost, out));
  };
  LinkAndKernel m;
  m.bytes = problem.bytes();
  m.copy_engines = copy_engines;
  // The copies run on their own streams; events on the legacy default stream bracket them.
  m.h2d_ms = median_ms(reps, 0, copy_in);
  m.d2h_ms = median_ms(reps, 0, copy_out);
  m.both_ms = median_ms(reps, 0, [&](cudaStream_t legacy) {
    copy_in(legacy);
    copy_out(legacy);
  });
  m.kernel_ms = measure_kernel_ms(problem, iterations, reps);
  return m;
}

double measure_kernel_ms(OverlapProblem& problem, int iterations, int reps) {
  lab::Stream stream;
  return median_ms(reps, stream,
                   [&](cudaStream_t s) { launch_transform(problem.device_data(), problem.size(), iterations, s); });
}

int calibrate_iterations(OverlapProblem& problem, double target_ms) {
  constexpr int kProbe = 16;
  lab::Stream stream;
  const double probe_ms = median_ms(
      3, stream, [&](cudaStream_t s) { launch_transform(problem.device_data(), problem.size(), kProbe, s); });
  return std::clamp(static_cast<int>(std::lround(kProbe * target_ms / probe_ms)), 1, 100000);
}

}  // namespace ch05
