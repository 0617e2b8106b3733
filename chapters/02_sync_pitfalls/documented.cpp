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
    {"not said", Order::none, Documented::unspecified, Documented::unspecified},  // cudaMalloc
    {"may synchronise", Order::none, Documented::may,
     Documented::may},  // cudaFree: "may perform implicit synchronization"
    {"after the stream's work", Order::own_stream, Documented::yes, Documented::yes}};  // cudaStreamSynchronize

const CallDocs& docs(HostCall call) { return kCallDocs[static_cast<int>(call)]; }

}  // namespace

bool stream_zero_waits_for_work(WorkSetup s) {
  return s == WorkSetup::blocking_stream || s == WorkSetup::per_thread_legacy_stream;
}

const char* documented_text(Documented d) {
  constexpr const char* kText[] = {"yes", "no", "may", "not said", "-"};
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

}  // namespace ch02
