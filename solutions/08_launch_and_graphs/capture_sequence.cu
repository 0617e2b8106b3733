// Solution to exercise 08: capture the sequence between cudaStreamBeginCapture
// and cudaStreamEndCapture, instantiate the graph, and replay it with
// cudaGraphLaunch. It differs from exercises/08_launch_and_graphs/capture_sequence.cu in a few lines.
#include "capture_sequence.cuh"
#include "check.cuh"

namespace exercise08 {

CapturedSequence capture(const Sequence& sequence, cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  LAB_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));  // from here on, work is recorded
  sequence(stream);  // queues the work; while the stream is captured it is recorded, not run
  LAB_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  LAB_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  return {ch08::Graph(graph), ch08::GraphExec(exec)};
}

void replay(const CapturedSequence& captured, cudaStream_t stream) {
  LAB_CHECK(cudaGraphLaunch(captured.exec.get(), stream));  // the whole sequence, one call
}

}  // namespace exercise08
