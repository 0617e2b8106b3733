// Chapter 13's timeline of two cheats: one call of each between a naive event
// pair, recorded by CUPTI, the host's wait marked beside the GPU's work.
#include "cheats_timeline.cuh"
#include "check.cuh"
#include "stream.cuh"
#include "vocabulary.hpp"

namespace ch13 {

void record_cheats(Gallery& gallery, std::uint64_t seed, cudaStream_t caller, lab::TimelineSession& timeline) {
  if (!timeline.wanted()) return;
  struct Cheat {
    const char* id;
    const char* stream;  // the row of the stream the workload declares
  };
  lab::Event start, stop;
  for (const Cheat& cheat : {Cheat{"side_stream", "the side stream"}, Cheat{"late_copy", "the copy stream"}}) {
    Workload& w = gallery.workload(cheat.id);
    w.problem->fill(seed, caller);
    w.problem->poison(caller);
    LAB_CHECK(cudaDeviceSynchronize());  // the call meets an idle GPU, as in section 1
    timeline.begin(w.name + ": one call between a naive event pair");
    timeline.name_stream(caller, "the caller's stream");
    for (cudaStream_t s : w.streams) timeline.name_stream(s, cheat.stream);
    const std::uint64_t host_begin = lab::TimelineRecorder::now_ns();
    LAB_CHECK(cudaEventRecord(start, caller));
    w.call(caller);
    LAB_CHECK(cudaEventRecord(stop, caller));
    LAB_CHECK(cudaEventSynchronize(stop));  // returns once the stop event has completed
    const std::uint64_t host_end = lab::TimelineRecorder::now_ns();
    const double pair_us = lab::Event::elapsed_us(start, stop);
    timeline.mark(
        "the host",
        lab::format("cudaEventRecord(start) until cudaEventSynchronize(stop) returned; the pair read %.2f us", pair_us),
        host_begin, host_end);
    timeline.end();  // waits for the device: the work left running after the stop event is recorded too
  }
}

}  // namespace ch13
