// Chapter 13's timers, one function per section of the chapter page.
//
// The naive pair is what most benchmark code does; the reference harness adds
// one defence per pitfall of the gallery: a held stream (no launch gap inside
// the window), a fork and a join of every stream the callable declares (its
// work inside the window), fresh inputs and a poisoned output read at the stop
// event (a cached or late result shows), and a query of every declared stream
// (nothing left queued). CUPTI records every call from outside.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "check.cuh"
#include "checks.hpp"
#include "cupti_timeline.cuh"
#include "harness.cuh"
#include "l2_flush.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "timers.cuh"

namespace ch13 {

// Records one call at a time with CUPTI; after the first refusal it stops trying.
void CallRecorder::begin() {
  if (why_.empty() && !recorder_.start(&why_) && why_.empty()) why_ = "CUPTI refused to start";
}

// Waits for the device (TimelineRecorder::stop does), then keeps the call's own work.
GpuWork CallRecorder::end() {
  GpuWork work;
  if (!why_.empty()) return work;
  double first = 0, last = 0;
  for (const lab::Interval& i : recorder_.stop()) {
    const bool harness = i.kind == lab::Interval::Kind::memset || i.direction == "DtoH" ||
                         i.name.find("hold_stream_kernel") != std::string::npos;
    if (harness || (i.kind != lab::Interval::Kind::kernel && i.kind != lab::Interval::Kind::memcpy)) continue;
    first = work.recorded ? std::min(first, i.start_ns) : i.start_ns;
    last = work.recorded ? std::max(last, i.end_ns) : i.end_ns;
    work.busy_us += (i.end_ns - i.start_ns) * 1e-3;
    work.recorded = true;
  }
  if (recorder_.dropped() > 0) return GpuWork{};
  work.span_us = (last - first) * 1e-3;
  return work;
}

namespace {

bool all_nan_free(const std::vector<float>& values) {
  return std::none_of(values.begin(), values.end(), [](float v) { return std::isnan(v); });
}

// What the output holds now, against the CPU's answer for this call's inputs.
OutputAtStop classify(const std::vector<float>& out, const Problem& p) {
  if (out == p.expected()) return OutputAtStop::matched;
  return all_nan_free(out) ? OutputAtStop::stale : OutputAtStop::unwritten;
}

constexpr char kHeldTooLong[] =
    "the held stream timed out before its sample was queued (is a profiler serialising kernels?)";
constexpr char kMissing[] = "CUPTI recorded nothing for a call (records dropped, or no work seen)";

}  // namespace

// --- 1. The gallery, read by a naive event pair ------------------------------------

GalleryRun time_naive(Gallery& gallery, int samples, std::uint64_t seed, cudaStream_t caller) {
  GalleryRun run;
  CallRecorder cupti;
  lab::Event start, stop;
  for (Workload& w : gallery.workloads()) {
    WorkloadRun r;
    r.id = w.id;
    r.name = w.name;
    r.honest = w.honest;
    r.naive_reads_first = w.naive_reads_first;
    r.truth_from_first_call = w.truth_from_first_call;
    w.problem->fill(seed, caller);  // the same inputs on every call, as a naive benchmark does
    for (int i = 0; i < samples; ++i) {
      w.problem->poison(caller);
      LAB_CHECK(cudaDeviceSynchronize());  // each call meets an idle GPU
      cupti.begin();
      // [snippet:naive]
      LAB_CHECK(cudaEventRecord(start, caller));
      w.call(caller);
      LAB_CHECK(cudaEventRecord(stop, caller));
      LAB_CHECK(cudaEventSynchronize(stop));
      float ms = 0.0f;
      LAB_CHECK(cudaEventElapsedTime(&ms, start, stop));
      // [snippet:naive]
      r.naive_us.push_back(ms * 1e3);
      const GpuWork work = cupti.end();  // waits for the whole device
      if (work.recorded) {
        r.naive_cupti_span_us.push_back(work.span_us);
        r.naive_cupti_busy_us.push_back(work.busy_us);
      } else if (r.cupti_missing.empty()) {
        r.cupti_missing = cupti.why_not().empty() ? kMissing : cupti.why_not();
      }
      LAB_CHECK(cudaDeviceSynchronize());
      r.naive_matched += w.problem->read(caller) == w.problem->expected();
    }
    run.workloads.push_back(r);
  }
  return run;
}

// --- 2. The reference harness ---------------------------------------------------------

namespace {

// Two events back to back behind a held stream: what the pair adds to any window.
std::vector<double> empty_pairs(int samples, lab::StreamBlocker& blocker, cudaStream_t caller) {
  std::vector<double> out;
  lab::Event start, stop;
  for (int i = 0; i < samples; ++i) {
    blocker.block(caller);
    LAB_CHECK(cudaEventRecord(start, caller));
    LAB_CHECK(cudaEventRecord(stop, caller));
    blocker.release();
    LAB_CHECK(cudaEventSynchronize(stop));
    if (blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
    out.push_back(lab::Event::elapsed_us(start, stop));
  }
  return out;
}

// One call, timed: everything the harness does between fresh inputs and the verdict's facts.
ReferenceCall time_one_call(Workload& w, lab::StreamBlocker& blocker, lab::Event& start, lab::Event& stop,
                            std::vector<lab::Event>& joined, cudaStream_t caller) {
  ReferenceCall call;
  // [snippet:reference]
  blocker.block(caller);  // the GPU meets what follows back to back, once released
  LAB_CHECK(cudaEventRecord(start, caller));
  for (cudaStream_t s : w.streams) LAB_CHECK(cudaStreamWaitEvent(s, start, 0));  // fork every declared stream
  lab::HostTimer host;
  w.call(caller);
  call.host_us = host.elapsed_ms() * 1e3;
  for (std::size_t i = 0; i < w.streams.size(); ++i) {  // join them: their work ends before the stop event
    LAB_CHECK(cudaEventRecord(joined[i], w.streams[i]));
    LAB_CHECK(cudaStreamWaitEvent(caller, joined[i], 0));
  }
  LAB_CHECK(cudaEventRecord(stop, caller));
  blocker.release();
  LAB_CHECK(cudaEventSynchronize(stop));
  call.window_us = lab::Event::elapsed_us(start, stop);
  for (cudaStream_t s : w.streams) {  // nothing may still be queued once the stop event has completed
    const cudaError_t idle = cudaStreamQuery(s);
    if (idle == cudaErrorNotReady) {
      call.queued_after_stop = true;
    } else {
      LAB_CHECK(idle);
    }
  }
  call.output = classify(w.problem->read(caller), *w.problem);  // the output as the stop event left it
  // [snippet:reference]
  call.held = !blocker.timed_out();
  return call;
}

}  // namespace

void time_reference(Gallery& gallery, int samples, std::uint64_t seed, cudaStream_t caller, GalleryRun& run) {
  lab::StreamBlocker blocker;
  lab::L2Flusher flusher;
  CallRecorder cupti;
  lab::Event start, stop;
  blocker.block(caller);  // the holding kernel loaded before anything waits behind it (nvbench issue #136)
  blocker.release();
  LAB_CHECK(cudaStreamSynchronize(caller));
  run.empty_pair_us = empty_pairs(samples, blocker, caller);
  for (std::size_t k = 0; k < gallery.workloads().size(); ++k) {
    Workload& w = gallery.workloads()[k];
    WorkloadRun& r = run.workloads.at(k);
    std::vector<lab::Event> joined(w.streams.size());
    for (int i = 0; i <= samples; ++i) {
      // Fresh inputs, a poisoned output, the L2 as the workload asks, an idle GPU.
      w.problem->fill(seed + 1000 * (k + 1) + static_cast<std::uint64_t>(i), caller);
      w.problem->poison(caller);
      if (w.cold_l2) flusher.flush(caller);
      LAB_CHECK(cudaDeviceSynchronize());
      if (i == 0) {  // the warm-up call: first-call costs (module loading) stay out of the samples
        w.call(caller);
        LAB_CHECK(cudaDeviceSynchronize());
        continue;
      }
      cupti.begin();
      ReferenceCall call = time_one_call(w, blocker, start, stop, joined, caller);
      const GpuWork work = cupti.end();
      call.cupti = work.recorded;
      call.cupti_span_us = work.span_us;
      if (!work.recorded && r.cupti_missing.empty())
        r.cupti_missing = cupti.why_not().empty() ? kMissing : cupti.why_not();
      LAB_CHECK(cudaDeviceSynchronize());  // work the harness could not see ends here, outside the next call
      r.reference.push_back(call);
    }
  }
}

// --- 3. Two quantities for a short kernel ------------------------------------------

SequenceRun time_sequence(Gallery& gallery, const GalleryRun& measured, int kernels, int samples, std::uint64_t seed,
                          cudaStream_t caller) {
  // The add on inputs in L2: in a sequence, every kernel after the first finds them there too.
  Workload& w = gallery.workload("l2_resident");
  SequenceRun run;
  run.workload = w.name;
  run.kernels = kernels;
  for (const WorkloadRun& r : measured.workloads) {
    if (r.id != w.id) continue;
    run.lone_us = reference_reading_us(r, measured.empty_pair_us);
    run.lone_cupti_us = reference_cupti_us(r);
  }
  lab::StreamBlocker blocker;
  CallRecorder cupti;
  lab::Event start, stop;
  w.problem->fill(seed, caller);
  // The graph: the same K calls, captured once from the caller's stream.
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  // [snippet:graph]
  LAB_CHECK(cudaStreamBeginCapture(caller, cudaStreamCaptureModeThreadLocal));
  for (int k = 0; k < kernels; ++k) w.call(caller);
  LAB_CHECK(cudaStreamEndCapture(caller, &graph));
  LAB_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  // [snippet:graph]
  try {
    LAB_CHECK(cudaGraphLaunch(exec, caller));  // warm-up: uploads the graph
    blocker.block(caller);
    blocker.release();
    LAB_CHECK(cudaStreamSynchronize(caller));
    for (int i = 0; i < samples; ++i) {
      w.problem->poison(caller);
      LAB_CHECK(cudaStreamSynchronize(caller));
      cupti.begin();
      // [snippet:sequence]
      blocker.block(caller);
      LAB_CHECK(cudaEventRecord(start, caller));
      for (int k = 0; k < kernels; ++k) w.call(caller);  // K launches, queued while the stream is held
      LAB_CHECK(cudaEventRecord(stop, caller));
      blocker.release();
      LAB_CHECK(cudaEventSynchronize(stop));
      run.stream_us.push_back(lab::Event::elapsed_us(start, stop) / kernels);
      // [snippet:sequence]
      if (blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
      if (const GpuWork work = cupti.end(); work.recorded) run.stream_cupti_us.push_back(work.busy_us / kernels);
      cupti.begin();
      blocker.block(caller);
      LAB_CHECK(cudaEventRecord(start, caller));
      LAB_CHECK(cudaGraphLaunch(exec, caller));  // the same K kernels, one launch
      LAB_CHECK(cudaEventRecord(stop, caller));
      blocker.release();
      LAB_CHECK(cudaEventSynchronize(stop));
      if (blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
      run.graph_us.push_back(lab::Event::elapsed_us(start, stop) / kernels);
      if (const GpuWork work = cupti.end(); work.recorded) run.graph_cupti_us.push_back(work.busy_us / kernels);
    }
    run.cupti_missing = cupti.why_not();
    // Each output: poisoned, then written by the sequence (stream) or the graph.
    w.problem->poison(caller);
    for (int k = 0; k < kernels; ++k) w.call(caller);
    run.stream_result = lab::compare(w.problem->read(caller), w.problem->expected());
    w.problem->poison(caller);
    LAB_CHECK(cudaGraphLaunch(exec, caller));
    run.graph_result = lab::compare(w.problem->read(caller), w.problem->expected());
  } catch (...) {
    cudaGraphExecDestroy(exec);  // already failing: the first error is the one reported
    cudaGraphDestroy(graph);
    throw;
  }
  LAB_CHECK(cudaGraphExecDestroy(exec));
  LAB_CHECK(cudaGraphDestroy(graph));
  return run;
}

}  // namespace ch13
