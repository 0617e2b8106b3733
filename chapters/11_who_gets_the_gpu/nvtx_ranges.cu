// Section 6's lesson: what an NVTX range costs with no tool attached.
//
// NVTX 3 is header-only: each call goes through a pointer that a tool fills
// in when it injects itself (Nsight Systems sets NVTX_INJECTION64_PATH); with
// no tool the first call finds none and every later call returns at once.
#include <nvtx3/nvToolsExt.h>

#include "nvtx_ranges.cuh"
#include "timers.cuh"

namespace ch11 {

namespace {
constexpr int kPairs = 100000;  // a few ns each with no tool: 100000 make a sample well above the timer's step
}  // namespace

NvtxRun time_nvtx_ranges(int samples) {
  const int pairs = kPairs;
  NvtxRun run;
  run.pairs_per_sample = pairs;
  // [snippet:range]
  run.push_result = nvtxRangePushA("6. Ranges a profiler shows");  // -2: no tool tracks ranges
  // ... the work the range marks ...
  run.pop_result = nvtxRangePop();
  // [snippet:range]
  for (int s = 0; s < samples; ++s) {
    const lab::HostTimer timer;
    for (int i = 0; i < pairs; ++i) {
      nvtxRangePushA("a timed range");
      nvtxRangePop();
    }
    run.per_range_ns.push_back(timer.elapsed_ms() * 1e6 / pairs);
  }
  return run;
}

}  // namespace ch11
