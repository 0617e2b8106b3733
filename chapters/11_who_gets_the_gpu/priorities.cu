// Section 2's lesson: stream priorities.
//
// One kernel, spin_blocks, serves as the long kernel and as the urgent one: its
// blocks each spin a set time and record their start, end and SM. The long
// kernel's blocks also watch for the host's "launched" flag in pinned memory:
// thread 0 of each looks every 10 us, and the earliest block to see it stamps
// %globaltimer (atomicMin). The host raises the flag just before it calls the
// urgent launch, so the start delay measured from that moment includes the
// launch call's own time (the idle case's delay is the floor); hundreds of
// blocks looking at different moments pin the moment to well under a
// microsecond, and the flag's trip over the bus adds about one.
// Into an idle GPU, a one-thread kernel, watch_launch, does the watching.
//
// Blocks of 1024 threads: an SM holds two (2048 threads on the H100), so a
// wave of the long kernel takes every slot, and an urgent block can begin only
// where a long block has ended, unless the GPU sets a running block aside.
#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "block_recorder.cuh"
#include "check.cuh"
#include "clock.cuh"
#include "memory.cuh"
#include "priorities.cuh"
#include "timers.cuh"

namespace ch11 {

namespace {

constexpr int kThreads = 1024;
constexpr int kUrgentBlocks = 16;
constexpr double kWaitLimitMs = 5000.0;             // the host's and the watcher's patience
constexpr unsigned long long kLookEveryNs = 10000;  // how often a long block looks at the flag
constexpr unsigned long long kUnseen = ~0ull;       // the stamp before anyone saw the flag
enum Flag { kWatching, kLaunched, kLongStarted, kWatchTimedOut, kFlags };

// [snippet:spin_blocks]
// Each block spins block_ns. Given flags (the long kernel), thread 0 says the
// kernel runs and looks for the launch flag every 10 us, stamping when it sees it.
__global__ void spin_blocks(long long block_ns, volatile unsigned* flags, unsigned long long* seen_ns,
                            lab::BlockRecord* records) {
  lab::record_block_start(records);
  const unsigned long long begin = lab::globaltimer_ns();
  const bool watching = flags != nullptr && threadIdx.x == 0;
  if (watching) flags[kLongStarted] = 1;  // the host launches the urgent kernel part-way after this
  bool seen = false;
  unsigned long long next_look = begin;
  for (unsigned long long now = begin; now - begin < static_cast<unsigned long long>(block_ns);
       now = lab::globaltimer_ns()) {
    if (watching && !seen && now >= next_look) {
      seen = flags[kLaunched] != 0;
      if (seen) atomicMin(seen_ns, lab::globaltimer_ns());  // the read came back: the flag was up by now
      next_look = now + kLookEveryNs;
    }
  }
  lab::record_block_end(records);
}
// [snippet:spin_blocks]

// One thread, for the urgent kernel into an idle GPU: says it runs, waits for
// the host's flag, and stamps the moment it saw it (or gives up).
__global__ void watch_launch(volatile unsigned* flags, unsigned long long* seen_ns, unsigned long long timeout_ns) {
  flags[kWatching] = 1;
  __threadfence_system();
  const unsigned long long begin = lab::globaltimer_ns();
  while (flags[kLaunched] == 0) {
    if (lab::globaltimer_ns() - begin > timeout_ns) {
      flags[kWatchTimedOut] = 1;
      return;
    }
  }
  *seen_ns = lab::globaltimer_ns();
}

// A stream of a given priority, destroyed with its owner.
class PriorityStream {
 public:
  explicit PriorityStream(int priority) {
    cudaStream_t stream = nullptr;
    LAB_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, priority));
    stream_ = Handle(stream);
  }
  operator cudaStream_t() const { return stream_.get(); }

 private:
  using Handle = lab::detail::UniqueHandle<cudaStream_t, cudaStreamDestroy>;
  Handle stream_;
};

enum class How { idle, equal_priority, greatest_priority, launch_attribute, given_stream };

const char* how_name(How how) {
  switch (how) {
    case How::idle: return "idle";
    case How::equal_priority: return "equal_priority";
    case How::greatest_priority: return "greatest_priority";
    case How::launch_attribute: return "launch_attribute";
    case How::given_stream: return "given_stream";
  }
  return "?";
}

// Everything the samples share.
struct Bench {
  PriorityRun& run;
  PriorityStream low, other_low, high, watch;  // long kernel; equal priority; greatest priority; watcher
  lab::PinnedBuffer<unsigned> flags{kFlags};
  lab::DeviceBuffer<unsigned long long> seen{1};
  lab::BlockRecorder long_records, urgent_records;
  long long long_ns, urgent_ns;
  double launch_after_us;
  cudaStream_t given = nullptr;  // the caller's stream (run_urgent_on)
};

void wait_for(const volatile unsigned* flag, const char* what) {
  const lab::HostTimer waited;
  while (*flag == 0)
    if (waited.elapsed_ms() > kWaitLimitMs) throw std::runtime_error(std::string("waited 5 s for ") + what);
}

// [snippet:urgent]
void launch_urgent(Bench& b, How how) {
  volatile unsigned* no_flags = nullptr;  // the urgent kernel watches nothing
  unsigned long long* no_stamp = nullptr;
  if (how == How::idle || how == How::greatest_priority) {
    spin_blocks<<<kUrgentBlocks, kThreads, 0, b.high>>>(b.urgent_ns, no_flags, no_stamp, b.urgent_records.data());
  } else if (how == How::equal_priority) {
    spin_blocks<<<kUrgentBlocks, kThreads, 0, b.other_low>>>(b.urgent_ns, no_flags, no_stamp, b.urgent_records.data());
  } else {  // the least-priority stream, this launch alone raised to the greatest priority
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributePriority;
    attribute.val.priority = b.run.greatest;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(kUrgentBlocks);
    config.blockDim = dim3(kThreads);
    config.stream = b.other_low;
    config.attrs = &attribute;
    config.numAttrs = 1;
    LAB_CHECK(cudaLaunchKernelEx(&config, spin_blocks, b.urgent_ns, no_flags, no_stamp, b.urgent_records.data()));
  }
  LAB_CHECK_LAUNCH();
}
// [snippet:urgent]

double us_between(unsigned long long from_ns, unsigned long long to_ns) {
  if (from_ns == 0 || to_ns == 0 || from_ns == kUnseen || to_ns == kUnseen)
    return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(static_cast<long long>(to_ns - from_ns)) * 1e-3;
}

// One sample: the long kernel started (or, into an idle GPU, the watcher), the
// host waits part-way into it, raises the flag and launches the urgent kernel.
void run_sample(Bench& b, How how, UrgentCase& c) {
  volatile unsigned* flags = b.flags.data();
  for (int f = 0; f < kFlags; ++f) flags[f] = 0;
  b.long_records.clear(b.low);
  b.urgent_records.clear(b.low);
  LAB_CHECK(cudaMemsetAsync(b.seen.data(), 0xFF, sizeof(unsigned long long), b.low));  // kUnseen
  LAB_CHECK(cudaStreamSynchronize(b.low));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (c.loaded) {
    spin_blocks<<<b.run.long_blocks, kThreads, 0, b.low>>>(b.long_ns, b.flags.data(), b.seen.data(),
                                                           b.long_records.data());
    LAB_CHECK_LAUNCH();
    wait_for(&flags[kLongStarted], "the long kernel to start");
    const lab::HostTimer part_way;
    while (part_way.elapsed_ms() * 1e3 < b.launch_after_us) {
    }
  } else {
    watch_launch<<<1, 1, 0, b.watch>>>(b.flags.data(), b.seen.data(),
                                       static_cast<unsigned long long>(kWaitLimitMs * 1e6));
    LAB_CHECK_LAUNCH();
    wait_for(&flags[kWatching], "the watching kernel to start");
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
  flags[kLaunched] = 1;  // the first long block (or the watcher) to see this stamps it: just before the launch
  if (how == How::given_stream) {
    spin_blocks<<<kUrgentBlocks, kThreads, 0, b.given>>>(b.urgent_ns, nullptr, nullptr, b.urgent_records.data());
    LAB_CHECK_LAUNCH();
  } else {
    launch_urgent(b, how);
  }
  LAB_CHECK(cudaDeviceSynchronize());
  const unsigned long long seen = b.seen.download()[0];
  c.urgent = b.urgent_records.download();
  c.long_run = c.loaded ? b.long_records.download() : std::vector<lab::BlockRecord>{};
  const lab::BlockSpan urgent = lab::summarize_blocks(c.urgent), long_span = lab::summarize_blocks(c.long_run);
  c.missing += urgent.missing + (c.loaded ? long_span.missing : 0);
  c.delay_us.push_back(us_between(seen, urgent.first_start_ns));
  c.launched_after_us.push_back(c.loaded ? us_between(long_span.first_start_ns, seen)
                                         : std::numeric_limits<double>::quiet_NaN());
}

// The run's shape, before anything is measured: the priority range, the blocks
// that fill the GPU, and whether the section can run here.
PriorityRun set_up(int waves, double long_block_us, double urgent_block_us, bool instrumented,
                   const lab::DeviceInfo& device) {
  PriorityRun run;
  // [snippet:range]
  LAB_CHECK(cudaDeviceGetStreamPriorityRange(&run.least, &run.greatest));  // e.g. 0 and -5: lower is greater
  // [snippet:range]
  LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&run.resident_per_sm, spin_blocks, kThreads, 0));
  run.threads = kThreads;
  run.long_blocks = waves * run.resident_per_sm * device.sm_count;
  run.long_waves = waves;
  run.long_block_us = long_block_us;
  run.urgent_blocks = kUrgentBlocks;
  run.urgent_block_us = urgent_block_us;
  if (instrumented || !device.concurrent_kernels) {
    run.skipped = true;
    run.skip_reason = instrumented ? "instrumented: a tool that serialises kernels runs the urgent kernel after the "
                                     "long one, whatever its priority"
                                   : "this device cannot run kernels side by side";
  }
  return run;
}

Bench make_bench(PriorityRun& run, int waves, double long_block_us, double urgent_block_us) {
  return Bench{run,
               PriorityStream(run.least),
               PriorityStream(run.least),
               PriorityStream(run.greatest),
               PriorityStream(run.greatest),
               lab::PinnedBuffer<unsigned>(kFlags),
               lab::DeviceBuffer<unsigned long long>(1),
               lab::BlockRecorder(static_cast<std::size_t>(run.long_blocks)),
               lab::BlockRecorder(kUrgentBlocks),
               std::llround(long_block_us * 1e3),
               std::llround(urgent_block_us * 1e3),
               long_block_us * (waves >= 2 ? 1.5 : 0.5)};  // part-way: into the second wave, or the only one
}

// One way of launching the urgent kernel: a warm-up (modules loaded, streams
// touched; not kept), then @p samples samples.
UrgentCase sample_case(Bench& b, How how, int priority, int samples) {
  UrgentCase c;
  c.name = how_name(how);
  c.loaded = how != How::idle;
  c.priority = priority;
  run_sample(b, how, c);
  c.delay_us.clear();
  c.launched_after_us.clear();
  c.missing = 0;
  for (int i = 0; i < samples; ++i) run_sample(b, how, c);
  return c;
}

}  // namespace

PriorityRun run_priorities(int waves, double long_block_us, double urgent_block_us, int samples, bool instrumented,
                           const lab::DeviceInfo& device) {
  nvtxRangePushA("2. Stream priorities");  // section 6: Nsight Systems shows this range
  PriorityRun run = set_up(waves, long_block_us, urgent_block_us, instrumented, device);
  if (run.skipped) {
    nvtxRangePop();
    return run;
  }
  if (device.driver_cuda_version < 12000)
    run.attribute_missing = "cudaLaunchAttributePriority needs a CUDA 12.0 driver; this one supports " +
                            std::to_string(device.driver_cuda_version);
  Bench b = make_bench(run, waves, long_block_us, urgent_block_us);
  for (How how : {How::idle, How::equal_priority, How::greatest_priority, How::launch_attribute}) {
    if (how == How::launch_attribute && !run.attribute_missing.empty()) continue;
    run.cases.push_back(sample_case(b, how, how == How::equal_priority ? run.least : run.greatest, samples));
  }
  nvtxRangePop();
  return run;
}

UrgentCase run_urgent_on(cudaStream_t urgent, int waves, double long_block_us, double urgent_block_us, int samples,
                         const lab::DeviceInfo& device) {
  PriorityRun run = set_up(waves, long_block_us, urgent_block_us, false, device);
  if (run.skipped) throw std::runtime_error("run_urgent_on: " + run.skip_reason);
  int priority = 0;
  LAB_CHECK(cudaStreamGetPriority(urgent, &priority));
  Bench b = make_bench(run, waves, long_block_us, urgent_block_us);
  b.given = urgent;
  return sample_case(b, How::given_stream, priority, samples);
}

}  // namespace ch11
