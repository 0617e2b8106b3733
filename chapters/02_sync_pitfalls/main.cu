// Chapter 02: sync pitfalls
// =========================
// What it shows, section by section (README.md has the same numbers)
//   1. A host timer around c = a + b (chapter 01's kernel), four ways: sync
//      before and after, before only, after only, never. A warm-up left in
//      flight lands in the first "sync after only" reading (the backlog).
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
// The lesson is sync_pitfalls.cuh (and implicit_sync.cuh, section 3's probe,
// built twice); the data, tables and verdicts are findings.hpp.
#include <cstdint>

#include "chapter.cuh"
#include "launch_options.hpp"
#include "memory_fit.hpp"
#include "program.hpp"
#include "stream.cuh"
#include "sync_pitfalls.cuh"

namespace {

constexpr char kProgram[] = "ch02_sync_pitfalls";
constexpr char kSyncBehavior[] = "CUDA Runtime API, 3. Stream synchronization behavior";

struct Settings {
  std::int64_t n = std::int64_t{1} << 20;  // floats per vector: a ~5 us kernel on an H100
  std::int64_t runs = 10;                  // host-timer readings per case (the article's count)
  std::int64_t warmup = 10;                // warm-up launches left in flight (the article's count)
  double backlog_ms = 2.0;                 // spin kernel queued before the warm-up
  double long_kernel_ms = 10.0;            // section 2's kernel, and section 4's GPU work
  double queued_ms = 20.0;                 // GPU work queued before each call of section 3
  double cpu_ms = 10.0;                    // section 4's CPU work
  std::int64_t seed = 1;
};

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    Settings s;
    lab::Chapter chapter(kProgram, "Chapter 02: sync pitfalls",
                         "Times GPU work with a host timer four ways, finds which calls wait for queued work and\n"
                         "on what condition, and shows where CPU work should go.");
    lab::Options& options = chapter.options();
    options.add("n", &s.n, 1, std::int64_t{1} << 36, "floats per vector of chapter 01's c = a + b");
    options.add("runs", &s.runs, 1, 10000, "host-timer readings per case");
    options.add("warmup", &s.warmup, 0, 10000, "warm-up launches left in flight before each case");
    options.add("backlog-ms", &s.backlog_ms, 0.0, 1000.0, "spin kernel queued before the warm-up, in ms");
    options.add("long-kernel-ms", &s.long_kernel_ms, 1.0, 1000.0, "section 2's kernel and section 4's GPU work, in ms");
    options.add("queued-ms", &s.queued_ms, 1.0, 1000.0, "GPU work queued before each call of section 3, in ms");
    options.add("cpu-ms", &s.cpu_ms, 1.0, 1000.0, "section 4's CPU work, in ms");
    options.add("seed", &s.seed, 0, std::int64_t{1} << 62, "random input seed");
    chapter.add_timeline_options();  // --timeline / --trace: section 3's cudaMemcpy in each setup
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.measure_sm_clock();
    // a, b and c on the device, their host copies: chapter 01's check.
    if (auto problem = ch01::check_vectors_fit("--n " + lab::format_count(s.n), s.n, chapter.device().free_memory_bytes,
                                               lab::available_host_memory_bytes());
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    lab::Report& report = chapter.report();
    ch01::AddProblem add(s.n, static_cast<std::uint64_t>(s.seed), chapter.device());
    lab::Stream stream;  // a blocking stream (cudaStreamCreate)
    const ch02::HostTimerSettings timers{static_cast<int>(s.runs), static_cast<int>(s.warmup), s.backlog_ms};

    report.section("1. A host timer around c = a + b, four ways");
    report.background("a kernel launch returns immediately, usually before the kernel has completed; "
                      "cudaStreamSynchronize blocks until the stream has completed all its work",
                      "CUDA Programming Guide, 2.3 Asynchronous Execution; CUDA Runtime API, cudaStreamSynchronize");
    const ch02::HostTimerRun short_kernel =
        ch02::compare_host_timers(ch02::TimedKernel::add_kernel(add), timers, stream);
    report.add(ch02::host_timer_table(short_kernel));
    report.add(ch02::host_timer_findings(short_kernel));

    report.section("2. The same four timers around a long kernel");
    const ch02::HostTimerRun long_kernel =
        ch02::compare_host_timers(ch02::TimedKernel::spinning(s.long_kernel_ms), timers, stream);
    report.add(ch02::host_timer_table(long_kernel));
    report.add(ch02::long_kernel_findings(long_kernel));

    report.section("3. Which calls wait for queued work, and on what condition");
    report.background("the legacy default stream waits for all blocking streams of its device, and they wait for "
                      "it; streams made with cudaStreamNonBlocking do not synchronise with it",
                      kSyncBehavior);
    report.background("with --default-stream per-thread (per file), stream 0 is the calling thread's own stream: "
                      "it does not synchronise with other streams, but still does with the legacy default stream",
                      kSyncBehavior);
    report.background("cudaMemcpy from device to host returns once the copy has completed; cudaMemcpyAsync between "
                      "device and pageable memory might be synchronous; to pinned memory it is asynchronous",
                      "CUDA Runtime API, 2. API synchronization behavior");
    report.background("cudaFree of memory from cudaMalloc may perform implicit synchronization; cudaMalloc's page "
                      "says nothing of it, and any call may block when internal resources run out",
                      "CUDA Runtime API, cudaFree and cudaMalloc; 2. API synchronization behavior");
    const ch02::ImplicitSyncRun calls = ch02::probe_host_calls(add, s.queued_ms, chapter.timeline());
    for (ch02::WorkSetup setup : ch02::kAllSetups) {
      report.add(ch02::implicit_sync_table(calls, setup));
      report.add(ch02::implicit_sync_findings(calls, setup));
    }

    report.section("4. Where the CPU work goes");
    const ch02::Placement placement = ch02::compare_cpu_work_placement(add, s.long_kernel_ms, s.cpu_ms, stream);
    report.add(ch02::placement_table(placement));
    report.add(ch02::placement_findings(placement));
    return chapter.finish();
  });
}
