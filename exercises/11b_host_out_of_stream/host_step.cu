// Exercise 11b: keep the host out of the stream.
//
// run_pair() below puts the host's work between two kernels with
// cudaLaunchHostFunc: the driver calls the step on a thread of its own once
// the first kernel has finished, and the stream goes on when the step has
// returned. Correct, but slow: chapter 11, section 4 measured the GPU idle
// a median of 68.9 us between two kernels around a host function on an H100
// (43.4 us in another run), 2.0 us with nothing between them, and 6.0 us when a
// host thread waited on an event
// instead. Do that: record an event after the first kernel, make the stream
// wait for a pinned word (cuStreamWaitValue32) before the second, and let a
// host thread wait on the event, run the step, and store the word that
// releases the stream. The second kernel must still see the step's work.
//
// Check your work:  scripts/progress ch11b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch11b_')
// Stuck? Read HINTS.md beside this file.
#include "block_recorder.cuh"
#include "check.cuh"
#include "clock.cuh"
#include "host_step.cuh"
#include "host_work.cuh"
#include "stream.cuh"

namespace exercise11b {

namespace {

// The first kernel: each block spins spin_ns (the GPU's work), then hands the host n values.
__global__ void produce(long long spin_ns, int n, unsigned round, unsigned* from_gpu, ch11::BlockRecord* records) {
  lab::record_block_start(records);
  const unsigned long long start = lab::globaltimer_ns();
  while (lab::globaltimer_ns() - start < static_cast<unsigned long long>(spin_ns)) {
  }
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) from_gpu[i] = 7u * static_cast<unsigned>(i) + round;
  lab::record_block_end(records);
}

// The second kernel: reads what the host step wrote.
__global__ void consume(int n, const unsigned* to_gpu, unsigned* out, ch11::BlockRecord* records) {
  lab::record_block_start(records);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = to_gpu[i] + 1u;
  lab::record_block_end(records);
}

}  // namespace

void run_pair(const Pair& pair, const HostStep& step, cudaStream_t stream) {
  produce<<<pair.blocks, kThreads, 0, stream>>>(pair.first_spin_ns, pair.n, pair.round, pair.from_gpu,
                                                pair.first_records);
  LAB_CHECK_LAUNCH();
  // TODO: instead of the host function, record an event on the stream (lab::Event, cudaEventDisableTiming) ...
  LAB_CHECK(cudaLaunchHostFunc(stream, step.run, step.data));
  // TODO: ... and make the stream wait until *pair.release_flag is at least 1:
  //       ch11::driver().cuStreamWaitValue32(stream, pair.release_flag_on_device, 1, CU_STREAM_WAIT_VALUE_GEQ)
  consume<<<pair.blocks, kThreads, 0, stream>>>(pair.n, pair.to_gpu, pair.out, pair.second_records);
  LAB_CHECK_LAUNCH();
  // TODO: now, on the host: wait for the event (not the stream: the stream waits for you), run the step
  //       (step.run(step.data)), then a fence (std::atomic_thread_fence, <atomic>) and store 1 into
  //       *pair.release_flag (a volatile store) to release the second kernel
}

}  // namespace exercise11b
