// Chapter 11: who gets the GPU
// ============================
// What it shows, one numbered section of README.md each, in this order:
//   1. a block-level timeline: every block stamps %globaltimer and %smid at its
//      start and end (common/lesson/block_recorder.cuh); what recording costs, and the
//      recorder as a timer against CUPTI and events;
//   2. stream priorities: an urgent kernel launched while a long low-priority
//      kernel fills the GPU, on a stream of equal and of the greatest priority;
//      when its blocks started, and on which SMs;
//   3. green contexts: the SMs split with cuDevSmResourceSplitByCount and
//      cuGreenCtxCreate, the long kernel in the large part, the urgent one in
//      the small part;
//   4. host work inside a stream: cudaLaunchHostFunc between kernels, against no
//      host function and against an event a host thread waits on;
//   5. a stream held by a wait on memory: cuStreamWaitValue32 against the spin
//      kernel that holds a stream elsewhere in the course;
//   6. NVTX ranges around the sections, and what a range costs with no tool.
// The lesson is block_timeline.cu, priorities.cu and green_contexts.cu
// (sections 1-3), host_work.cu, wait_value.cu and nvtx_ranges.cu (4-6);
// options.hpp declares the options, data.hpp what each section returns,
// tables_*.hpp and checks_*.hpp the tables and checks printed here.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch11_who_gets_the_gpu
//   build/release/chapters/11_who_gets_the_gpu/ch11_who_gets_the_gpu [--json out.json]
#include "block_timeline.cuh"
#include "chapter.cuh"
#include "checks_host.hpp"
#include "checks_sched.hpp"
#include "green_contexts.cuh"
#include "host_calls.cuh"
#include "host_work.cuh"
#include "nvtx_ranges.cuh"
#include "options.hpp"
#include "priorities.cuh"
#include "program.hpp"
#include "tables_host.hpp"
#include "tables_sched.hpp"
#include "wait_value.cuh"

constexpr char kProgram[] = "ch11_who_gets_the_gpu";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch11::Options o;
    lab::Chapter chapter(kProgram, "Chapter 11: who gets the GPU",
                         "Measures which work gets the SMs: a block-level timeline, stream priorities, green\n"
                         "contexts, host functions in a stream, a stream held by a wait on memory, NVTX ranges.");
    ch11::add_options(chapter.options(), o);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.require_memory(ch11::memory_need(o));
    const lab::DeviceInfo& device = chapter.device();
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    const auto reps = static_cast<int>(o.reps);
    const auto seed = static_cast<std::uint64_t>(o.seed);

    report.section("1. A block-level timeline");
    const ch11::BlockTimelineRun timeline = ch11::run_block_timeline(o.n, reps, seed, chapter.instrumented());
    report.add(ch11::block_timer_table(timeline));
    report.add(ch11::block_timeline_table(timeline));
    report.add(ch11::block_timeline_checks(timeline));

    report.section("2. Stream priorities");
    const ch11::PriorityRun priorities = ch11::run_priorities(static_cast<int>(o.long_waves), o.long_block_us,
                                                              o.urgent_block_us, reps, chapter.instrumented(), device);
    report.add(ch11::priority_table(priorities));
    report.add(ch11::priority_checks(priorities));
    ch11::write_block_trace(o.block_trace, timeline, priorities, device.name);

    report.section("3. Green contexts");
    const ch11::GreenRun green = ch11::run_green_contexts(ch11::green_settings(o), device);
    report.add(ch11::green_table(green));
    report.add(ch11::green_checks(green));

    report.section("4. Host work inside a stream");
    const ch11::HostChainRun chain =
        ch11::run_host_chain(static_cast<int>(o.chain_kernels), o.kernel_us, reps, chapter.instrumented(), device);
    report.add(ch11::host_chain_table(chain));
    report.add(ch11::host_chain_checks(chain));
    const ch11::HostCallRun calls =
        ch11::run_host_call_children(ch11::host_call_child_program(), chapter.instrumented());
    report.add(ch11::host_call_table(calls));
    report.add(ch11::host_call_checks(calls));

    report.section("5. A stream held by a wait on memory");
    const ch11::WaitValueRun wait = ch11::run_wait_value(o.long_block_us, reps, chapter.instrumented(), device);
    report.add(ch11::wait_value_table(wait));
    report.add(ch11::wait_value_checks(wait));

    report.section("6. Ranges a profiler shows");
    const ch11::NvtxRun nvtx = ch11::time_nvtx_ranges(reps);
    report.add(ch11::nvtx_table(nvtx));

    return chapter.finish();
  });
}
