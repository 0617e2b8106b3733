// Chapter 05: overlap
// ===================
// What it shows, one numbered section of README.md each, in this order:
//   1. the copies and kernels alone, sampled before and after the sweep: what the model
//      and the bound (the slowest of them at its fastest) are made of;
//   2. NVIDIA's async.cu schedules on pinned memory (sequential; V1: per chunk copy in,
//      kernel, copy out; V2: all copies in, all kernels, all copies out; chunk i on
//      stream i) over chunk counts 1, 2, 4, ... and two kernels (async.cu's light one, a
//      heavy one as long as the copies), against the model (overlap_model.hpp) and the bound;
//   3. V1 against V2 and the work queues: child processes (ch05_queue_child) run them with
//      CUDA_DEVICE_MAX_CONNECTIONS = 1, 2, the default and 32, and queue two kernels per
//      stream over 4 to 32 streams, stream by stream or kernel by kernel;
//   4. one run of each schedule as CUPTI recorded it: what ran at the same time.
// The lesson is overlap.cu (queue_sequential, queue_v1, queue_v2: async.cu's loops; time_schedule
// times them); tables.hpp and checks.hpp turn its data (data.hpp) into the tables and checks; options.hpp
// declares the options.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch05_overlap ch05_queue_child
//   build/release/chapters/05_overlap/ch05_overlap [--mib 256] [--max-chunks 32] [--timeline] [--json out.json]
#include "chapter.cuh"
#include "checks.hpp"
#include "options.hpp"
#include "overlap.cuh"
#include "program.hpp"
#include "tables.hpp"

constexpr char kProgram[] = "ch05_overlap";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch05::Options o;
    lab::Chapter chapter(kProgram, "Chapter 05: overlap",
                         "Overlaps copies with kernels three ways (sequential, V1, V2) over a sweep of chunk counts\n"
                         "and two kernel costs, against a bound and a model measured in the same run, and\n"
                         "measures what the hardware's work queues (CUDA_DEVICE_MAX_CONNECTIONS) do to them.");
    ch05::add_options(chapter.options(), o);
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.require_memory(ch05::memory_need(o));
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    ch05::OverlapProblem problem(o);

    // Measured first, printed once the sweep is done: the sweep samples the link again after it.
    ch05::LinkRun link = ch05::measure_link(problem, chapter.device().copy_engines, o);
    const ch05::SweepRun sweep = ch05::sweep_schedules(problem, o, link);

    report.section("1. The copies and the kernels alone, and the bound they set");
    report.add(ch05::link_table(link));

    report.section("2. Sequential, V1 and V2 over chunk counts");
    report.add(ch05::sweep_table(sweep, link));
    report.add(ch05::sweep_checks(sweep));

    report.section("3. V1 against V2, and the hardware's work queues");
    const ch05::QueueRun queues = ch05::measure_queues(o, chapter.instrumented());
    report.add(ch05::queue_schedule_table(queues));
    report.add(ch05::stream_order_table(queues));
    report.add(ch05::queue_checks(queues));

    report.section("4. The schedules as CUPTI recorded them");
    const std::vector<ch05::RecordedSchedule> recorded = ch05::record_schedules(problem, o, chapter.timeline());
    report.add(ch05::recorded_table(recorded));
    report.add(ch05::recorded_checks(recorded));
    return chapter.finish();
  });
}
