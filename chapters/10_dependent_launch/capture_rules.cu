// Chapter 10, section 5: what stream capture forbids, as data.
//
// A captured stream does not run what is queued on it: cudaStreamBeginCapture
// turns every operation queued on it into a node of a graph, which
// cudaStreamEndCapture hands back. Calls that cannot be recorded that way
// (waiting for the stream, asking whether it is done, an allocation the graph
// would not replay, the legacy stream's implicit wait for a blocking stream)
// are refused, and the refusal invalidates the capture. Which calls count as
// "potentially unsafe" depends on the capture mode, and, for global mode, on
// other threads as well. Each probe below runs in a process of its own.
#include <cuda_runtime.h>

#include <cstdio>
#include <stdexcept>
#include <thread>

#include "capture_rules.cuh"
#include "check.cuh"
#include "checks.hpp"
#include "child_process.hpp"
#include "memory.cuh"
#include "stream.cuh"

namespace ch10 {

namespace {

// The value the kernel after the capture writes: read back, it shows the context still works.
constexpr int kAlive = 42;
// The value the captured kernel would write (the graph is never run).
constexpr int kCaptured = 7;
// A small allocation: the call is what matters, not its size.
constexpr std::size_t kBytes = 256;
// A child that has not reported after this long is killed (each runs well under a second).
constexpr double kChildTimeoutS = 30.0;

__global__ void write_value(int* out, int value) { *out = value; }

cudaStreamCaptureMode capture_mode(const std::string& mode) {
  if (mode == "global") return cudaStreamCaptureModeGlobal;
  if (mode == "thread_local") return cudaStreamCaptureModeThreadLocal;
  if (mode == "relaxed") return cudaStreamCaptureModeRelaxed;
  throw std::invalid_argument("unknown capture mode '" + mode + "'");
}

const char* status_name(cudaStreamCaptureStatus status) {
  switch (status) {
    case cudaStreamCaptureStatusNone: return "none";
    case cudaStreamCaptureStatusActive: return "active";
    case cudaStreamCaptureStatusInvalidated: return "invalidated";
  }
  return "unknown";
}

// The probed call, made while @p stream captures. Its result is the data: it is
// returned, not checked, and the error it leaves is cleared by the caller.
cudaError_t make_call(const std::string& call, cudaStream_t stream, cudaEvent_t event, int* value, void** allocated) {
  int host = 0;
  if (call == "malloc") return cudaMalloc(allocated, kBytes);  // not a stream operation: capture cannot record it
  if (call == "malloc_other_thread") {
    // Another thread, in its own (default, global) mode, allocates while this one captures.
    cudaError_t returned = cudaSuccess;
    std::thread other([&] { returned = cudaMalloc(allocated, kBytes); });
    other.join();
    return returned;
  }
  if (call == "malloc_thread_relaxed") {
    // This thread switches itself to relaxed around the call (PyTorch's allocator does so), then back.
    cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeRelaxed;
    LAB_CHECK(cudaThreadExchangeStreamCaptureMode(&thread_mode));
    const cudaError_t returned = cudaMalloc(allocated, kBytes);
    LAB_CHECK(cudaThreadExchangeStreamCaptureMode(&thread_mode));
    return returned;
  }
  if (call == "stream_synchronize") return cudaStreamSynchronize(stream);  // waits for work that will not run
  if (call == "stream_query") return cudaStreamQuery(stream);              // asks whether it is done
  if (call == "device_synchronize") return cudaDeviceSynchronize();        // waits for every stream
  if (call == "memcpy_legacy" || call == "memcpy_legacy_nonblocking_capture")
    // Synchronous: queued on the legacy default stream, which waits for every blocking stream.
    return cudaMemcpy(&host, value, sizeof(int), cudaMemcpyDeviceToHost);
  if (call == "event_query_captured") {
    LAB_CHECK(cudaEventRecord(event, stream));  // a captured event: a set of nodes, not a point in time
    return cudaEventQuery(event);
  }
  if (call == kOutsideCaptureCall) return cudaEventRecordWithFlags(event, stream, cudaEventRecordExternal);
  throw std::invalid_argument("unknown call '" + call + "'");
}

// After the capture: a kernel, a copy back and a sync. "cudaSuccess" when all
// worked and the kernel's value came back, else the first error (or "wrong_value").
std::string context_after(cudaStream_t stream, int* value) {
  write_value<<<1, 1, 0, stream>>>(value, kAlive);
  cudaError_t e = cudaGetLastError();
  int host = 0;
  if (e == cudaSuccess) e = cudaMemcpyAsync(&host, value, sizeof(int), cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return cudaGetErrorName(e);
  return host == kAlive ? "cudaSuccess" : "wrong_value";
}

}  // namespace

CaptureProbe probe_capture_call(const std::string& mode, const std::string& call) {
  CaptureProbe probe;
  probe.mode = mode;
  probe.call = call;
  const bool capture = call != kOutsideCaptureCall;
  // The legacy stream waits for blocking streams only: capture one for that row,
  // a non-blocking one for every other.
  lab::Stream stream(call == "memcpy_legacy" ? cudaStreamDefault : cudaStreamNonBlocking);
  lab::DeviceBuffer<int> value(1);
  lab::Event event;
  // Everything set up before the capture: the context, the kernel's module, the value.
  write_value<<<1, 1, 0, stream>>>(value.data(), 0);
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaDeviceSynchronize());

  if (capture) {
    LAB_CHECK(cudaStreamBeginCapture(stream, capture_mode(mode)));
    write_value<<<1, 1, 0, stream>>>(value.data(), kCaptured);  // recorded as a kernel node, not run
    LAB_CHECK_LAUNCH();
  }
  void* allocated = nullptr;
  probe.returned = cudaGetErrorName(make_call(call, stream, event, value.data(), &allocated));
  (void)cudaGetLastError();  // the probed call's error is data, not a failure of what follows

  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const cudaError_t asked = cudaStreamIsCapturing(stream, &status);
  probe.status_after = asked == cudaSuccess ? status_name(status) : cudaGetErrorName(asked);
  probe.end_capture = "-";
  if (capture) {
    cudaGraph_t graph = nullptr;
    probe.end_capture = cudaGetErrorName(cudaStreamEndCapture(stream, &graph));
    probe.graph_null = graph == nullptr;
    if (graph != nullptr) LAB_CHECK(cudaGraphDestroy(graph));
    (void)cudaGetLastError();
  }
  if (allocated != nullptr) (void)cudaFree(allocated);  // after the capture: no longer a question
  probe.context = context_after(stream, value.data());
  probe.measured = true;
  return probe;
}

CaptureProbe run_capture_child(const std::string& child_program, const std::string& mode, const std::string& call) {
  CaptureProbe probe;
  probe.mode = mode;
  probe.call = call;
  const lab::ChildOutput out = lab::run_child(child_program, {"--mode", mode, "--call", call}, kChildTimeoutS);
  if (!out.error.empty()) {
    probe.why_not = out.error;
  } else if (out.exit_code != 0 || !read_capture_line(out.text, probe)) {
    probe.why_not = lab::child_failure("ch10_capture_child", out);
  }
  return probe;
}

CaptureRun run_capture_children(const std::string& child_program, bool instrumented) {
  CaptureRun run;
  if (instrumented) {
    run.skipped = true;
    run.skip_reason =
        "the run is instrumented (compute-sanitizer or a profiler): the capture children are left out by design, "
        "since their calls fail on purpose and the tool would follow each child";
    return run;
  }
  for (const std::string& call : capture_call_names()) {
    for (const std::string& mode : capture_mode_names())
      run.probes.push_back(run_capture_child(child_program, mode, call));
  }
  run.probes.push_back(run_capture_child(child_program, "none", kOutsideCaptureCall));
  return run;
}

std::string capture_child_program() { return lab::program_beside_this_one("ch10_capture_child"); }

}  // namespace ch10
