// Exercise 10b: a graph that decides when to stop.
//
// As handed out, one Jacobi sweep and its decision are captured into a graph
// that the host relaunches after every decision: a cudaGraphLaunch, a copy of
// the decision to the host and a cudaStreamSynchronize per sweep, 429 of each
// for this system (430 for chapter 10's; chapter 10, section 3:
// "graph_per_step"). Put the sweep and the decision in the body of a WHILE
// conditional node instead: the decision kernel sets the node's condition
// (cudaGraphSetConditional, inside solver.queue_decide(stream, handle, true)),
// the node runs its body again while the condition is non-zero, and the host
// launches the graph once and waits once.
//
// Check your work:  scripts/progress ch10b
//   (it builds and runs this exercise's check only; by hand: ctest --preset exercises -R '^ch10b_')
// Stuck? Read HINTS.md beside this file.
#include "check.cuh"
#include "while_loop.cuh"

namespace exercise10b {

Solve solve_in_one_launch(ch10::JacobiSolver& solver, cudaStream_t stream) {
  cudaGraph_t created = nullptr;
  LAB_CHECK(cudaGraphCreate(&created, 0));
  Solve result{ch08::Graph(created), 0};

  // TODO: create a conditional handle for result.graph (cudaGraphConditionalHandleCreate) whose value is 1 at
  //       the start of every launch of the graph: default value 1, flags cudaGraphCondAssignDefault
  // TODO: add a WHILE node to result.graph (cudaGraphNodeParams with type cudaGraphNodeTypeConditional, its
  //       .conditional member: handle, type cudaGraphCondTypeWhile, size 1; then cudaGraphAddNode); the call
  //       writes the node's (empty) body graph into params.conditional.phGraph_out[0]
  cudaGraph_t body = result.graph.get();  // TODO: capture into the WHILE node's body instead

  LAB_CHECK(cudaStreamBeginCaptureToGraph(stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
  solver.queue_sweep(stream);
  solver.queue_decide(stream);         // TODO: let the decision set the condition: queue_decide(stream, handle, true)
  solver.queue_read_decision(stream);  // TODO: leave this out: the host no longer reads the decision
  cudaGraph_t captured = nullptr;
  LAB_CHECK(cudaStreamEndCapture(stream, &captured));

  cudaGraphExec_t instantiated = nullptr;
  LAB_CHECK(cudaGraphInstantiate(&instantiated, result.graph.get(), 0));
  const ch08::GraphExec exec(instantiated);

  solver.queue_start(stream);
  // TODO: one launch and one wait: the WHILE node repeats the body on the device
  do {
    LAB_CHECK(cudaGraphLaunch(exec.get(), stream));
    ++result.graph_launches;
    LAB_CHECK(cudaStreamSynchronize(stream));
  } while (solver.keep_going());
  return result;
}

}  // namespace exercise10b
