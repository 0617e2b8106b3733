// Section 4's lesson: host work inside a stream, and the timed spin kernel that
// sections 3 to 5 read the GPU's schedule from.
//
// cudaLaunchHostFunc(stream, fn, data) queues a call of fn on a thread of the
// driver: the stream goes on only when fn has returned, so between the kernel
// before it and the kernel after it the GPU has nothing to run from this
// stream. The third way does the same with a thread of our own: after each
// kernel an event, and before the next one cuStreamWaitValue32 on a pinned
// flag; the thread waits on the event (cudaEventSynchronize) and stores the
// value the stream waits for. Unlike a host function, that thread may call CUDA.
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "block_recorder.cuh"
#include "check.cuh"
#include "clock.cuh"
#include "host_work.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "stream_blocker.cuh"

namespace ch11 {

namespace {

constexpr int kChainThreads = 128;  // a short kernel: one small block per SM

// [snippet:timed_spin]
// Each block spins spin_ns from its first instruction and records when it
// began, when it ended and on which SM (common/lesson/block_recorder.cuh). Block 0
// also tells the host it began.
__global__ void timed_spin(long long spin_ns, BlockRecord* records, int* started) {
  lab::record_block_start(records);
  __shared__ unsigned long long start;
  if (threadIdx.x == 0) {
    start = lab::globaltimer_ns();
    if (started != nullptr && blockIdx.x == 0) *static_cast<volatile int*>(started) = 1;  // pinned host memory
  }
  __syncthreads();
  while (lab::globaltimer_ns() - start < static_cast<unsigned long long>(spin_ns)) {
  }
  lab::record_block_end(records);  // every thread is done, then the end
}
// [snippet:timed_spin]

// [snippet:host_function]
// The host function: it runs on a driver thread, so it only counts; it must not call CUDA.
void CUDART_CB count_call(void* calls) { static_cast<std::atomic<long long>*>(calls)->fetch_add(1); }
// [snippet:host_function]

// The host thread of the third way: for each kernel k, waits for its event,
// then stores the value kernel k + 1's cuStreamWaitValue32 waits for. On an
// error it releases every wait, so the stream cannot hang, and reports it.
void release_each(int device, const std::vector<lab::Event>& done, int count, unsigned first, unsigned* flag,
                  std::atomic<long long>* calls, std::string* error) {
  try {
    LAB_CHECK(cudaSetDevice(device));  // a new thread starts on device 0
    for (int k = 0; k < count; ++k) {
      LAB_CHECK(cudaEventSynchronize(done[static_cast<std::size_t>(k)]));
      std::atomic_thread_fence(std::memory_order_seq_cst);
      *static_cast<volatile unsigned*>(flag) = first + static_cast<unsigned>(k) + 1;
      calls->fetch_add(1);
    }
  } catch (const std::exception& e) {
    *static_cast<volatile unsigned*>(flag) = first + static_cast<unsigned>(count);
    *error = e.what();
  }
}

}  // namespace

const DriverApi& driver() {
  static const DriverApi api = [] {
    DriverApi a;
    const auto find = [](const char* symbol, auto& function) {
      void* found = nullptr;
      cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
      if (cudaGetDriverEntryPointByVersion(symbol, &found, CUDART_VERSION, cudaEnableDefault, &status) != cudaSuccess ||
          status != cudaDriverEntryPointSuccess) {
        cudaGetLastError();  // not found is an answer, not an error a later check should see
        return;
      }
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(found);
    };
    find("cuGetErrorName", a.cuGetErrorName);
    find("cuGetErrorString", a.cuGetErrorString);
    find("cuDeviceGet", a.cuDeviceGet);
    find("cuStreamWaitValue32", a.cuStreamWaitValue32);
    find("cuStreamDestroy", a.cuStreamDestroy);
    find("cuDeviceGetDevResource", a.cuDeviceGetDevResource);
    find("cuDevSmResourceSplitByCount", a.cuDevSmResourceSplitByCount);
    find("cuDevResourceGenerateDesc", a.cuDevResourceGenerateDesc);
    find("cuGreenCtxCreate", a.cuGreenCtxCreate);
    find("cuGreenCtxStreamCreate", a.cuGreenCtxStreamCreate);
    find("cuGreenCtxDestroy", a.cuGreenCtxDestroy);
    return a;
  }();
  return api;
}

DriverError::DriverError(CUresult result, const char* call, const char* file, int line)
    : std::runtime_error([&] {
        const char* name = nullptr;
        const char* text = nullptr;
        if (driver().cuGetErrorName) driver().cuGetErrorName(result, &name);
        if (driver().cuGetErrorString) driver().cuGetErrorString(result, &text);
        return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + (name ? name : "?") + " (" +
               (text ? text : "unknown") + ")";
      }()),
      result_(result) {}

void launch_timed_spin(int blocks, int threads, long long spin_ns, BlockRecord* records, int* started,
                       cudaStream_t stream) {
  timed_spin<<<blocks, threads, 0, stream>>>(spin_ns, records, started);
  LAB_CHECK_LAUNCH();
}

int half_sm_threads() {
  const int per_sm = lab::current_device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
  const int per_block = lab::current_device_attribute(cudaDevAttrMaxThreadsPerBlock);
  const int half = std::min(per_sm / 2, per_block);
  return half >= 32 ? half / 32 * 32 : 32;
}

int timed_spin_blocks_per_sm(int threads) {
  int blocks = 0;
  LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, timed_spin, threads, 0));
  return blocks;
}

bool stream_memops_supported(std::string* reason) {
  int version = 0;
  LAB_CHECK(cudaDriverGetVersion(&version));
  const DriverApi& cu = driver();
  if (version < 12000 || !cu.cuStreamWaitValue32) {
    if (reason)
      *reason =
          "stream memory operations are on by default from driver CUDA 12.0; this one is " + std::to_string(version);
    return false;
  }
  // A wait already satisfied, as a probe: a GPU or platform without them answers CUDA_ERROR_NOT_SUPPORTED.
  lab::PinnedBuffer<unsigned> flag(1, cudaHostAllocMapped);
  flag[0] = 1;
  void* on_device = nullptr;
  LAB_CHECK(cudaHostGetDevicePointer(&on_device, flag.data(), 0));
  lab::Stream stream(cudaStreamNonBlocking);
  const CUresult probe =
      cu.cuStreamWaitValue32(stream, reinterpret_cast<CUdeviceptr>(on_device), 1, CU_STREAM_WAIT_VALUE_GEQ);
  if (probe == CUDA_ERROR_NOT_SUPPORTED) {
    if (reason) *reason = "cuStreamWaitValue32 on pinned host memory: CUDA_ERROR_NOT_SUPPORTED on this GPU";
    return false;
  }
  LAB_CHECK_CU(probe);
  stream.synchronize();
  return true;
}

// --- 4. Host work inside a stream ------------------------------------------------------

HostChainRun run_host_chain(int kernels, double kernel_us, int samples, bool instrumented,
                            const lab::DeviceInfo& device) {
  HostChainRun run;
  run.kernels = kernels;
  run.blocks = device.sm_count > 0 ? device.sm_count : 1;
  run.kernel_us = kernel_us;
  run.held = !instrumented && kernels <= kMaxHeldChain;
  const int blocks = run.blocks;
  const auto spin_ns = static_cast<long long>(kernel_us * 1e3);
  std::string no_memops;
  const bool memops = stream_memops_supported(&no_memops);

  lab::Stream stream(cudaStreamNonBlocking);
  lab::DeviceBuffer<BlockRecord> records(static_cast<std::size_t>(kernels) * blocks);
  lab::StreamBlocker blocker;
  lab::PinnedBuffer<unsigned> flag(1, cudaHostAllocMapped);  // what the third way's waits read
  flag[0] = 0;
  void* flag_on_device = nullptr;
  LAB_CHECK(cudaHostGetDevicePointer(&flag_on_device, flag.data(), 0));
  const auto flag_address = reinterpret_cast<CUdeviceptr>(flag_on_device);
  unsigned released = 0;  // the flag's value after the last sample
  std::vector<lab::Event> done;
  for (int k = 0; k + 1 < kernels; ++k) done.emplace_back(cudaEventDisableTiming);
  std::atomic<long long> calls{0};

  const char* names[] = {"no_host_function", "host_function", "event_thread"};
  for (int way = 0; way < 3; ++way) {
    HostChainVariant v;
    v.name = names[way];
    if (way == 2 && !memops) {
      v.skipped = true;
      v.skip_reason = no_memops;
      run.variants.push_back(v);
      continue;
    }
    for (int i = -1; i < samples; ++i) {  // i = -1 warms the way up (module loading), unheld and not kept
      const bool hold = run.held && i >= 0;
      LAB_CHECK(cudaMemsetAsync(records.data(), 0, records.bytes(), stream));  // a record not written reads 0
      calls = 0;
      if (hold) blocker.block(stream);  // the whole chain is queued first, then runs without the host's launches
      // [snippet:chain]
      for (int k = 0; k < kernels; ++k) {
        launch_timed_spin(blocks, kChainThreads, spin_ns, records.data() + static_cast<std::size_t>(k) * blocks,
                          nullptr, stream);
        if (k + 1 == kernels) break;
        if (way == 1) LAB_CHECK(cudaLaunchHostFunc(stream, count_call, &calls));  // a driver thread calls it
        if (way == 2) {  // our own thread: an event it waits on, and a wait it releases
          LAB_CHECK(cudaEventRecord(done[static_cast<std::size_t>(k)], stream));
          LAB_CHECK_CU(driver().cuStreamWaitValue32(stream, flag_address, released + static_cast<unsigned>(k) + 1,
                                                    CU_STREAM_WAIT_VALUE_GEQ));
        }
      }
      // [snippet:chain]
      std::string error;
      std::thread releaser;
      if (way == 2)
        releaser = std::thread(release_each, device.ordinal, std::cref(done), kernels - 1, released, flag.data(),
                               &calls, &error);
      if (hold) blocker.release();
      if (releaser.joinable()) releaser.join();
      if (way == 2) released += static_cast<unsigned>(kernels - 1);
      LAB_CHECK(cudaStreamSynchronize(stream));
      if (!error.empty()) throw std::runtime_error("the releasing thread: " + error);
      if (hold && blocker.timed_out())
        throw std::runtime_error("the held stream timed out before the chain was queued");
      if (i < 0) continue;
      const ChainGaps g = chain_gaps(records.download(), kernels, blocks);
      v.gaps_us.insert(v.gaps_us.end(), g.gaps_us.begin(), g.gaps_us.end());
      v.per_kernel_us.push_back(g.per_kernel_us);
      v.missing += g.missing;
      v.host_calls += calls;
      v.host_calls_expected += way == 0 ? 0 : kernels - 1;
    }
    run.variants.push_back(std::move(v));
  }
  return run;
}

}  // namespace ch11
