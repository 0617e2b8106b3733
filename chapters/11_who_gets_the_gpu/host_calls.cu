// Section 4's second half: a CUDA call inside a host function, each in a child
// process (see host_calls.cuh).
#include <cuda_runtime.h>

#include <sstream>

#include "check.cuh"
#include "child_process.hpp"
#include "host_calls.cuh"
#include "memory.cuh"
#include "stream.cuh"

namespace ch11 {

namespace {

struct HostCall {
  std::string name;
  cudaStream_t own = nullptr;    // the stream this host function runs in
  cudaStream_t other = nullptr;  // another stream, idle
  void* buffer = nullptr;        // 1 MiB of device memory for the memset
  void* allocated = nullptr;     // what the malloc call allocated
  cudaError_t returned = cudaSuccess;
  bool ran = false;
};

// [snippet:host_call]
// The host function: a CUDA call where the documentation says there must be none.
void CUDART_CB make_call(void* data) {
  auto* call = static_cast<HostCall*>(data);
  if (call->name == "stream_query") call->returned = cudaStreamQuery(call->other);
  if (call->name == "memset_async") call->returned = cudaMemsetAsync(call->buffer, 0, 1 << 20, call->other);
  if (call->name == "malloc") call->returned = cudaMalloc(&call->allocated, 1 << 20);
  if (call->name == "sync_own_stream") call->returned = cudaStreamSynchronize(call->own);  // its own stream
  call->ran = true;
}
// [snippet:host_call]

}  // namespace

const std::vector<std::string>& host_call_names() {
  static const std::vector<std::string> names{"stream_query", "memset_async", "malloc", "sync_own_stream"};
  return names;
}

HostCallProbe probe_host_call(const std::string& call) {
  HostCallProbe probe;
  probe.call = call;
  lab::Stream own(cudaStreamNonBlocking), other(cudaStreamNonBlocking);
  lab::DeviceBuffer<unsigned char> buffer(1 << 20);
  HostCall c{call, own.get(), other.get(), buffer.data()};
  LAB_CHECK(cudaLaunchHostFunc(own, make_call, &c));
  probe.sync_after = cudaGetErrorName(cudaStreamSynchronize(own));  // returns once the host function did
  (void)cudaGetLastError();  // the call's error is data, not a failure of the probe
  probe.returned = c.ran ? cudaGetErrorName(c.returned) : "-";
  probe.finished = true;
  if (c.allocated != nullptr) (void)cudaFree(c.allocated);
  return probe;
}

std::string host_call_line(const HostCallProbe& probe) {
  return "host_call " + probe.call + " " + probe.returned + " " + probe.sync_after;
}

bool read_host_call_line(const std::string& text, HostCallProbe& probe) {
  return lab::find_child_line(text, "host_call", [&](std::istream& in) {
    std::string call;
    if (!(in >> call >> probe.returned >> probe.sync_after) || call != probe.call) return false;
    probe.finished = true;
    return true;
  });
}

HostCallRun run_host_call_children(const std::string& program, bool instrumented, double timeout_s) {
  HostCallRun run;
  run.timeout_s = timeout_s;
  if (instrumented) {
    run.skipped = true;
    run.skip_reason = "the run is instrumented: the children are left out (a tool would follow each, and one hangs)";
    return run;
  }
  for (const std::string& call : host_call_names()) {
    HostCallProbe probe;
    probe.call = call;
    const lab::ChildOutput out = lab::run_child(program, {call}, timeout_s);
    if (!out.error.empty()) {
      probe.why_not = out.error;  // e.g. stopped after timeout_s: the call never returned
    } else if (out.exit_code != 0 || !read_host_call_line(out.text, probe)) {
      probe.why_not = lab::child_failure("ch11_host_call_child", out);
    }
    run.probes.push_back(probe);
  }
  return run;
}

std::string host_call_child_program() { return lab::program_beside_this_one("ch11_host_call_child"); }

}  // namespace ch11
