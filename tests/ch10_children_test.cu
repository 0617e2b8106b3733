// Chapter 10, sections 5 and 6 on the GPU: the capture child refuses what the
// documentation prohibits and allows what it allows, the capture's end says so,
// the context survives; the queue child runs and reports a depth.
#include <doctest/doctest.h>

#include <string>

#include "capture_rules.cuh"
#include "queue_scale.cuh"

namespace {

ch10::CaptureProbe capture(const std::string& mode, const std::string& call) {
  return ch10::run_capture_child(CH10_CAPTURE_CHILD, mode, call);
}

}  // namespace

TEST_CASE("cudaMalloc during a global capture is refused and invalidates it; relaxed allows it") {
  const ch10::CaptureProbe global = capture("global", "malloc");
  REQUIRE_MESSAGE(global.measured, global.why_not);
  CHECK(global.returned == "cudaErrorStreamCaptureUnsupported");
  CHECK(global.status_after == "invalidated");
  CHECK(global.end_capture == "cudaErrorStreamCaptureInvalidated");
  CHECK(global.graph_null);
  CHECK(global.context == "cudaSuccess");

  const ch10::CaptureProbe relaxed = capture("relaxed", "malloc");
  REQUIRE_MESSAGE(relaxed.measured, relaxed.why_not);
  CHECK(relaxed.returned == "cudaSuccess");
  CHECK(relaxed.status_after == "active");
  CHECK(relaxed.end_capture == "cudaSuccess");
  CHECK_FALSE(relaxed.graph_null);
  CHECK(relaxed.context == "cudaSuccess");
}

TEST_CASE("a thread that switches itself to relaxed may cudaMalloc during a global capture") {
  const ch10::CaptureProbe p = capture("global", "malloc_thread_relaxed");
  REQUIRE_MESSAGE(p.measured, p.why_not);
  CHECK(p.returned == "cudaSuccess");
  CHECK(p.end_capture == "cudaSuccess");
  CHECK_FALSE(p.graph_null);
}

TEST_CASE("synchronising a capturing stream is refused in every mode, and the context survives") {
  for (const char* mode : {"global", "thread_local", "relaxed"}) {
    CAPTURE(mode);
    const ch10::CaptureProbe p = capture(mode, "stream_synchronize");
    REQUIRE_MESSAGE(p.measured, p.why_not);
    CHECK(p.returned != "cudaSuccess");
    CHECK(p.graph_null);
    CHECK(p.context == "cudaSuccess");
  }
}

TEST_CASE("another thread's cudaMalloc is refused only while a global capture runs") {
  const ch10::CaptureProbe global = capture("global", "malloc_other_thread");
  REQUIRE_MESSAGE(global.measured, global.why_not);
  CHECK(global.returned != "cudaSuccess");
  const ch10::CaptureProbe local = capture("thread_local", "malloc_other_thread");
  REQUIRE_MESSAGE(local.measured, local.why_not);
  CHECK(local.returned == "cudaSuccess");
  CHECK(local.end_capture == "cudaSuccess");
}

TEST_CASE("the queue child fills its queue and reports the depth") {
  const ch10::QueueScaleRun run = ch10::run_queue_children(CH10_QUEUE_CHILD, {"", "2x"}, 16384, false);
  REQUIRE(run.probes.size() == 2);
  for (const ch10::QueueScaleProbe& p : run.probes) {
    REQUIRE_MESSAGE(p.measured, p.why_not);
    CHECK(p.seen == p.value);
    CHECK_FALSE(p.holding_timed_out);
    CHECK(p.depth > 16);  // chapter 08 saw about a thousand
    CHECK(p.depth < 16384);
    CHECK(p.blocked_call_ms > p.median_call_us * 1e-3);
  }
}

TEST_CASE("under an instrumented run neither child starts") {
  CHECK(ch10::run_capture_children(CH10_CAPTURE_CHILD, true).skipped);
  CHECK(ch10::run_queue_children(CH10_QUEUE_CHILD, {""}, 256, true).skipped);
}
