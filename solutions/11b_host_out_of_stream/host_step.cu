// Exercise 11b, solved: an event after the first kernel, a cuStreamWaitValue32
// before the second, and the host thread in between: it waits on the event,
// runs the step and stores the word the stream waits for. No host function is
// in the stream (chapter 11, section 4's "event_thread" does the same for a
// chain, with a thread of its own: release_each in host_work.cu).
#include <atomic>

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
  lab::Event first_done(cudaEventDisableTiming);
  LAB_CHECK(cudaEventRecord(first_done, stream));  // the host waits on this, the stream does not
  LAB_CHECK_CU(ch11::driver().cuStreamWaitValue32(stream, pair.release_flag_on_device, 1, CU_STREAM_WAIT_VALUE_GEQ));
  consume<<<pair.blocks, kThreads, 0, stream>>>(pair.n, pair.to_gpu, pair.out, pair.second_records);
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaEventSynchronize(first_done));  // the first kernel has finished: its values are there
  step.run(step.data);
  std::atomic_thread_fence(std::memory_order_seq_cst);      // the step's stores before the release
  *static_cast<volatile unsigned*>(pair.release_flag) = 1;  // the GPU's front end sees it: the second kernel runs
}

}  // namespace exercise11b
