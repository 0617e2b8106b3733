// Chapter 10, sections 3 and 4, on the GPU: the three controls of the Jacobi
// solve give the CPU's x bit for bit after as many sweeps, the WHILE graph is
// one conditional node run by one launch, and inside a replayed graph an
// external event pair times while a default one does not; the large effect
// (a WHILE node's sweep against a host loop's) as a ratio from the same run.
#include <doctest/doctest.h>

#include <string>

#include "check.cuh"
#include "decide.cuh"
#include "graph_timing.cuh"
#include "statistics.hpp"
#include "stream.cuh"

namespace {

double per_sweep_us(const ch10::JacobiWay& w) {
  return lab::median(w.total_ms) * 1e3 / static_cast<double>(w.iterations.front());
}

}  // namespace

TEST_CASE("the three controls of the Jacobi solve give the CPU's x bit for bit, after as many sweeps") {
  const ch10::JacobiRun run = ch10::run_jacobi(4096, 1e-5, 10000, 3, 1);
  CHECK(run.cpu_iterations > 100);  // a real loop, ended by the tolerance
  CHECK(run.cpu_iterations < 10000);
  REQUIRE(run.ways.size() == 3);
  for (const ch10::JacobiWay& w : run.ways) {
    CAPTURE(w.name);
    CHECK_MESSAGE(w.wrong.empty(), w.wrong);
    CHECK(w.results_checked >= 4);  // one untimed, three timed (and one with CUPTI, where it records)
    for (std::int64_t i : w.iterations) CHECK(i == run.cpu_iterations);
  }
  // The large effect, from the same run: the host waits for every decision in
  // its loop (a round trip per sweep); the WHILE node loops on the device.
  const double host = per_sweep_us(run.ways[0]), loop = per_sweep_us(run.ways[2]);
  CHECK_MESSAGE(loop < host, "per sweep: WHILE node " << loop << " us, host loop " << host << " us");
  CHECK(run.ways[2].host_calls == 3);
  CHECK(run.ways[0].host_calls == 1 + 4 * run.cpu_iterations);
}

TEST_CASE("the WHILE graph is one conditional node, and its one launch runs the whole solve") {
  lab::Stream stream(cudaStreamNonBlocking);
  ch10::JacobiSolver solver(1000, 1e-5, 10000, 4);
  const ch08::Graph graph = ch10::build_while_graph(solver, stream);
  std::size_t count = 0;
  REQUIRE(cudaGraphGetNodes(graph.get(), nullptr, &count) == cudaSuccess);
  REQUIRE(count == 1);
  cudaGraphNode_t node = nullptr;
  REQUIRE(cudaGraphGetNodes(graph.get(), &node, &count) == cudaSuccess);
  cudaGraphNodeType type = cudaGraphNodeTypeKernel;
  REQUIRE(cudaGraphNodeGetType(node, &type) == cudaSuccess);
  CHECK(type == cudaGraphNodeTypeConditional);
  const ch08::GraphExec exec = ch08::instantiate(graph);
  for (int replay = 0; replay < 2; ++replay) {  // every launch starts afresh (cudaGraphCondAssignDefault)
    solver.poison(stream);
    const ch10::SolveTiming t = ch10::solve_while_node(solver, exec.get(), stream);
    CHECK(t.iterations == solver.cpu_iterations());
    std::string wrong;
    CHECK_MESSAGE(solver.check(wrong), wrong);
  }
}

TEST_CASE("the decision stops every control at --max-iterations, as on the CPU") {
  lab::Stream stream(cudaStreamNonBlocking);
  ch10::JacobiSolver solver(300, 1e-7, 7, 5);  // a tolerance it cannot reach in 7 sweeps
  REQUIRE(solver.cpu_iterations() == 7);
  const ch08::GraphExec step = ch08::instantiate(ch10::capture_step_graph(solver, stream));
  const ch08::GraphExec loop = ch08::instantiate(ch10::build_while_graph(solver, stream));
  for (int way = 0; way < 3; ++way) {
    CAPTURE(way);
    solver.poison(stream);
    const ch10::SolveTiming t = way == 0   ? ch10::solve_host_loop(solver, stream)
                                : way == 1 ? ch10::solve_graph_per_step(solver, step.get(), stream)
                                           : ch10::solve_while_node(solver, loop.get(), stream);
    CHECK(t.iterations == 7);
    std::string wrong;
    CHECK_MESSAGE(solver.check(wrong), wrong);
  }
}

TEST_CASE("inside a replayed graph an external event pair times the node; a default pair does not") {
  const ch10::GraphTimingRun run = ch10::time_node_in_graph(65536, 5, 3);
  CHECK_MESSAGE(run.wrong.empty(), run.wrong);
  CHECK(run.results_checked == 2 + 2 * 5);
  CHECK(run.external_returned == "cudaSuccess");
  REQUIRE(run.external_us.size() == 5);
  CHECK(lab::median(run.external_us) > 0.0);
  CHECK(run.floor_us.size() == 5);
  CHECK(run.floor_returned == "cudaSuccess");
  CHECK_MESSAGE(run.default_returned != "cudaSuccess", "default pair read " << run.default_us.size() << " times");
  CHECK(cudaGetLastError() == cudaSuccess);  // the refusal was cleared
}
