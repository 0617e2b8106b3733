// Exercise 08: capture a sequence of launches into a CUDA graph, and replay it.
//
// capture() below runs the sequence straight away instead of recording it, and
// returns no graph; replay() does nothing. Make capture() record the sequence
// into a graph and instantiate it, and replay() launch that graph: one call
// for the whole sequence, as chapter 08's section 3 does.
//
// Check your work:  scripts/progress ch08
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch08_')
// Stuck? Read HINTS.md beside this file.
#include "capture_sequence.cuh"
#include "check.cuh"

namespace exercise08 {

CapturedSequence capture(const Sequence& sequence, cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  // TODO: start capturing what is queued on stream (cudaStreamBeginCapture, cudaStreamCaptureModeGlobal)
  sequence(stream);  // queues the work; while the stream is captured it is recorded, not run
  // TODO: end the capture, into graph (cudaStreamEndCapture)
  cudaGraphExec_t exec = nullptr;
  // TODO: instantiate graph into exec (cudaGraphInstantiate)
  return {ch08::Graph(graph), ch08::GraphExec(exec)};
}

void replay(const CapturedSequence& captured, cudaStream_t stream) {
  // TODO: launch the executable graph on stream (cudaGraphLaunch)
  (void)captured;
  (void)stream;
}

}  // namespace exercise08
