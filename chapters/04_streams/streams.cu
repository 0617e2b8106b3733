// Chapter 04's lesson, one group of functions per section of the chapter page.
#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <thread>

#include "check.cuh"
#include "checks.hpp"
#include "clock.cuh"
#include "cupti_timeline.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "streams.cuh"
#include "timers.cuh"

namespace ch04 {

std::vector<NormalizeProblem> make_arrays(const Options& o) {
  std::vector<NormalizeProblem> arrays;
  for (std::int64_t i = 0; i < o.arrays; ++i) {
    arrays.emplace_back(static_cast<std::size_t>(o.n), static_cast<std::uint64_t>(o.seed + i));
  }
  return arrays;
}

// --- 2. one stream vs many ---------------------------------------------------

ArraysRun run_arrays(std::vector<NormalizeProblem>& arrays, int streams) {
  std::vector<cudaStream_t> stream(static_cast<std::size_t>(streams));
  for (cudaStream_t& s : stream) LAB_CHECK(cudaStreamCreate(&s));
  std::vector<lab::Event> begin(arrays.size()), end(arrays.size());
  for (NormalizeProblem& array : arrays) array.poison_output();
  LAB_CHECK(cudaDeviceSynchronize());  // nothing earlier runs inside the timed work

  // [snippet:one_stream_or_ten]
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    cudaStream_t s = stream[i % stream.size()];
    LAB_CHECK(cudaEventRecord(begin[i], s));
    arrays[i].enqueue(s);  // cudaMemcpyAsync in, three kernels <<<..., s>>>, cudaMemcpyAsync out
    LAB_CHECK(cudaEventRecord(end[i], s));
  }
  // [snippet:one_stream_or_ten]
  LAB_CHECK(cudaDeviceSynchronize());

  // The whole runs from the earliest begin event to the latest end event,
  // whichever streams they are on: begin[0] was recorded first, but streams
  // promise no order among themselves, so another begin may have run before it.
  ArraysRun run;
  run.streams = streams;
  std::vector<double> begins, ends;  // ms after begin[0]; a begin may be negative
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    run.per_array_ms.push_back(lab::Event::elapsed_ms(begin[i], end[i]));
    begins.push_back(lab::Event::elapsed_ms(begin[0], begin[i]));
    ends.push_back(lab::Event::elapsed_ms(begin[0], end[i]));
  }
  run.total_ms = lab::span_ms(begins, ends);
  for (const NormalizeProblem& array : arrays) run.results.push_back(array.check());
  for (cudaStream_t s : stream) LAB_CHECK(cudaStreamDestroy(s));
  return run;
}

ArraysRecording record_arrays(std::vector<NormalizeProblem>& arrays, int streams) {
  ArraysRecording recording;
  recording.streams = streams;
  lab::TimelineRecorder recorder;
  if (!recorder.start(&recording.why_not)) return recording;
  const ArraysRun run = run_arrays(arrays, streams);
  recording.work = recorder.stop();
  recording.dropped = recorder.dropped();
  recording.recorded = true;
  recording.all_correct = all_arrays_correct(run);
  return recording;
}

StreamsComparison compare_streams(std::vector<NormalizeProblem>& arrays, const Options& o, int copy_engines) {
  const int many = static_cast<int>(o.streams);
  const int reps = static_cast<int>(o.reps);
  StreamsComparison run;
  run.n = static_cast<std::int64_t>(arrays.front().size());
  run.arrays = static_cast<int>(arrays.size());
  run.many = many;
  run.copy_engines = copy_engines;
  run_arrays(arrays, many);  // warm-up: module loading, pinned pages, clocks
  for (int r = 0; r < reps; ++r) {
    run.one.push_back(run_arrays(arrays, 1));
    run.lots.push_back(run_arrays(arrays, many));
  }
  run.one_recorded = record_arrays(arrays, 1);
  run.lots_recorded = record_arrays(arrays, many);
  return run;
}

void record_timelines(lab::TimelineSession& timeline, std::vector<NormalizeProblem>& arrays, const Options& o) {
  if (!timeline.wanted()) return;
  for (const int streams : {static_cast<int>(o.streams), 1}) {
    timeline.begin(std::to_string(o.arrays) + " arrays on " + std::to_string(streams) + " stream(s)");
    run_arrays(arrays, streams);
    timeline.end();
  }
}

// --- 3. the default stream -----------------------------------------------------

DefaultStreamCases run_default_stream_cases(double spin_ms) {
  DefaultStreamCases cases;
  cases.legacy = default_stream_legacy_build(cudaStreamDefault, spin_ms);
  cases.non_blocking = default_stream_legacy_build(cudaStreamNonBlocking, spin_ms);
  cases.per_thread = default_stream_per_thread_build(cudaStreamDefault, spin_ms, false);
  cases.legacy_by_name = default_stream_per_thread_build(cudaStreamDefault, spin_ms, true);
  return cases;
}

// --- 4. a race between two streams ----------------------------------------------

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

// [snippet:wait_for_producer]
void wait_for_producer(cudaStream_t producer, cudaStream_t consumer, cudaEvent_t produced) {
  LAB_CHECK(cudaEventRecord(produced, producer));         // a marker after the producer's kernel
  LAB_CHECK(cudaStreamWaitEvent(consumer, produced, 0));  // the consumer's later work waits for it
}
// [snippet:wait_for_producer]

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
  cudaStream_t producer, consumer;
  cudaEvent_t produced;
  LAB_CHECK(cudaStreamCreate(&producer));
  LAB_CHECK(cudaStreamCreate(&consumer));
  LAB_CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));  // ordering only, no time stamp
  data_.poison(producer);
  out_.poison(producer);
  LAB_CHECK(cudaStreamSynchronize(producer));

  lab::launch_spin(producer, producer_delay_ms);  // the slow part of the producer
  produce<<<blocks_for(n_), 256, 0, producer>>>(input_.data(), data_.data(), n_);
  LAB_CHECK_LAUNCH();
  order(producer, consumer, produced);
  consume<<<blocks_for(n_), 256, 0, consumer>>>(data_.data(), out_.data(), n_);
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaDeviceSynchronize());
  LAB_CHECK(cudaEventDestroy(produced));
  LAB_CHECK(cudaStreamDestroy(consumer));
  LAB_CHECK(cudaStreamDestroy(producer));
  return lab::compare(out_.download(), expected_);
}

RaceRun run_race(const Options& o) {
  ProducerConsumer race(static_cast<std::size_t>(o.race_n), static_cast<std::uint64_t>(o.seed) + 1000);
  RaceRun run;
  run.n = o.race_n;
  run.delay_ms = o.race_delay_ms;
  run.runs = static_cast<int>(o.race_reps);
  for (int r = 0; r < run.runs; ++r) {
    run.raced_last = race.run(no_ordering, o.race_delay_ms);
    run.raced_wrong += run.raced_last.passed() ? 0 : 1;
    run.fixed_last = race.run(wait_for_producer, o.race_delay_ms);
    run.fixed_wrong += run.fixed_last.passed() ? 0 : 1;
  }
  return run;
}

// --- 5. stream-ordered memory ---------------------------------------------------

const char* temporaries_name(Temporaries kind) {
  return kind == Temporaries::cuda_malloc ? "cudaMalloc / cudaFree" : "cudaMallocAsync / cudaFreeAsync";
}

TemporariesRun time_temporaries(NormalizeProblem& problem, Temporaries kind, double queued_ms, cudaStream_t stream) {
  TemporariesRun run;
  run.kind = temporaries_name(kind);
  run.queued_ms = queued_ms;
  // One untimed call of each kind first, on an idle stream: a first call pays
  // one-time costs (the spin kernel's loading, the pool's first allocation: the
  // stream-ordered call took 9.5 ms behind 20 ms of work on the H100 without it).
  lab::launch_spin(stream, 0.01);
  if (kind == Temporaries::cuda_malloc) {
    launch_normalize_cuda_malloc(problem.device_data(), problem.size(), stream);
  } else {
    launch_normalize_stream_ordered(problem.device_data(), problem.size(), stream);
  }
  LAB_CHECK(cudaStreamSynchronize(stream));
  problem.poison_output();

  lab::launch_spin(stream, queued_ms);  // work queued before the call
  problem.enqueue_copy_in(stream);
  lab::HostTimer call;
  if (kind == Temporaries::cuda_malloc) {
    launch_normalize_cuda_malloc(problem.device_data(), problem.size(), stream);
  } else {
    launch_normalize_stream_ordered(problem.device_data(), problem.size(), stream);
  }
  run.call_ms = call.elapsed_ms();
  problem.enqueue_copy_out(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  run.result = problem.check();
  return run;
}

namespace {

double elapsed_us(const lab::HostTimer& timer) { return timer.elapsed_ms() * 1e3; }

}  // namespace

AllocationTimes time_allocation_calls(std::size_t bytes, double queued_ms, int samples, int queued_samples,
                                      cudaStream_t stream) {
  AllocationTimes t;
  t.bytes = bytes;
  t.queued_ms = queued_ms;
  void* block = nullptr;
  // Warm-up: the first calls set up the allocators; the spin kernel is loaded.
  LAB_CHECK(cudaMalloc(&block, bytes));
  LAB_CHECK(cudaFree(block));
  LAB_CHECK(cudaMallocAsync(&block, bytes, stream));
  LAB_CHECK(cudaFreeAsync(block, stream));
  lab::launch_spin(stream, 0.01);
  LAB_CHECK(cudaDeviceSynchronize());

  lab::HostTimer timer;
  // Idle: nothing queued anywhere.
  for (int i = 0; i < samples; ++i) {
    timer.restart();
    LAB_CHECK(cudaMalloc(&block, bytes));
    t.malloc_idle_us.push_back(elapsed_us(timer));
    timer.restart();
    LAB_CHECK(cudaFree(block));
    t.free_idle_us.push_back(elapsed_us(timer));
  }
  for (int i = 0; i < samples; ++i) {
    timer.restart();
    LAB_CHECK(cudaMallocAsync(&block, bytes, stream));
    t.malloc_async_idle_us.push_back(elapsed_us(timer));
    timer.restart();
    LAB_CHECK(cudaFreeAsync(block, stream));
    t.free_async_idle_us.push_back(elapsed_us(timer));
  }
  LAB_CHECK(cudaStreamSynchronize(stream));

  // Behind queued work: a spin kernel holds the stream for queued_ms first.
  for (int i = 0; i < queued_samples; ++i) {
    lab::launch_spin(stream, queued_ms);
    timer.restart();
    LAB_CHECK(cudaMalloc(&block, bytes));
    t.malloc_queued_us.push_back(elapsed_us(timer));
    timer.restart();
    LAB_CHECK(cudaFree(block));
    t.free_queued_us.push_back(elapsed_us(timer));
    LAB_CHECK(cudaStreamSynchronize(stream));
  }
  for (int i = 0; i < queued_samples; ++i) {
    lab::launch_spin(stream, queued_ms);
    timer.restart();
    LAB_CHECK(cudaMallocAsync(&block, bytes, stream));
    t.malloc_async_queued_us.push_back(elapsed_us(timer));
    timer.restart();
    LAB_CHECK(cudaFreeAsync(block, stream));
    t.free_async_queued_us.push_back(elapsed_us(timer));
    LAB_CHECK(cudaStreamSynchronize(stream));
  }
  return t;
}

namespace {

cudaMemPool_t default_pool() {
  int device = 0;
  LAB_CHECK(cudaGetDevice(&device));
  cudaMemPool_t pool = nullptr;
  LAB_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  return pool;
}

// One attribute of a pool as it was: restore() writes it back (so does the
// destructor, if an error left it changed), so no experiment's setting leaks
// into the next section.
template <typename T>
class SavedPoolAttribute {
 public:
  SavedPoolAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute) : pool_(pool), attribute_(attribute) {
    LAB_CHECK(cudaMemPoolGetAttribute(pool_, attribute_, &original_));
  }
  ~SavedPoolAttribute() {
    T value = original_;
    cudaMemPoolSetAttribute(pool_, attribute_, &value);  // errors cannot be thrown from here
  }
  SavedPoolAttribute(const SavedPoolAttribute&) = delete;
  SavedPoolAttribute& operator=(const SavedPoolAttribute&) = delete;
  void restore() {
    T value = original_;
    LAB_CHECK(cudaMemPoolSetAttribute(pool_, attribute_, &value));
  }
  // Does the pool hold the original value now?
  bool is_original() const {
    T now{};
    LAB_CHECK(cudaMemPoolGetAttribute(pool_, attribute_, &now));
    return now == original_;
  }

 private:
  cudaMemPool_t pool_;
  cudaMemPoolAttr attribute_;
  T original_{};
};

}  // namespace

ThresholdRun measure_release_threshold(std::size_t bytes, int samples, cudaStream_t stream) {
  cudaMemPool_t pool = default_pool();
  SavedPoolAttribute<std::uint64_t> saved(pool, cudaMemPoolAttrReleaseThreshold);
  ThresholdRun run;
  run.bytes = bytes;
  run.release_all.threshold = 0;
  run.keep_all.threshold = std::numeric_limits<std::uint64_t>::max();
  for (ThresholdCase* c : {&run.release_all, &run.keep_all}) {
    std::uint64_t threshold = c->threshold;
    LAB_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    void* block = nullptr;
    LAB_CHECK(cudaMallocAsync(&block, bytes, stream));  // the pool reserves the block ...
    LAB_CHECK(cudaFreeAsync(block, stream));            // ... and gets it back in stream order
    for (int i = 0; i < samples; ++i) {
      LAB_CHECK(cudaStreamSynchronize(stream));  // where the pool may hand memory back to the OS
      std::uint64_t reserved = 0;
      LAB_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
      c->reserved_after_sync = reserved;
      lab::HostTimer timer;
      LAB_CHECK(cudaMallocAsync(&block, bytes, stream));
      c->malloc_after_sync_us.push_back(elapsed_us(timer));
      LAB_CHECK(cudaFreeAsync(block, stream));
    }
    LAB_CHECK(cudaStreamSynchronize(stream));
  }
  saved.restore();
  LAB_CHECK(cudaMemPoolTrimTo(pool, 0));  // hand back what UINT64_MAX kept
  run.restored = saved.is_original();
  return run;
}

namespace {

enum class AllocateOn { freeing_stream, other_stream, other_stream_after_event };

// Polls @p event for @p ms; true when it never completed (its stream is still waiting).
bool still_waiting_after(cudaEvent_t event, double ms) {
  lab::HostTimer timer;
  while (timer.elapsed_ms() < ms) {
    const cudaError_t state = cudaEventQuery(event);
    if (state == cudaSuccess) return false;
    if (state != cudaErrorNotReady) LAB_CHECK(state);
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return true;
}

// A block freed with cudaFreeAsync behind a held stream (so the free has not
// run on the GPU yet), then one allocation of the same size where @p where says.
ReuseCase allocate_after_pending_free(const std::string& name, AllocateOn where, std::size_t bytes,
                                      lab::StreamBlocker& blocker, cudaStream_t freeing, cudaStream_t other) {
  ReuseCase c;
  c.name = name;
  lab::Event freed(cudaEventDisableTiming), allocated(cudaEventDisableTiming);
  void* block = nullptr;
  void* again = nullptr;
  blocker.block(freeing);  // nothing queued on `freeing` below runs before release()
  LAB_CHECK(cudaMallocAsync(&block, bytes, freeing));
  LAB_CHECK(cudaFreeAsync(block, freeing));  // pending: behind the held kernel
  cudaStream_t allocating = where == AllocateOn::freeing_stream ? freeing : other;
  if (where == AllocateOn::other_stream_after_event) {
    LAB_CHECK(cudaEventRecord(freed, freeing));       // after the free
    LAB_CHECK(cudaStreamWaitEvent(other, freed, 0));  // `other` now depends on the free
  }
  LAB_CHECK(cudaMallocAsync(&again, bytes, allocating));
  c.same_address = again == block;  // compared as numbers: the block itself is not touched
  if (where == AllocateOn::other_stream) {
    // Did the allocator make `other` wait for the held free? Then work queued
    // on it now cannot finish until the freeing stream is released.
    LAB_CHECK(cudaEventRecord(allocated, other));
    c.checked_wait = true;
    c.allocator_waited = still_waiting_after(allocated, 20.0);
  }
  LAB_CHECK(cudaFreeAsync(again, allocating));
  blocker.release();
  LAB_CHECK(cudaDeviceSynchronize());
  c.measured = !blocker.timed_out();
  return c;
}

}  // namespace

ReuseRun observe_reuse(std::size_t bytes) {
  cudaMemPool_t pool = default_pool();
  ReuseRun run;
  run.bytes = bytes;
  LAB_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &run.follow_event_dependencies));
  LAB_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &run.allow_opportunistic));
  LAB_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &run.allow_internal_dependencies));
  lab::Stream freeing, other;
  lab::StreamBlocker blocker;
  blocker.block(freeing);  // load the holding kernel before it holds anything
  blocker.release();
  LAB_CHECK(cudaDeviceSynchronize());

  run.same_stream =
      allocate_after_pending_free("the freeing stream", AllocateOn::freeing_stream, bytes, blocker, freeing, other);
  run.other_stream =
      allocate_after_pending_free("another stream, no event", AllocateOn::other_stream, bytes, blocker, freeing, other);
  {
    SavedPoolAttribute<int> saved(pool, cudaMemPoolReuseAllowInternalDependencies);
    int off = 0;
    LAB_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &off));
    run.other_stream_no_internal =
        allocate_after_pending_free("another stream, no event, internal dependencies off", AllocateOn::other_stream,
                                    bytes, blocker, freeing, other);
    saved.restore();
    run.restored = saved.is_original();
  }
  run.other_stream_event =
      allocate_after_pending_free("another stream, after an event recorded after the free",
                                  AllocateOn::other_stream_after_event, bytes, blocker, freeing, other);
  return run;
}

MemoryRun study_memory(NormalizeProblem& problem, const Options& o, cudaStream_t stream) {
  MemoryRun run;
  run.cuda_malloc = time_temporaries(problem, Temporaries::cuda_malloc, o.queued_ms, stream);
  run.stream_ordered = time_temporaries(problem, Temporaries::stream_ordered, o.queued_ms, stream);
  const std::size_t partials_bytes = static_cast<std::size_t>(partial_blocks(problem.size())) * sizeof(float);
  run.calls = time_allocation_calls(partials_bytes, o.queued_ms, 100, 3, stream);
  run.threshold = measure_release_threshold(static_cast<std::size_t>(o.pool_mib) << 20, 5, stream);
  run.reuse = observe_reuse(partials_bytes);
  return run;
}

}  // namespace ch04
