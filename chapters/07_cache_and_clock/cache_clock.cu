#include <cmath>

#include "cache_clock.cuh"
#include "check.cuh"
#include "clock.cuh"
#include "device.cuh"
#include "stream.cuh"

namespace ch07 {

namespace {

__global__ void scale_kernel(const float* x, float* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    y[i] = 2.0f * x[i];
}

// Every thread runs `steps` dependent FMAs from a start value of its own; the
// first thread of block 0 stamps cycles and nanoseconds around its work.
// stamp[0] = SM cycles, stamp[1] = ns, stamp[2] = %globaltimer at the start.
__global__ void clocked_load_kernel(float* out, int steps, unsigned long long* stamp) {
  const bool stamper = blockIdx.x == 0 && threadIdx.x == 0;
  unsigned long long t0 = 0;
  long long c0 = 0;
  if (stamper) {
    t0 = lab::globaltimer_ns();
    c0 = clock64();
  }
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  float x = static_cast<float>(id % 64) * 1e-3f;
  for (int i = 0; i < steps; ++i) x = fmaf(x, 0.9999f, 1e-4f);
  out[id] = x;
  if (stamper) {
    const long long c1 = clock64();
    const unsigned long long t1 = lab::globaltimer_ns();
    stamp[0] = static_cast<unsigned long long>(c1 - c0);
    stamp[1] = t1 - t0;
    stamp[2] = t0;
  }
}

constexpr int kLoadThreads = 256;

}  // namespace

ScaleProblem::ScaleProblem(std::size_t working_set_bytes, std::uint64_t seed)
    : x_host_(lab::random_floats(working_set_bytes / 2 / sizeof(float), seed)),
      x_(x_host_.size()),
      y_(x_host_.size()) {
  x_.upload(x_host_);
}

void ScaleProblem::launch(cudaStream_t stream) {
  scale_kernel<<<8 * lab::current_device_attribute(cudaDevAttrMultiProcessorCount), 256, 0, stream>>>(x_.data(), y_.data(), x_.size());
  LAB_CHECK_LAUNCH();
}

lab::Comparison ScaleProblem::check() const {
  std::vector<float> expected(x_host_.size());
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = 2.0f * x_host_[i];
  return lab::compare(y_.download(), expected);
}

const char* preceding_name(Preceding preceding) {
  switch (preceding) {
    case Preceding::nothing: return "nothing";
    case Preceding::spin: return "spin kernel";
    case Preceding::write_flush: return "write flush";
    case Preceding::read_flush: return "read flush";
  }
  return "?";
}

PrecedingWork::PrecedingWork(double spin_ms)
    : spin_ms_(spin_ms), write_(lab::L2Flusher::Method::write), read_(lab::L2Flusher::Method::read) {}

void PrecedingWork::queue(Preceding preceding, cudaStream_t stream) {
  switch (preceding) {
    case Preceding::nothing: break;
    case Preceding::spin: lab::launch_spin(stream, spin_ms_); break;
    case Preceding::write_flush: write_.flush(stream); break;
    case Preceding::read_flush: read_.flush(stream); break;
  }
}

std::vector<double> time_kernel(ScaleProblem& problem, PrecedingWork& work, Preceding preceding, lab::SampleMode mode,
                                int samples, cudaStream_t stream, lab::Comparison* check) {
  lab::MeasureConfig config;
  config.warmup = 2;
  config.samples = samples;
  config.mode = mode;
  if (preceding != Preceding::nothing) config.before_sample = [&](cudaStream_t s) { work.queue(preceding, s); };
  problem.poison(stream);
  const std::vector<double> result = lab::measure_ms([&](cudaStream_t s) { problem.launch(s); }, stream, config);
  if (check != nullptr) *check = problem.check();
  return result;
}

ClockedLoad::ClockedLoad(int blocks, int steps)
    : blocks_(blocks), steps_(steps), out_(static_cast<std::size_t>(blocks) * kLoadThreads), stamps_(3), slots_(1) {}

void ClockedLoad::launch(std::size_t slot, cudaStream_t stream) {
  clocked_load_kernel<<<blocks_, kLoadThreads, 0, stream>>>(out_.data(), steps_, stamps_.data() + 3 * slot);
  LAB_CHECK_LAUNCH();
}

namespace {

// The clock of each slot's stamps, and its start time.
void read_stamps(const lab::DeviceBuffer<unsigned long long>& stamps, std::vector<ClockedLoad::Sample>& samples) {
  const std::vector<unsigned long long> host = stamps.download();
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double cycles = static_cast<double>(host[3 * i]);
    const double ns = static_cast<double>(host[3 * i + 1]);
    samples[i].clock_mhz = ns > 0 ? cycles / ns * 1e3 : 0.0;
    samples[i].start_ns = static_cast<double>(host[3 * i + 2]);
  }
}

}  // namespace

std::vector<ClockedLoad::Sample> ClockedLoad::run(int samples, cudaStream_t stream) {
  if (static_cast<std::size_t>(samples) > slots_) {
    slots_ = static_cast<std::size_t>(samples);
    stamps_ = lab::DeviceBuffer<unsigned long long>(3 * slots_);
  }
  launch(0, stream);  // warm-up: module loading
  LAB_CHECK(cudaStreamSynchronize(stream));
  std::vector<Sample> result(static_cast<std::size_t>(samples));
  lab::Event start, stop;
  for (std::size_t i = 0; i < result.size(); ++i) {
    start.record(stream);
    launch(i, stream);
    stop.record(stream);
    stop.synchronize();
    result[i].ms = lab::Event::elapsed_ms(start, stop);
  }
  read_stamps(stamps_, result);
  return result;
}

std::vector<ClockedLoad::Sample> ClockedLoad::sustain(double milliseconds, cudaStream_t stream) {
  const double one_ms = run(1, stream)[0].ms;
  const auto launches = static_cast<std::size_t>(std::max(1.0, std::ceil(milliseconds / one_ms)));
  if (launches > slots_) {
    slots_ = launches;
    stamps_ = lab::DeviceBuffer<unsigned long long>(3 * slots_);
  }
  lab::EventTimer timer(stream);
  timer.start();
  for (std::size_t i = 0; i < launches; ++i) launch(i, stream);
  timer.stop();
  const double total_ms = timer.elapsed_ms();
  std::vector<Sample> result(launches);
  for (Sample& s : result) s.ms = total_ms / static_cast<double>(launches);  // back to back: only the mean is known
  read_stamps(stamps_, result);
  return result;
}

bool ClockedLoad::correct() const {
  float expected[64];
  for (int start = 0; start < 64; ++start) {  // the same FMAs on the CPU: fmaf rounds once, exactly as on the GPU
    float x = static_cast<float>(start) * 1e-3f;
    for (int i = 0; i < steps_; ++i) x = std::fmaf(x, 0.9999f, 1e-4f);
    expected[start] = x;
  }
  const std::vector<float> got = out_.download();
  for (std::size_t id = 0; id < got.size(); ++id) {
    if (got[id] != expected[id % 64]) return false;
  }
  return !got.empty();
}

}  // namespace ch07
