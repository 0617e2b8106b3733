// Chapter 10: the last microseconds between kernels
// =================================================
// What it shows, one numbered section of README.md each, in this order:
//   1. programmatic dependent launch (PDL) in a stream: a chain of dependent
//      small kernels launched with cudaLaunchKernelEx, plain and with
//      cudaLaunchAttributeProgrammaticStreamSerialization; per-block
//      %globaltimer stamps show when kernel k+1's blocks began against kernel
//      k's end; a dependent read before cudaGridDependencySynchronize(), and
//      the fix;
//   2. PDL in a graph: the chain captured, with and without programmatic edges,
//      and built by hand with programmatic edges;
//   3. a graph that decides: a Jacobi solve that stops on convergence, as a
//      host loop, as a one-step graph relaunched by the host, and as one graph
//      with a WHILE conditional node;
//   4. timing inside a graph: events recorded with cudaEventRecordExternal
//      during capture, against CUPTI's duration of the node;
//   5. what stream capture forbids, as data: calls made during capture under
//      each capture mode, each in a child process;
//   6. the launch queue's depth under CUDA_SCALE_LAUNCH_QUEUES, in child processes.
// The lesson is dependent_chain.cu (sections 1-2), decide.cu and
// graph_timing.cu (3-4), capture_rules.cu and queue_scale.cu (5-6); options.hpp
// declares the options, data.hpp what each section returns, tables.hpp and
// checks.hpp turn it into the tables and checks printed here; README.md explains them.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch10_dependent_launch
//   build/release/chapters/10_dependent_launch/ch10_dependent_launch [--kernels 100] [--json out.json]
#include "capture_rules.cuh"
#include "chapter.cuh"
#include "checks.hpp"
#include "decide.cuh"
#include "dependent_chain.cuh"
#include "graph_timing.cuh"
#include "options.hpp"
#include "program.hpp"
#include "queue_scale.cuh"
#include "tables.hpp"

constexpr char kProgram[] = "ch10_dependent_launch";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch10::Options o;
    lab::Chapter chapter(kProgram, "Chapter 10: the last microseconds between kernels",
                         "Measures programmatic dependent launch in a stream and in a graph, a graph that decides\n"
                         "when to stop (a WHILE node), timing inside a graph, and what stream capture forbids.");
    ch10::add_options(chapter.options(), o);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.require_memory(ch10::memory_need(o));
    const lab::DeviceInfo& device = chapter.device();
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    const auto kernels = static_cast<int>(o.kernels);
    const auto reps = static_cast<int>(o.reps);
    const auto seed = static_cast<std::uint64_t>(o.seed);

    report.section("1. Programmatic dependent launch in a stream");
    const ch10::ChainRun pdl_stream =
        ch10::run_pdl_stream(o.n, kernels, o.preamble_us, reps, seed, chapter.instrumented(), device);
    report.add(ch10::pdl_stream_table(pdl_stream));
    report.add(ch10::overlap_table("pdl_stream_overlap", pdl_stream));
    report.add(ch10::pdl_stream_checks(pdl_stream));
    const ch10::MisuseRun misuse = ch10::run_pdl_misuse(seed + 20, chapter.instrumented(), device);
    report.add(ch10::pdl_misuse_table(misuse));
    report.add(ch10::pdl_misuse_checks(misuse));

    report.section("2. Programmatic dependent launch in a graph");
    const ch10::ChainRun pdl_graph = ch10::run_pdl_graph(o.n, kernels, o.preamble_us, reps, seed + 10, device);
    report.add(ch10::pdl_graph_table(pdl_graph));
    report.add(ch10::overlap_table("pdl_graph_overlap", pdl_graph));
    report.add(ch10::pdl_graph_checks(pdl_graph));

    report.section("3. A graph that decides");
    const ch10::JacobiRun jacobi = ch10::run_jacobi(o.jacobi_n, o.tolerance, o.max_iterations, reps, seed);
    report.add(ch10::jacobi_table(jacobi));
    report.add(ch10::jacobi_checks(jacobi));

    report.section("4. Timing inside a graph");
    const ch10::GraphTimingRun graph_timing = ch10::time_node_in_graph(o.n, reps, seed + 30);
    report.add(ch10::graph_timing_table(graph_timing));
    report.add(ch10::graph_timing_checks(graph_timing));

    report.section("5. What stream capture forbids");
    const ch10::CaptureRun capture = ch10::run_capture_children(ch10::capture_child_program(), chapter.instrumented());
    report.add(ch10::capture_calls_table(capture));
    report.add(ch10::capture_checks(capture));

    report.section("6. The launch queue's depth");
    const ch10::QueueScaleRun scale = ch10::run_queue_children(ch10::queue_child_program(), ch10::queue_scale_values(),
                                                               o.queue_launches, chapter.instrumented());
    report.add(ch10::queue_scale_table(scale));
    report.add(ch10::queue_scale_checks(scale));

    return chapter.finish();
  });
}
