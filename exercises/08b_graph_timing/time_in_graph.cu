// Exercise 08b: time a kernel of a few microseconds as a graph of many launches.
//
// The loop below times each sample as one launch between two events: the GPU
// reaches the start event at once, then waits for the kernel to arrive, so the
// launch gap of a few microseconds sits inside every sample, longer than the
// kernel itself (chapter 08, section 4: "event pair per launch" read 8.69 us
// for a kernel CUPTI timed at 1.54 us, on an H100). Capture
// `launches` runs of the work into one graph instead, replay the graph between
// the events, and divide by `launches`: the GPU runs the graph's kernels back
// to back, and the one launch gap is shared by all of them.
//
// Check your work:  scripts/progress ch08b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch08b_')
// Stuck? Read HINTS.md beside this file.
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
  // TODO: capture `launches` runs of work(stream) into `captured` (cudaStreamBeginCapture, cudaStreamEndCapture)
  (void)launches;  // unused until then
  const ch08::Graph graph(captured);
  cudaGraphExec_t instantiated = nullptr;
  // TODO: instantiate the graph into `instantiated` (cudaGraphInstantiate)
  const ch08::GraphExec exec(instantiated);
  // TODO: launch it once, untimed (cudaGraphLaunch): a graph's first launch may also upload it

  std::vector<double> result;
  lab::Event start, stop;
  for (int i = 0; i < samples; ++i) {
    LAB_CHECK(cudaEventRecord(start, stream));
    work(stream);  // TODO: replay the graph instead (cudaGraphLaunch): `launches` runs of the work in one call
    LAB_CHECK(cudaEventRecord(stop, stream));
    LAB_CHECK(cudaEventSynchronize(stop));
    result.push_back(lab::Event::elapsed_ms(start, stop));  // TODO: the time of one run: divide by `launches`
  }
  return result;
}

}  // namespace exercise08b
