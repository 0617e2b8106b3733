// Chapter 03: events
// ==================
// What it shows, one numbered section of README.md each, in this order:
//   1. events as a stopwatch: cudaEventRecord / cudaEventSynchronize /
//      cudaEventElapsedTime around a long kernel, beside a synchronised host timer;
//   2. what an event costs: an empty event pair on the GPU, a cudaEventRecord on the host;
//   3. waiting: cudaEventSynchronize (a default and a cudaEventBlockingSync event),
//      cudaStreamSynchronize and cudaDeviceSynchronize, under the default flags and under
//      cudaDeviceScheduleBlockingSync (set in a child process, before or after its context):
//      which flag decides how each call waits;
//   4. the host stays free: poll cudaEventQuery and do CPU work meanwhile;
//   5. pitfall 1: events recorded before a copy time the copy too;
//   6. pitfall 2: the launch gap: back to back, isolated, blocked stream (nvbench), minus
//      the empty pair, L2 flushed, each beside CUPTI's kernel duration of the same launches,
//      at two kernel sizes;
//   7. timing many streams: from the earliest begin event to the latest end event;
//   8. pitfall 3: events recorded on another stream than the work's, beside the
//      pair on the work's own stream and a host timer that catches the mistake.
// The lesson is events.cu (one function per section, declared in events.cuh), its data data.hpp; checks.hpp
// and tables.hpp turn that data into the checks and tables printed here; options.hpp declares the options and
// the memory they need.
// What the documentation states, and why, is on the page (README.md).
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch03_events
//   build/release/chapters/03_events/ch03_events [--n 1Mi] [--n-large 32Mi] [--json out.json]
#include "chapter.cuh"
#include "checks.hpp"
#include "events.cuh"
#include "options.hpp"
#include "program.hpp"
#include "stream.cuh"
#include "tables.hpp"

constexpr char kProgram[] = "ch03_events";

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    ch03::Options o;
    lab::Chapter chapter(kProgram, "Chapter 03: events",
                         "Times GPU work with CUDA events, measures what events cost and how a thread waits for\n"
                         "them, and what an event pair silently includes: a copy, the launch gap, other streams.");
    ch03::add_options(chapter.options(), o);
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    const lab::DeviceInfo& device = chapter.device();
    chapter.require_memory(ch03::memory_need(o, device.l2_bytes));
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream stream;
    const int reps = static_cast<int>(o.reps);
    const auto seed = static_cast<std::uint64_t>(o.seed);

    report.section("1. Events as a stopwatch");
    const ch03::StopwatchRun stopwatch = ch03::time_long_kernel(o.kernel_ms, reps, stream);
    report.add(ch03::stopwatch_table(stopwatch));
    report.add(ch03::stopwatch_checks(stopwatch));

    report.section("2. What an event costs");
    const ch03::EventCostRun costs = ch03::measure_event_costs(reps, 1000, stream);
    report.add(ch03::event_cost_table(costs));

    report.section("3. Waiting: spin or sleep");
    const ch03::WaitRun waits = ch03::compare_waits(o.kernel_ms, stream, ch03::wait_child_program());
    report.add(ch03::wait_table(waits));
    report.add(ch03::wait_checks(waits));

    report.section("4. The host stays free");
    const ch03::FreeHostRun free_host = ch03::poll_while_kernel_runs(o.kernel_ms, stream);
    report.add(ch03::free_host_table(free_host));
    report.add(ch03::free_host_checks(free_host));

    report.section("5. Pitfall 1: what the events bracket");
    const ch03::BracketingRun bracketing = ch03::time_copy_and_kernel(o.n, seed, device, reps, stream);
    report.add(ch03::bracketing_table(bracketing));
    report.add(ch03::bracketing_checks(bracketing));

    report.section("6. Pitfall 2: the launch gap, against CUPTI");
    const ch03::LaunchGapRun gap = ch03::time_launch_gap(o.n, o.n_large, seed + 10, device, reps, costs, stream);
    report.add(ch03::launch_gap_table(gap.small));
    report.add(ch03::launch_gap_table(gap.large));
    report.add(ch03::launch_gap_checks(gap));

    report.section("7. Timing many streams");
    const ch03::ManyStreamsRun many =
        ch03::time_many_streams(static_cast<int>(o.streams), o.stream_n, seed + 100, device);
    report.add(ch03::many_streams_table(many));
    report.add(ch03::many_streams_checks(many));

    report.section("8. Pitfall 3: events on another stream");
    const ch03::WrongStreamRun wrong = ch03::time_on_wrong_stream(o.n_large, seed + 200, device, reps);
    report.add(ch03::wrong_stream_table(wrong));
    report.add(ch03::wrong_stream_checks(wrong));

    return chapter.finish();
  });
}
