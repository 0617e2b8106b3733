// Section 3's probe, built with `--default-stream per-thread` (CMakeLists.txt
// sets it for this file only): in this file stream 0, and the stream cudaMemcpy
// uses, is the calling thread's own default stream (see implicit_sync.cuh).
#include "implicit_sync.cuh"
#include "sync_pitfalls.cuh"

#if !defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "implicit_sync_per_thread.cu must be built with --default-stream per-thread"
#endif

namespace ch02 {

CallProbe probe_host_call_per_thread(HostCall call, WorkSetup setup, ch01::AddProblem& problem,
                                     cudaStream_t work_stream, double queued_ms) {
  return probe_call(call, setup, problem, work_stream, queued_ms);  // implicit_sync.cuh, stream 0 = this thread's
}

}  // namespace ch02
