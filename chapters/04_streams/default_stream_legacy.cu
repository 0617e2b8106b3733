// Chapter 04's default-stream experiment, built the default way: in this file
// stream 0 is the legacy default stream (see default_stream_experiment.cuh).
#include "default_stream_experiment.cuh"

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "default_stream_legacy.cu must be built without --default-stream per-thread"
#endif

namespace ch04 {

DefaultStreamRun default_stream_legacy_build(unsigned side_flags, double spin_ms) {
  return three_spins("legacy", side_flags, 0, "stream 0", spin_ms);
}

}  // namespace ch04
