// Exercise 04b: time work on ten streams with one start and one end event.
//
// Chapter 04 times ten arrays on ten streams from the earliest begin
// event to the latest end event. Here you time the same kind of work with a
// single pair of events, both on streams[0]. As handed out, the events see
// only streams[0]: the end event is recorded once streams[0]'s own work is
// done, while the nine other streams may still be busy, and those streams may
// begin before streams[0] even reaches the start event (when it still has
// earlier work queued). Put every stream's work between the two events, with
// events the streams wait for (cudaStreamWaitEvent), never with the host waiting.
// A lab::Event (common/lesson/stream.cuh) is a cudaEvent_t wherever a CUDA call takes one:
// cudaEventRecord(start, stream), cudaStreamWaitEvent(stream, start, 0).
//
// Check your work:  scripts/progress ch04b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch04b_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "stream.cuh"
#include "time_across_streams.cuh"

namespace exercise04b {

double time_across_streams(const WorkOnStream& work, const std::vector<cudaStream_t>& streams) {
  lab::Event start, end;
  std::vector<lab::Event> done;  // one per stream, to mark the end of its work (ordering only, no timing)
  for (std::size_t i = 0; i < streams.size(); ++i) done.emplace_back(cudaEventDisableTiming);

  LAB_CHECK(cudaEventRecord(start, streams[0]));
  // TODO: make every other stream wait for `start` before its work is queued.
  for (std::size_t i = 0; i < streams.size(); ++i) work(i, streams[i]);
  // TODO: mark the end of every other stream's work with its `done` event, and make streams[0] wait for each.
  LAB_CHECK(cudaEventRecord(end, streams[0]));
  LAB_CHECK(cudaEventSynchronize(end));
  return lab::Event::elapsed_ms(start, end);
}

}  // namespace exercise04b
