// Exercise 08b, solved: `launches` runs of the work captured into one graph,
// each replay timed between two events and divided by `launches`.
#include "check.cuh"
#include "launch_graphs.cuh"
#include "stream.cuh"
#include "time_in_graph.cuh"

namespace exercise08b {

std::vector<double> time_in_graph_ms(const std::function<void(cudaStream_t)>& work, cudaStream_t stream, int launches,
                                     int samples) {
  work(stream);  // warm-up: the kernel is loaded before anything is captured or timed
  LAB_CHECK(cudaStreamSynchronize(stream));

  cudaGraph_t captured = nullptr;
  LAB_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int k = 0; k < launches; ++k) work(stream);  // recorded into the graph, not run
  LAB_CHECK(cudaStreamEndCapture(stream, &captured));
  const ch08::Graph graph(captured);
  cudaGraphExec_t instantiated = nullptr;
  LAB_CHECK(cudaGraphInstantiate(&instantiated, graph.get(), 0));
  const ch08::GraphExec exec(instantiated);
  LAB_CHECK(cudaGraphLaunch(exec.get(), stream));  // the first launch uploads the graph: not timed

  std::vector<double> result;
  lab::Event start, stop;
  for (int i = 0; i < samples; ++i) {
    LAB_CHECK(cudaEventRecord(start, stream));
    LAB_CHECK(cudaGraphLaunch(exec.get(), stream));  // `launches` runs of the work, back to back
    LAB_CHECK(cudaEventRecord(stop, stream));
    LAB_CHECK(cudaEventSynchronize(stop));
    result.push_back(lab::Event::elapsed_ms(start, stop) / launches);
  }
  return result;
}

}  // namespace exercise08b
