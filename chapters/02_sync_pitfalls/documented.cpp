#include "documented.hpp"

namespace ch02 {

namespace {

// What orders a call's work after the queued work: stream 0 (when it waits for
// the work's stream), nothing (the call queues no work), or the work's own stream.
enum class Order { stream_zero, none, own_stream };

// One call's documentation (kAllHostCalls order): when it returns, what orders
// its work, and whether the host waits for the work when it is ordered after it, and when not.
struct CallDocs {
  const char* returns;
  Order order;
  Documented wait_when_ordered, wait_otherwise;
};
constexpr CallDocs kCallDocs[] = {
    {"at once", Order::stream_zero, Documented::no, Documented::no},  // a kernel launch
    {"at once", Order::stream_zero, Documented::no, Documented::no},  // cudaMemcpyAsync to pinned memory
    // To pageable memory: "might be synchronous with respect to the host", so it may wait for its copy.
    {"may wait for its copy", Order::stream_zero, Documented::may, Documented::no},
    // cudaMemcpy, device to host: "returns only once the copy has completed".
    {"after its copy", Order::stream_zero, Documented::yes, Documented::no},
    // cudaMalloc: its API page does not say when the call returns (the Programming Guide's
    // 3.1.3.3 Implicit Synchronization lists "a device memory allocation" among what keeps
    // commands of different streams from running concurrently: chapter 04, section 5).
    {"not said (API page)", Order::none, Documented::unspecified, Documented::unspecified},
    // cudaFree of memory from cudaMalloc: "may perform implicit synchronization" (of memory
    // from cudaMallocAsync or cudaMallocFromPoolAsync it performs none).
    {"may synchronise", Order::none, Documented::may, Documented::may},
    {"after the stream's work", Order::own_stream, Documented::yes, Documented::yes}};  // cudaStreamSynchronize

const CallDocs& docs(HostCall call) { return kCallDocs[static_cast<int>(call)]; }

}  // namespace

bool stream_zero_waits_for_work(WorkSetup s) {
  return s == WorkSetup::blocking_stream || s == WorkSetup::per_thread_legacy_stream;
}

const char* documented_text(Documented d) {
  constexpr const char* kText[] = {"yes", "no", "may", "not said (API page)", "-"};
  return kText[static_cast<int>(d)];
}

const char* documented_return_text(HostCall call) { return docs(call).returns; }

Documented documented_order(HostCall call, WorkSetup setup) {
  switch (docs(call).order) {
    case Order::stream_zero: return stream_zero_waits_for_work(setup) ? Documented::yes : Documented::no;
    case Order::own_stream: return Documented::yes;  // stream order
    case Order::none: break;
  }
  return Documented::not_applicable;
}

Documented documented_wait(HostCall call, WorkSetup setup) {
  const bool ordered = documented_order(call, setup) == Documented::yes;
  return ordered ? docs(call).wait_when_ordered : docs(call).wait_otherwise;
}

// The background lines the program prints: the documentation's own words and where they are.

std::vector<lab::Background> host_timer_background() {
  return {
      {"a kernel launch returns immediately, usually before the kernel has completed; cudaStreamSynchronize "
       "blocks until the stream has completed all its work",
       "CUDA Programming Guide, 2.3 Asynchronous Execution; CUDA Runtime API, cudaStreamSynchronize"}};
}

std::vector<lab::Background> implicit_sync_background() {
  return {{"the legacy default stream waits for all blocking streams of its device, and they wait for it; streams made "
           "with cudaStreamNonBlocking do not synchronise with it",
           "CUDA Runtime API, 3. Stream synchronization behavior"},
          {"with --default-stream per-thread (per file), stream 0 is the calling thread's own stream: it does not "
           "synchronise with other streams, but still does with the legacy default stream",
           "CUDA Runtime API, 3. Stream synchronization behavior"},
          {"cudaMemcpy from device to host returns once the copy has completed; cudaMemcpyAsync between device and "
           "pageable memory might be synchronous; to pinned memory it is asynchronous",
           "CUDA Runtime API, 2. API synchronization behavior"},
          {"cudaFree: \"This API will not perform any implicit synchronization when the pointer was allocated with "
           "cudaMallocAsync or cudaMallocFromPoolAsync\" (the caller must then make sure every access to it has "
           "completed); \"For all other pointers, this API may perform implicit synchronization.\" The probe frees "
           "memory from cudaMalloc, so its cudaFree may. cudaMalloc's API page does not say when the call returns",
           "CUDA Runtime API, cudaFree and cudaMalloc"},
          {"\"Any CUDA API call may block or synchronize for various reasons such as contention for or "
           "unavailability of internal resources. Such behavior is subject to change and undocumented behavior "
           "should not be relied upon.\" So only a documented wait is judged here; the other rows say what the "
           "call did in this run",
           "CUDA Runtime API (current edition), 2. API synchronization behavior"},
          {"\"Two commands from different streams cannot run concurrently if any one of the following operations is "
           "issued in-between them by the host thread: ... a device memory allocation\"; \"Managing memory "
           "allocations using cudaMalloc and cudaFree causes the GPU to synchronize across all executing CUDA "
           "streams.\" This probe measures only when the host call returns",
           "CUDA Programming Guide, 3.1.3.3 Implicit Synchronization; 4.3.1 Stream-Ordered Memory Allocator, "
           "Introduction"}};
}

}  // namespace ch02
