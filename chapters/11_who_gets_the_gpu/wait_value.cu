// Section 5's lesson: a stream held by a wait on memory.
//
// The spin blocker is a kernel: while it polls its flag, a warp of it is
// resident on one SM, and that SM has room for one block of the wave less.
// cuStreamWaitValue32(stream, address, value, CU_STREAM_WAIT_VALUE_GEQ) holds
// the stream until the 32-bit word at address is at least value ("work ordered
// after the operation will block until the given condition on the memory is
// satisfied"; where the GPU waits the Driver API does not say); the word here
// is pinned host memory, and the host releases the stream by storing to it. No
// kernel runs while it waits.
#include <chrono>
#include <thread>

#include "check.cuh"
#include "host_work.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "wait_value.cuh"

namespace ch11 {

namespace {

// Long enough for the holding kernel to be resident before the wave is launched.
constexpr auto kSettle = std::chrono::microseconds(200);

}  // namespace

WaitValueRun run_wait_value(double block_us, int samples, bool instrumented, const lab::DeviceInfo& device) {
  WaitValueRun run;
  run.sm_count = device.sm_count > 0 ? device.sm_count : 1;
  run.threads = half_sm_threads();
  run.blocks_per_sm = timed_spin_blocks_per_sm(run.threads);
  run.block_us = block_us;
  if (!stream_memops_supported(&run.skip_reason)) {
    run.skipped = true;
    return run;
  }
  if (instrumented) {
    run.skipped = true;
    run.skip_reason = "the run is instrumented: a tool that serialises kernels runs the spin blocker to its timeout";
    return run;
  }
  const int blocks = run.sm_count * run.blocks_per_sm;  // one full wave: every block slot of every SM
  const auto spin_ns = static_cast<long long>(block_us * 1e3);
  lab::Stream held(cudaStreamNonBlocking), other(cudaStreamNonBlocking);
  lab::DeviceBuffer<BlockRecord> wave(static_cast<std::size_t>(blocks)), behind(1);
  lab::StreamBlocker spin_blocker;
  lab::PinnedBuffer<unsigned> flag(1, cudaHostAllocMapped);
  flag[0] = 0;
  void* flag_on_device = nullptr;
  LAB_CHECK(cudaHostGetDevicePointer(&flag_on_device, flag.data(), 0));
  const auto flag_address = reinterpret_cast<CUdeviceptr>(flag_on_device);
  unsigned value = 0;
  launch_timed_spin(blocks, run.threads, spin_ns, wave.data(), nullptr, other);  // loads the module
  LAB_CHECK(cudaDeviceSynchronize());

  const char* names[] = {"stream_free", "spin_blocker", "wait_value"};
  for (int way = 0; way < 3; ++way) {
    WaveWay w;
    w.name = names[way];
    for (int i = 0; i < samples; ++i) {
      LAB_CHECK(cudaMemsetAsync(wave.data(), 0, wave.bytes(), other));
      LAB_CHECK(cudaMemsetAsync(behind.data(), 0, behind.bytes(), held));
      LAB_CHECK(cudaDeviceSynchronize());
      // [snippet:hold]
      if (way == 1) spin_blocker.block(held);  // a kernel that polls a pinned flag
      if (way == 2)                            // the stream waits on it: no kernel
        LAB_CHECK_CU(driver().cuStreamWaitValue32(held, flag_address, ++value, CU_STREAM_WAIT_VALUE_GEQ));
      if (way != 0) launch_timed_spin(1, 32, 0, behind.data(), nullptr, held);  // the work the hold holds back
      std::this_thread::sleep_for(kSettle);
      launch_timed_spin(blocks, run.threads, spin_ns, wave.data(), nullptr, other);  // one full wave
      LAB_CHECK(cudaStreamSynchronize(other));
      if (way == 1) spin_blocker.release();
      if (way == 2) *static_cast<volatile unsigned*>(flag.data()) = value;  // a plain store releases the stream
      // [snippet:hold]
      LAB_CHECK(cudaStreamSynchronize(held));
      const std::vector<BlockRecord> records = wave.download();
      const KernelSpan span = span_of(records.data(), records.size());
      w.wave_us.push_back(span.us());
      w.late_blocks.push_back(late_blocks(records, block_us / 2));
      w.missing += span.missing;
      const BlockRecord after = behind.download()[0];
      w.held += way != 0 && after.start_ns >= span.last_end_ns && !(way == 1 && spin_blocker.timed_out()) ? 1 : 0;
      ++w.samples;
    }
    run.ways.push_back(std::move(w));
  }
  return run;
}

}  // namespace ch11
