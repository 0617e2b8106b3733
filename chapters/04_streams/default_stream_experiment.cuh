/// @file default_stream_experiment.cuh
/// @brief The body of chapter 04's default-stream experiment, compiled twice:
/// by default_stream_legacy.cu (stream 0 = the legacy default stream) and by
/// default_stream_per_thread.cu (built with `--default-stream per-thread`:
/// stream 0 = the calling thread's own stream). The same source means two
/// different things, which is the lesson.
///
/// Everything here has internal linkage (an unnamed namespace), so the two
/// translation units each keep their own copy; a shared inline function would
/// let the linker pick one build's meaning of stream 0 for both. For the same
/// reason only helpers whose CUDA calls do not depend on the default stream
/// (buffer creation, the clock, LAB_CHECK) are used from common/; the streams
/// are created here, with the flags the experiment is about.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "check.cuh"
#include "clock.cuh"
#include "memory.cuh"
#include "streams.cuh"
#include "timers.cuh"

namespace ch04 {
namespace {

// Spins for `ns` of %globaltimer and stamps when it began and ended, so the
// host can see which kernels ran at the same time.
__global__ void spin_and_stamp(unsigned long long ns, unsigned long long* begin, unsigned long long* end) {
  const unsigned long long start = lab::globaltimer_ns();
  unsigned long long now = start;
  while (now - start < ns) now = lab::globaltimer_ns();
  *begin = start;
  *end = now;
}

// A on stream a, the middle kernel on `middle`, B on stream b, queued in that order.
DefaultStreamRun three_spins(const char* build, unsigned side_flags, cudaStream_t middle, const char* middle_name,
                             double spin_ms) {
  cudaStream_t a, b;  // side_flags: cudaStreamDefault (blocking) or cudaStreamNonBlocking
  LAB_CHECK(cudaStreamCreateWithFlags(&a, side_flags));
  LAB_CHECK(cudaStreamCreateWithFlags(&b, side_flags));
  lab::PinnedBuffer<unsigned long long> stamps(6);  // written by the kernels through unified addressing
  std::fill(stamps.begin(), stamps.end(), 0ULL);    // a kernel that never ran leaves zero length
  const auto ns = static_cast<unsigned long long>(spin_ms * 1e6);
  spin_and_stamp<<<1, 1, 0, a>>>(0, &stamps[0], &stamps[3]);  // load the kernel before timing
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaDeviceSynchronize());

  DefaultStreamRun run;
  run.build = build;
  run.side_streams = side_flags == cudaStreamNonBlocking ? "non-blocking" : "blocking";
  run.middle = middle_name;
  run.spin_ms = spin_ms;
  lab::HostTimer wall;
  spin_and_stamp<<<1, 1, 0, a>>>(ns, &stamps[0], &stamps[3]);
  LAB_CHECK_LAUNCH();
  spin_and_stamp<<<1, 1, 0, middle>>>(ns, &stamps[1], &stamps[4]);
  LAB_CHECK_LAUNCH();
  spin_and_stamp<<<1, 1, 0, b>>>(ns, &stamps[2], &stamps[5]);
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaDeviceSynchronize());
  run.wall_ms = wall.elapsed_ms();
  LAB_CHECK(cudaStreamDestroy(a));
  LAB_CHECK(cudaStreamDestroy(b));

  const unsigned long long origin = std::min({stamps[0], stamps[1], stamps[2]});
  run.all_ran = true;
  for (int k = 0; k < 3; ++k) {
    run.begin_ms[k] = static_cast<double>(stamps[k] - origin) * 1e-6;
    run.end_ms[k] = static_cast<double>(stamps[k + 3] - origin) * 1e-6;
    run.all_ran = run.all_ran && stamps[k + 3] - stamps[k] >= ns;
  }
  return run;
}

}  // namespace
}  // namespace ch04
