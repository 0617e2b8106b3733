// The check for exercise 10b, built from this file against your while_loop.cu
// (test ch10b_exercise_check, label "exercise"), against solutions/ (test
// ch10b_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch10b_pristine_check, label
// "pristine": it must fail). The system is chapter 10's Jacobi solve
// (ch10::JacobiSolver, x poisoned with NaN first); the reference is its CPU
// solve (ch10::jacobi_on_cpu): the same x bit for bit, after as many sweeps.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "check.cuh"
#include "stream.cuh"
#include "while_loop.cuh"

namespace {

// The types of @p graph's top-level nodes (not those inside a node's body).
std::vector<cudaGraphNodeType> node_types(cudaGraph_t graph) {
  std::size_t count = 0;
  LAB_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  LAB_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
  std::vector<cudaGraphNodeType> types;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    LAB_CHECK(cudaGraphNodeGetType(node, &type));
    types.push_back(type);
  }
  return types;
}

}  // namespace

TEST_CASE("exercise 10b: the Jacobi solve in one graph launch, looped on the device by a WHILE node") {
  lab::Stream stream(cudaStreamNonBlocking);  // a stream that can be captured
  ch10::JacobiSolver solver(4096, 1e-5, 10000, 11);
  solver.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  const exercise10b::Solve solve = exercise10b::solve_in_one_launch(solver, stream);
  LAB_CHECK(cudaStreamSynchronize(stream));

  const std::int64_t sweeps = solver.device_iterations();
  CAPTURE(sweeps);
  CAPTURE(solver.cpu_iterations());
  std::string wrong;
  CHECK_MESSAGE(solver.check(wrong), "the solution is not the CPU's ("
                                         << wrong
                                         << "): does the WHILE node's body "
                                            "hold one sweep and then the decision, and does the decision set the "
                                            "condition (solver.queue_decide(stream, handle, true)), and was the handle "
                                            "created with default 1 and cudaGraphCondAssignDefault?");

  REQUIRE_MESSAGE(solve.graph.get() != nullptr, "Solve::graph holds no graph: return the graph you launched");
  const std::vector<cudaGraphNodeType> types = node_types(solve.graph.get());
  CHECK_MESSAGE(types.size() == 1, "your graph has "
                                       << types.size()
                                       << " top-level nodes; expected exactly one, "
                                          "the WHILE node: capture the sweep and the decision into its body "
                                          "(params.conditional.phGraph_out[0], written by cudaGraphAddNode), not "
                                          "into the graph itself");
  const bool conditional = types.size() == 1 && types[0] == cudaGraphNodeTypeConditional;
  CHECK_MESSAGE(conditional,
                "the graph's node is not a conditional node (cudaGraphNodeTypeConditional): add it "
                "with cudaGraphAddNode and cudaGraphNodeParams of type cudaGraphNodeTypeConditional");
  CHECK_MESSAGE(solve.graph_launches == 1,
                "the solve made " << solve.graph_launches << " cudaGraphLaunch calls for " << sweeps
                                  << " sweeps; expected one: the WHILE node repeats its body on the device while "
                                     "the decision sets the condition to 1, so the host launches once and waits once");
}
