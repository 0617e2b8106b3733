// Chapter 02: sync pitfalls
// =========================
// What it shows, section by section (README.md has the same numbers)
//   1. A host timer around c = a + b (chapter 01's kernel, sized from this GPU's
//      memory rate to run about 100 us), four ways: sync before and after, before
//      only, after only, never. A warm-up left in flight lands in the first
//      "sync after only" reading (the backlog).
//   2. The same four timers around a long kernel: without a sync after the
//      launch, the timer holds the launch call only.
//   3. Which host calls wait for work queued on another stream, and on what
//      condition: the same calls with the work on (a) a blocking stream,
//      (b) a non-blocking stream, (c) a blocking stream from a file built with
//      --default-stream per-thread, (d) the legacy default stream from that file.
//   4. Where the CPU work goes: before reading the result it overlaps the GPU's.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch02_sync_pitfalls
//   build/release/chapters/02_sync_pitfalls/ch02_sync_pitfalls [--n 1Mi] [--runs 10] [--json out.json] [--timeline]
//
// The lesson is sync_pitfalls.cu, declared in sync_pitfalls.cuh (and implicit_sync.cuh, section 3's probe,
// built twice); the options and the size of section 1's kernel are options.hpp; the data the lesson returns is
// data.hpp, its checks checks.hpp, its tables tables.hpp; what the documentation says, and why, is on the page.
#include "chapter.cuh"
#include "checks.hpp"
#include "options.hpp"
#include "program.hpp"
#include "stream.cuh"
#include "sync_pitfalls.cuh"
#include "tables.hpp"

int main(int argc, char** argv) {
  constexpr char kProgram[] = "ch02_sync_pitfalls";
  return lab::run_program(kProgram, [&] {
    ch02::Options o;
    lab::Chapter chapter(kProgram, "Chapter 02: sync pitfalls",
                         "Times GPU work with a host timer four ways, finds which calls wait for queued work and\n"
                         "on what condition, and shows where CPU work should go.");
    ch02::add_options(chapter.options(), o);
    chapter.add_timeline_options();  // --timeline / --trace: section 3's cudaMemcpy in each setup
    if (!chapter.start(argc, argv)) return lab::exit_code::success;  // --help was printed
    const lab::DeviceInfo& device = chapter.device();
    // Section 1's n: --n, or (--n 0, the default) sized from this GPU's memory rate.
    const std::int64_t timed_n = ch02::timed_add_n(
        o, ch02::nominal_memory_bytes_per_second(device.nominal_memory_clock_mhz, device.memory_bus_bits));
    chapter.require_memory(ch02::memory_need(o, timed_n));
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    const auto seed = static_cast<std::uint64_t>(o.seed);
    lab::Stream stream;  // a blocking stream (cudaStreamCreate)

    report.section("1. A host timer around c = a + b, four ways");
    {
      ch01::AddProblem add(timed_n, seed, device);  // chapter 01's c = a + b, freed before section 3
      const ch02::HostTimerRun add_run = ch02::compare_host_timers(ch02::TimedKernel::add_kernel(add), o, stream);
      report.add(ch02::host_timer_table(add_run));
      report.add(ch02::host_timer_checks(add_run));
    }

    report.section("2. The same four timers around a long kernel");
    const ch02::HostTimerRun long_kernel =
        ch02::compare_host_timers(ch02::TimedKernel::spinning(o.long_kernel_ms), o, stream);
    report.add(ch02::host_timer_table(long_kernel));
    report.add(ch02::long_kernel_checks(long_kernel));

    report.section("3. Which calls wait for queued work, and on what condition");
    ch01::AddProblem add(ch02::kReadN, seed, device);  // the work whose result sections 3 and 4 read
    const ch02::ImplicitSyncRun calls = ch02::probe_host_calls(add, o.queued_ms, chapter.timeline());
    for (ch02::WorkSetup setup : ch02::kAllSetups) {
      report.add(ch02::implicit_sync_table(calls, setup));
      report.add(ch02::implicit_sync_checks(calls, setup));
    }

    report.section("4. Where the CPU work goes");
    const ch02::Placement placement = ch02::compare_cpu_work_placement(add, o.long_kernel_ms, o.cpu_ms, stream);
    report.add(ch02::placement_table(placement));
    report.add(ch02::placement_checks(placement));
    return chapter.finish();
  });
}
