// Chapter 04's default-stream experiment, built with `--default-stream
// per-thread` (CMakeLists.txt sets it for this file only): in this file stream 0
// is the calling thread's own default stream (see default_stream_experiment.cuh).
#include "default_stream_experiment.cuh"

#if !defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "default_stream_per_thread.cu must be built with --default-stream per-thread"
#endif

namespace ch04 {

DefaultStreamRun default_stream_per_thread_build(unsigned side_flags, double spin_ms, bool use_legacy_handle) {
  if (use_legacy_handle) return three_spins("per-thread", side_flags, cudaStreamLegacy, "cudaStreamLegacy", spin_ms);
  return three_spins("per-thread", side_flags, 0, "stream 0", spin_ms);
}

}  // namespace ch04
