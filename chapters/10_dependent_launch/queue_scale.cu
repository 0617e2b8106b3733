// Chapter 10, section 6: the launch queue's depth under CUDA_SCALE_LAUNCH_QUEUES.
//
// A launch call returns at once while the driver's queue for the device has
// room; once it is full, the call waits until the GPU has taken work off it.
// Chapter 08 measured that depth (about a thousand empty kernels on the H100)
// by holding a stream and launching until a call waited. The Programming Guide
// documents CUDA_SCALE_LAUNCH_QUEUES as a factor on that queue's size (0.25x,
// 0.5x, 2x, 4x; anything else reads as 1x). The driver reads its environment
// when the context is created, so each value is measured in a child process of
// its own, and the depths are compared with the unset one's.
#include <cuda_runtime.h>

#include <cstdlib>
#include <string>

#include "check.cuh"
#include "checks.hpp"
#include "child_process.hpp"
#include "launch_graphs.cuh"
#include "queue_scale.cuh"
#include "statistics.hpp"
#include "stream.cuh"

namespace ch10 {

namespace {

// A launch call that has waited this long is taken as waiting for room (chapter 08's kStallMs):
// the holding kernel is released then, so nothing hangs.
constexpr double kStallMs = 100.0;
// A child that has not reported after this long is killed (each runs well under a second).
constexpr double kChildTimeoutS = 60.0;
constexpr char kVariable[] = "CUDA_SCALE_LAUNCH_QUEUES";

}  // namespace

QueueScaleProbe measure_queue_depth(std::int64_t max_launches) {
  QueueScaleProbe probe;
  const char* seen = std::getenv(kVariable);
  probe.seen = seen != nullptr ? seen : "";
  probe.value = probe.seen;
  probe.launches = max_launches;
  LAB_CHECK(cudaFree(nullptr));  // the context, created under the variable as set
  lab::Stream stream;
  const ch08::QueueFillRun fill = ch08::fill_launch_queue(max_launches, kStallMs, stream);
  probe.holding_timed_out = fill.holding_kernel_timed_out;
  probe.depth = fill.stalled_call;  // -1: every launch found room
  const std::size_t before = probe.depth >= 0 ? static_cast<std::size_t>(probe.depth) : fill.call_us.size();
  const std::vector<double> returned_at_once(fill.call_us.begin(), fill.call_us.begin() + before);
  probe.median_call_us = lab::median_or_nan(returned_at_once);
  if (probe.depth >= 0) probe.blocked_call_ms = fill.call_us[static_cast<std::size_t>(probe.depth)] * 1e-3;
  probe.measured = true;
  return probe;
}

QueueScaleRun run_queue_children(const std::string& child_program, const std::vector<std::string>& values,
                                 std::int64_t max_launches, bool instrumented) {
  QueueScaleRun run;
  if (instrumented) {
    run.skipped = true;
    run.skip_reason =
        "the run is instrumented (compute-sanitizer or a profiler): no child process is started, since the tool "
        "would follow it and change how fast the queue drains";
    return run;
  }
  for (const std::string& value : values) {
    QueueScaleProbe probe;
    probe.value = value;
    // The variable as asked, or removed ("": the driver's default); the child creates its context with it.
    const std::string variable = std::string(kVariable) + (value.empty() ? "" : "=" + value);
    const lab::ChildOutput out =
        lab::run_child(child_program, {std::to_string(max_launches)}, kChildTimeoutS, {variable});
    if (!out.error.empty()) {
      probe.why_not = out.error;
    } else if (out.exit_code != 0 || !read_queue_line(out.text, probe)) {
      probe.why_not = lab::child_failure("ch10_queue_child", out);
    }
    run.probes.push_back(probe);
  }
  return run;
}

std::string queue_child_program() { return lab::program_beside_this_one("ch10_queue_child"); }

}  // namespace ch10
