// Exercise 10b, solved: the sweep and the decision in the body of a WHILE
// conditional node; the decision sets the condition; one launch, one wait.
// Chapter 10's ch10::build_while_graph (decide.cu) builds the same graph.
#include "check.cuh"
#include "while_loop.cuh"

namespace exercise10b {

Solve solve_in_one_launch(ch10::JacobiSolver& solver, cudaStream_t stream) {
  cudaGraph_t created = nullptr;
  LAB_CHECK(cudaGraphCreate(&created, 0));
  Solve result{ch08::Graph(created), 0};

  // The condition is 1 at the start of every launch: the body runs at least once.
  cudaGraphConditionalHandle handle = 0;
  LAB_CHECK(cudaGraphConditionalHandleCreate(&handle, result.graph.get(), 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
  LAB_CHECK(cudaGraphAddNode(&node, result.graph.get(), nullptr, nullptr, 0, &params));
  cudaGraph_t body = params.conditional.phGraph_out[0];  // written by cudaGraphAddNode

  LAB_CHECK(cudaStreamBeginCaptureToGraph(stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
  solver.queue_sweep(stream);
  solver.queue_decide(stream, handle, true);  // sets the condition: 0 ends the loop
  cudaGraph_t captured = nullptr;
  LAB_CHECK(cudaStreamEndCapture(stream, &captured));

  cudaGraphExec_t instantiated = nullptr;
  LAB_CHECK(cudaGraphInstantiate(&instantiated, result.graph.get(), 0));
  const ch08::GraphExec exec(instantiated);

  solver.queue_start(stream);
  LAB_CHECK(cudaGraphLaunch(exec.get(), stream));  // every sweep, in one call
  ++result.graph_launches;
  LAB_CHECK(cudaStreamSynchronize(stream));  // the only wait
  return result;
}

}  // namespace exercise10b
