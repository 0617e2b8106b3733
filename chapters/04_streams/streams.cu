#include "streams.cuh"

#include <algorithm>

#include "check.cuh"
#include "clock.cuh"
#include "stream.cuh"
#include "timers.cuh"

namespace ch04 {

// --- one stream vs many -----------------------------------------------------

bool ArraysRun::all_correct() const {
  return !results.empty() &&
         std::all_of(results.begin(), results.end(), [](const NormalizeCheck& c) { return c.passed(); });
}

ArraysRun run_arrays(std::vector<NormalizeProblem>& arrays, int streams) {
  std::vector<lab::Stream> stream_list(static_cast<std::size_t>(streams));
  for (NormalizeProblem& array : arrays) array.poison_output();
  LAB_CHECK(cudaDeviceSynchronize());  // the origin must come before all the work

  ArraysRun run;
  run.streams = streams;
  lab::EventTimeline timeline(stream_list[0], 4 * static_cast<int>(arrays.size()));
  std::vector<std::pair<int, int>> marks;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    marks.push_back(arrays[i].enqueue(stream_list[i % stream_list.size()], &timeline, "array " + std::to_string(i)));
  }
  LAB_CHECK(cudaDeviceSynchronize());

  double first_begin = 1e300, last_end = 0;
  for (const auto& [begin, end] : marks) {
    const double b = timeline.ms(begin), e = timeline.ms(end);
    run.per_array_ms.push_back(e - b);
    first_begin = std::min(first_begin, b);
    last_end = std::max(last_end, e);
  }
  run.total_ms = last_end - first_begin;
  run.spans = timeline.spans();
  lab::queue_copies_one_at_a_time(run.spans);
  const std::string in{lab::kCopyIn}, out{lab::kCopyOut}, kernels{lab::kKernel};
  run.copy_in_busy_ms = lab::busy_ms(run.spans, in);
  run.copy_out_busy_ms = lab::busy_ms(run.spans, out);
  run.kernel_busy_ms = lab::busy_ms(run.spans, kernels);
  run.in_with_out_ms = lab::overlap_ms(run.spans, in, out);
  run.copies_with_kernels_ms = lab::overlap_ms(run.spans, in + out, kernels);
  for (const NormalizeProblem& array : arrays) run.results.push_back(array.check());
  return run;
}

// --- the default stream -----------------------------------------------------

std::string DefaultStreamRun::description() const {
  return build + " build, " + side_streams + " A/B, middle on " + middle;
}

bool DefaultStreamRun::serialised() const { return begin_ms[1] >= end_ms[0] && begin_ms[2] >= end_ms[1]; }

bool DefaultStreamRun::concurrent() const {
  const double latest_begin = std::max({begin_ms[0], begin_ms[1], begin_ms[2]});
  const double earliest_end = std::min({end_ms[0], end_ms[1], end_ms[2]});
  return latest_begin < earliest_end;
}

// --- a race between two streams ----------------------------------------------

namespace {

__global__ void produce(const float* input, float* data, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    data[i] = 2.0f * input[i];
  }
}

__global__ void consume(const float* data, float* out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = data[i] + 1.0f;
  }
}

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 4096)); }

}  // namespace

void no_ordering(cudaStream_t, cudaStream_t, cudaEvent_t) {}

void wait_for_producer(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t produced) {
  LAB_CHECK(cudaEventRecord(produced, producer));         // a marker after the producer's kernel
  LAB_CHECK(cudaStreamWaitEvent(consumer, produced, 0));  // the consumer's later work waits for it
}

ProducerConsumer::ProducerConsumer(std::size_t n, std::uint64_t seed) : n_(n), input_(n), data_(n), out_(n) {
  const std::vector<float> input = lab::random_floats(n, seed);
  input_.upload(input);
  expected_.resize(n);
  for (std::size_t i = 0; i < n; ++i) expected_[i] = 2.0f * input[i] + 1.0f;  // exact in float, as on the GPU
  produce<<<blocks_for(n_), 256>>>(input_.data(), data_.data(), n_);
  LAB_CHECK_LAUNCH();
  consume<<<blocks_for(n_), 256>>>(data_.data(), out_.data(), n_);
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaDeviceSynchronize());
}

lab::Comparison ProducerConsumer::run(const Ordering& order, double producer_delay_ms) {
  lab::Stream producer, consumer;
  lab::Event produced(cudaEventDisableTiming);
  data_.poison(producer);
  out_.poison(producer);
  producer.synchronize();

  lab::launch_spin(producer, producer_delay_ms);  // the slow part of the producer
  produce<<<blocks_for(n_), 256, 0, producer>>>(input_.data(), data_.data(), n_);
  LAB_CHECK_LAUNCH();
  order(producer, consumer, produced.get());
  consume<<<blocks_for(n_), 256, 0, consumer>>>(data_.data(), out_.data(), n_);
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaDeviceSynchronize());
  return lab::compare(out_.download(), expected_);
}

// --- stream-ordered memory ---------------------------------------------------

const char* temporaries_name(Temporaries kind) {
  return kind == Temporaries::cuda_malloc ? "cudaMalloc / cudaFree" : "cudaMallocAsync / cudaFreeAsync";
}

TemporariesRun time_temporaries(NormalizeProblem& problem, Temporaries kind, double queued_ms, int calls,
                                cudaStream_t stream) {
  auto call = [&] {
    if (kind == Temporaries::cuda_malloc) {
      launch_normalize_cuda_malloc(problem.device_data(), problem.size(), stream);
    } else {
      launch_normalize_stream_ordered(problem.device_data(), problem.size(), stream);
    }
  };
  TemporariesRun run;
  run.kind = kind;
  run.queued_ms = queued_ms;

  // Many calls on an idle stream: what one call costs the host.
  call();
  LAB_CHECK(cudaStreamSynchronize(stream));
  lab::HostTimer loop;
  for (int i = 0; i < calls; ++i) call();
  run.per_call_us = loop.elapsed_ms() * 1e3 / calls;
  LAB_CHECK(cudaStreamSynchronize(stream));

  // One call behind queued work: does the host wait for that work?
  problem.poison_output();
  lab::launch_spin(stream, queued_ms);
  problem.enqueue_copy_in(stream);
  lab::HostTimer one;
  call();
  run.call_ms = one.elapsed_ms();
  problem.enqueue_copy_out(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  run.result = problem.check();
  return run;
}

}  // namespace ch04
