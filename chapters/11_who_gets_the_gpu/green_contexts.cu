// Section 3's lesson: green contexts.
//
// A green context is a context with a set of SMs of its own: work queued on a
// stream created with cuGreenCtxStreamCreate runs only on those SMs. The split
// is made on the device's SM resource: cuDevSmResourceSplitByCount rounds the
// count asked for up to what the GPU can give (on compute capability 9.0, a
// multiple of 8), and hands back the rest as a remainder, which becomes the
// large part (the Driver API: the remainder "does not have the same functional
// or performance guarantees as the groups in result"; the page says what that
// means here). Kernels are launched on the green streams with <<<>>> as on any
// stream; memory from cudaMalloc is shared with the primary context. A GPU or
// driver that refuses any of these calls skips the section, with the error's name.
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "check.cuh"
#include "green_contexts.cuh"
#include "host_work.cuh"
#include "memory.cuh"
#include "stream.cuh"

namespace ch11 {

namespace {

constexpr int kUrgentThreads = 128;
constexpr auto kStartTimeout = std::chrono::seconds(10);

// A green context and its stream, destroyed when it goes out of scope.
struct GreenContext {
  CUgreenCtx context = nullptr;
  CUstream stream = nullptr;
  GreenContext() = default;
  GreenContext(const GreenContext&) = delete;
  GreenContext& operator=(const GreenContext&) = delete;
  ~GreenContext() {  // errors cannot be thrown here
    if (stream != nullptr) driver().cuStreamDestroy(stream);
    if (context != nullptr) driver().cuGreenCtxDestroy(context);
  }
};

// "call returned CUDA_ERROR_...": why the section is skipped.
std::string refused(const char* call, CUresult result) {
  const char* name = nullptr;
  if (driver().cuGetErrorName) driver().cuGetErrorName(result, &name);
  return std::string(call) + " returned " + (name ? name : std::to_string(result));
}

GreenRun skip(GreenRun run, std::string why) {
  run.skipped = true;
  run.skip_reason = std::move(why);
  return run;
}

// [snippet:green_context]
// A green context owning the SMs of @p part, and a stream whose work runs on them.
// Returns "" when the three calls succeeded, else which one refused and how.
std::string create_green_context(GreenContext& g, CUdevResource* part, CUdevice device) {
  CUdevResourceDesc desc = nullptr;
  CUresult r = driver().cuDevResourceGenerateDesc(&desc, part, 1);
  if (r != CUDA_SUCCESS) return refused("cuDevResourceGenerateDesc", r);
  r = driver().cuGreenCtxCreate(&g.context, desc, device, CU_GREEN_CTX_DEFAULT_STREAM);
  if (r != CUDA_SUCCESS) return refused("cuGreenCtxCreate", r);
  r = driver().cuGreenCtxStreamCreate(&g.stream, g.context, CU_STREAM_NON_BLOCKING, 0);
  return r == CUDA_SUCCESS ? "" : refused("cuGreenCtxStreamCreate", r);
}
// [snippet:green_context]

// Waits until block 0 of the long kernel has set *started (pinned memory).
void wait_until_started(const int* started) {
  const auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
  while (*static_cast<const volatile int*>(started) == 0)
    if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("the long kernel did not start in 10 s");
}

// Records of @p buffer (after its stream is idle) as a span.
KernelSpan span_now(const lab::DeviceBuffer<BlockRecord>& buffer) {
  const std::vector<BlockRecord> records = buffer.download();
  return span_of(records.data(), records.size());
}

}  // namespace

GreenSettings green_settings(const Options& o) {
  return {static_cast<int>(o.green_sms), static_cast<int>(o.long_waves), o.long_block_us, o.urgent_block_us,
          static_cast<int>(o.reps)};
}

GreenRun run_green_contexts(const GreenSettings& s, const lab::DeviceInfo& device) {
  GreenRun run;
  run.sm_count = device.sm_count;
  run.asked_sms = s.green_sms;
  run.long_block_us = s.long_block_us;
  run.urgent_block_us = s.urgent_block_us;
  int version = 0;
  LAB_CHECK(cudaDriverGetVersion(&version));
  const DriverApi& cu = driver();
  if (version < 12050 || !cu.cuDeviceGet || !cu.cuDeviceGetDevResource || !cu.cuDevSmResourceSplitByCount ||
      !cu.cuDevResourceGenerateDesc || !cu.cuGreenCtxCreate || !cu.cuGreenCtxStreamCreate || !cu.cuGreenCtxDestroy)
    return skip(run, "green contexts with streams (cuGreenCtxStreamCreate) need a driver for CUDA 12.5; this one: " +
                         std::to_string(version));
  CUdevice dev = 0;
  LAB_CHECK_CU(driver().cuDeviceGet(&dev, device.ordinal));

  // [snippet:split]
  CUdevResource all = {};  // every SM of the GPU, with the rules of a split
  const CUresult got = driver().cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM);
  if (got != CUDA_SUCCESS) return skip(run, refused("cuDeviceGetDevResource(CU_DEV_RESOURCE_TYPE_SM)", got));
  run.min_partition_sms = static_cast<int>(all.sm.minSmPartitionSize);
  run.alignment_sms = static_cast<int>(all.sm.smCoscheduledAlignment);
  if (s.green_sms >= static_cast<int>(all.sm.smCount))
    return skip(run, "--green-sms " + std::to_string(s.green_sms) + " leaves no SM of " +
                         std::to_string(all.sm.smCount) + " for the large part");
  CUdevResource small = {}, large = {};
  unsigned groups = 1;  // one group of at least green_sms SMs; the rest, the remainder, goes to `large`
  const CUresult split =
      driver().cuDevSmResourceSplitByCount(&small, &groups, &all, &large, 0, static_cast<unsigned>(s.green_sms));
  if (split != CUDA_SUCCESS) return skip(run, refused("cuDevSmResourceSplitByCount", split));
  // [snippet:split]
  run.small_sms = groups == 1 ? static_cast<int>(small.sm.smCount) : 0;
  run.large_sms = static_cast<int>(large.sm.smCount);
  if (run.small_sms == 0 || run.large_sms == 0)
    return skip(run, "the split gave " + std::to_string(run.small_sms) + " and " + std::to_string(run.large_sms) +
                         " SMs: one part is empty");
  GreenContext small_part, large_part;
  std::string why_not = create_green_context(small_part, &small, dev);
  if (why_not.empty()) why_not = create_green_context(large_part, &large, dev);
  if (!why_not.empty()) return skip(run, why_not);

  const int threads = half_sm_threads();  // two long blocks fill an SM: an urgent block cannot squeeze in
  run.blocks_per_sm = timed_spin_blocks_per_sm(threads);
  run.long_blocks = s.long_waves * run.blocks_per_sm * run.sm_count;
  run.urgent_blocks = run.small_sms;
  const auto long_ns = static_cast<long long>(s.long_block_us * 1e3);
  const auto urgent_ns = static_cast<long long>(s.urgent_block_us * 1e3);
  lab::DeviceBuffer<BlockRecord> long_records(static_cast<std::size_t>(run.long_blocks));
  lab::DeviceBuffer<BlockRecord> urgent_records(static_cast<std::size_t>(run.urgent_blocks));
  lab::PinnedBuffer<int> started(1, cudaHostAllocMapped);
  lab::Stream long_stream(cudaStreamNonBlocking), urgent_stream(cudaStreamNonBlocking);  // primary context
  lab::Event before, after;
  const auto part_way = std::chrono::microseconds(static_cast<long long>(s.long_block_us / 4));

  // The urgent kernel on @p stream between two events; its start delay once both are done.
  const auto queue_urgent = [&](cudaStream_t stream) {
    LAB_CHECK(cudaMemsetAsync(urgent_records.data(), 0, urgent_records.bytes(), stream));  // unwritten: start 0
    LAB_CHECK(cudaEventRecord(before, stream));
    launch_timed_spin(run.urgent_blocks, kUrgentThreads, urgent_ns, urgent_records.data(), nullptr, stream);
    LAB_CHECK(cudaEventRecord(after, stream));
  };
  const auto urgent_delay = [&]() {
    LAB_CHECK(cudaEventSynchronize(after));
    return static_cast<double>(lab::Event::elapsed_ms(before, after)) * 1e3 - span_now(urgent_records).us();
  };
  // The long kernel on @p long_on; once it runs (and a quarter block later), the urgent one on @p urgent_on.
  const auto long_then_urgent = [&](cudaStream_t long_on, cudaStream_t urgent_on) {
    started[0] = 0;
    LAB_CHECK(cudaMemsetAsync(long_records.data(), 0, long_records.bytes(), long_on));
    launch_timed_spin(run.long_blocks, threads, long_ns, long_records.data(), started.data(), long_on);
    wait_until_started(started.data());
    std::this_thread::sleep_for(part_way);
    queue_urgent(urgent_on);
  };
  for (cudaStream_t warm : {small_part.stream, large_part.stream, long_stream.get()}) {  // loads the module
    launch_timed_spin(1, kUrgentThreads, 0, urgent_records.data(), nullptr, warm);
    LAB_CHECK(cudaStreamSynchronize(warm));
  }

  std::set<unsigned> long_sms, urgent_sms;
  for (int i = 0; i < s.samples; ++i) {
    queue_urgent(small_part.stream);  // idle: nothing else on the GPU
    run.idle_delay_us.push_back(urgent_delay());

    LAB_CHECK(cudaMemsetAsync(long_records.data(), 0, long_records.bytes(), long_stream));
    launch_timed_spin(run.long_blocks, threads, long_ns, long_records.data(), nullptr, long_stream);
    LAB_CHECK(cudaStreamSynchronize(long_stream));
    run.long_all_us.push_back(span_now(long_records).us());

    long_then_urgent(large_part.stream, small_part.stream);  // the two green contexts
    run.green_delay_us.push_back(urgent_delay());
    LAB_CHECK(cudaStreamSynchronize(large_part.stream));
    const KernelSpan long_span = span_now(long_records), urgent_span = span_now(urgent_records);
    run.long_large_us.push_back(long_span.us());
    long_sms.insert(long_span.sms.begin(), long_span.sms.end());
    urgent_sms.insert(urgent_span.sms.begin(), urgent_span.sms.end());

    long_then_urgent(long_stream, urgent_stream);  // both in the primary context, every SM shared
    run.shared_delay_us.push_back(urgent_delay());
    LAB_CHECK(cudaStreamSynchronize(long_stream));
  }
  run.long_sms_used = static_cast<int>(long_sms.size());
  run.urgent_sms_used = static_cast<int>(urgent_sms.size());
  for (unsigned sm : urgent_sms) run.shared_sms += static_cast<int>(long_sms.count(sm));
  return run;
}

}  // namespace ch11
