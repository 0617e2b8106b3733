// Chapter 08: launch costs and CUDA graphs
// ========================================
// What it shows, one numbered section of README.md each, in this order:
//   1. what a launch costs, three ways: the host's launch call, the GPU's pace
//      for kernels back to back, the launch + synchronise round trip, beside
//      the kernel's own duration from CUPTI;
//   2. the launch queue: launches into a held stream, each call timed, until
//      one blocks; what a full queue does to a host timer and to CPU work;
//   3. CUDA graphs: cudaStreamBeginCapture / cudaStreamEndCapture /
//      cudaGraphInstantiate / cudaGraphLaunch for K = 1 ... 1000 kernels
//      against K stream launches, every replay checked; cudaGraphExecUpdate
//      against a new instantiation;
//   4. timing microsecond kernels honestly: an event pair per launch, a held
//      stream, a graph of K launches / K (triton's do_bench_cudagraph), CUPTI;
//   5. kernel errors arrive later: a faulting kernel in a child process, with
//      and without CUDA_LAUNCH_BLOCKING=1.
// The lesson is launch_graphs.cu (one function per section); options.hpp
// declares the options, tables.hpp and checks.hpp turn the data into the
// tables and checks printed here.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch08_launch_and_graphs
//   build/release/chapters/08_launch_and_graphs/ch08_launch_and_graphs [--max-kernels 1000] [--json out.json]
#include "chapter.cuh"
#include "checks.hpp"
#include "launch_graphs.cuh"
#include "options.hpp"
#include "program.hpp"
#include "stream.cuh"
#include "tables.hpp"

constexpr char kProgram[] = "ch08_launch_and_graphs";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch08::Options o;
    lab::Chapter chapter(kProgram, "Chapter 08: launch costs and CUDA graphs",
                         "Measures what a kernel launch costs, when launches stop being asynchronous, what CUDA\n"
                         "graphs save, how to time microsecond kernels, and when a kernel's error is reported.");
    ch08::add_options(chapter.options(), o);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.require_memory(ch08::memory_need(o));
    const lab::DeviceInfo& device = chapter.device();
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream stream;
    const int reps = static_cast<int>(o.reps);
    const auto seed = static_cast<std::uint64_t>(o.seed);

    report.section("1. What a launch costs");
    const ch08::LaunchCostRun cost = ch08::measure_launch_cost(ch08::launch_cost_samples(o), ch08::kBackToBack, stream);
    report.add(ch08::launch_cost_table(cost));

    report.section("2. The launch queue");
    const ch08::QueueFillRun fill = ch08::fill_launch_queue(o.queue_launches, ch08::kStallMs, stream);
    report.add(ch08::queue_fill_table(fill));
    const ch08::QueuePaceRun pace = ch08::pace_launches(ch08::kFewLaunches, o.queue_launches, o.kernel_us, stream);
    report.add(ch08::queue_pace_table(pace));
    report.add(ch08::queue_checks(fill, pace));

    report.section("3. CUDA graphs");
    const ch08::GraphRun graphs = ch08::compare_graphs(o.n, ch08::kernel_counts(o.max_kernels), reps, seed, device);
    report.add(ch08::graph_table(graphs));
    report.add(ch08::graph_update_table(graphs));
    report.add(ch08::graph_checks(graphs));

    report.section("4. Timing microsecond kernels honestly");
    const ch08::HonestTimingRun timing =
        ch08::time_small_kernel(o.n, static_cast<int>(o.graph_kernels), reps, seed + 10, device);
    report.add(ch08::honest_timing_table(timing));
    report.add(ch08::honest_timing_checks(timing));

    report.section("5. Kernel errors arrive later");
    const ch08::FaultRun fault = ch08::run_fault_child(ch08::fault_child_program(), chapter.instrumented());
    report.add(ch08::fault_table(fault));
    report.add(ch08::fault_checks(fault));

    return chapter.finish();
  });
}
