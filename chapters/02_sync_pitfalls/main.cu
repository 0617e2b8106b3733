// Chapter 02: sync pitfalls
// =========================
// What it shows
//   - a host timer around an asynchronous launch in four cases (synchronise
//     before and after, only before, only after, never), around a short kernel
//     (the seed experiment, chapter 01's c = a + b) and around a long one, with
//     what each timer really contained;
//   - the backlog: work left in flight by a warm-up lands in the first sample
//     of the "sync after only" timer;
//   - which host calls wait for queued GPU work without saying so (a blocking
//     cudaMemcpy, cudaMalloc/cudaFree, reading a result) and which do not (a
//     launch, cudaMemcpyAsync into pinned memory);
//   - CPU work placed after queuing GPU work overlaps it; placed after an
//     implicit synchronisation, the two times add up.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch02_sync_pitfalls
//   build/release/chapters/02_sync_pitfalls/ch02_sync_pitfalls [--n 1Mi] [--runs 10] [--json out.json]
//
// Shape (every chapter): CPU reference -> lesson functions (sync_pitfalls.cuh)
// -> the experiment, variants side by side -> a table -> computed verdicts.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "chapter.cuh"
#include "clock.cuh"
#include "launch_options.hpp"
#include "program.hpp"
#include "statistics.hpp"
#include "stream.cuh"
#include "sync_pitfalls.cuh"
#include "measure.cuh"
#include "vector_add.cuh"

namespace {

constexpr char kProgram[] = "ch02_sync_pitfalls";

struct Settings {
  std::int64_t n = std::int64_t{1} << 20;  // floats per vector: a ~7 us kernel on an H100
  std::int64_t runs = 10;                  // timed runs per case (the seed's count)
  std::int64_t warmup = 10;                // warm-up launches left in flight (the seed's count)
  double backlog_ms = 2.0;                 // GPU work queued before the warm-up
  double long_kernel_ms = 10.0;            // the long kernel, and the GPU work of the placement demo
  double cpu_ms = 10.0;                    // CPU work in the placement demo
  double queued_ms = 20.0;                 // GPU work queued before each host call probed
  std::int64_t seed = 1;
};

std::string ms(double value) { return lab::fixed(value, 3); }

// Times the four cases around @p work, prints a table row per case, then the
// checks @p check_result makes after each case.
std::vector<ch02::CaseRun> four_cases(const ch02::GpuWork& work, cudaStream_t stream, const Settings& s,
                                      const std::string& label, lab::Report& report,
                                      const std::function<lab::Comparison()>& check_result) {
  std::vector<ch02::CaseRun> runs;
  std::vector<lab::Comparison> results;
  lab::Table table({{"case", "", false},
                    {"first", "ms"},
                    {"median", "ms"},
                    {"max", "ms"},
                    {"the timer contained", "", false}});
  for (ch02::SyncCase c : ch02::kAllCases) {
    ch02::CaseRun run = ch02::run_case(c, work, stream, static_cast<int>(s.warmup), s.backlog_ms,
                                       static_cast<int>(s.runs));
    if (check_result) results.push_back(check_result());
    const lab::Summary sum = report.add_result(label + ": " + ch02::case_name(c), "ms", run.samples_ms,
                                               {{"first_run_ms", run.samples_ms.front()}, {"backlog_ms", run.backlog_ms}, {"contents", ch02::case_contents(c, false)}});
    table.add_row({ch02::case_name(c), ms(run.samples_ms.front()), ms(sum.median), ms(sum.max),
                   c == ch02::SyncCase::after_only ? "backlog (first run) + launch + kernel + sync"
                                                   : ch02::case_contents(c, false)});
    runs.push_back(std::move(run));
  }
  std::printf("%s", table.render().c_str());
  for (std::size_t i = 0; i < results.size(); ++i) {
    report.check(label + " correct after '" + ch02::case_name(ch02::kAllCases[i]) + "'", results[i].passed(),
                 results[i].detail());
  }
  return runs;
}

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    Settings s;
    lab::Chapter chapter(kProgram, "Chapter 02: sync pitfalls",
                         "Times GPU work with a host timer four ways, finds the calls that synchronise\n"
                         "without saying so, and shows where CPU work should go.");
    lab::Options& options = chapter.options();
    options.add("n", &s.n, 1, std::int64_t{1} << 36, "floats per vector of the short kernel (chapter 01's c = a + b)");
    options.add("runs", &s.runs, 1, 10000, "timed runs per case");
    options.add("warmup", &s.warmup, 0, 10000, "warm-up launches left in flight before each case");
    options.add("backlog-ms", &s.backlog_ms, 0.0, 1000.0, "GPU work queued before the warm-up, in ms");
    options.add("long-kernel-ms", &s.long_kernel_ms, 1.0, 1000.0,
                "the long kernel, and the GPU work of the placement demo, in ms");
    options.add("cpu-ms", &s.cpu_ms, 1.0, 1000.0, "CPU work in the placement demo, in ms");
    options.add("seed", &s.seed, 0, std::int64_t{1} << 62, "random input seed");
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.measure_sm_clock();
    const lab::DeviceInfo& device = chapter.device();
    // The same memory needs as chapter 01 (a, b, c and their host copies), so the same check.
    if (auto problem = ch01::check_vectors_fit("--n " + lab::format_count(s.n), s.n, device.free_memory_bytes,
                                               lab::available_host_memory_bytes());
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    lab::Report& report = chapter.report();

    // --- CPU reference on random inputs, and the kernel's own GPU time -------
    ch01::AddProblem add(s.n, static_cast<std::uint64_t>(s.seed), device);
    lab::Stream stream;
    add.poison(stream);
    add.launch(stream);
    const lab::Comparison first = add.check();
    report.check("c = a + b correct (first launch)", first.passed(), first.detail());
    lab::MeasureConfig gpu_only;
    gpu_only.mode = lab::SampleMode::blocked_stream;  // the kernel alone, no launch gap (chapter 03)
    const lab::Summary kernel = report.add_result(
        "c = a + b, GPU time (events, blocked stream)", "ms",
        lab::measure_ms([&](cudaStream_t st) { add.launch(st); }, stream, gpu_only));
    std::printf("c = a + b on %lld floats runs for %.1f us on the GPU (median of %d event samples, blocked stream)\n\n",
                static_cast<long long>(s.n), kernel.median * 1e3, gpu_only.samples);

    // --- 1. the seed experiment: four host timers around c = a + b -----------
    std::printf(
        "1. A host timer around c = a + b, four ways (%lld runs each; before each case %lld warm-up\n"
        "   launches and a %.1f ms kernel are left in flight)\n",
        static_cast<long long>(s.runs), static_cast<long long>(s.warmup), s.backlog_ms);
    const auto short_runs = four_cases([&](cudaStream_t st) { add.launch(st); }, stream, s, "c = a + b", report,
                                       [&] { return add.check(); });
    const ch02::CaseRun& after_only = short_runs[2];
    const double after_median = lab::summarize(after_only.samples_ms).median;
    const double backlog_seen = after_only.samples_ms.front() - after_median;
    std::printf(
        "The warm-up left %s ms of GPU work in flight. 'sync after only' read %s ms on its first run\n"
        "and %s ms at the median: %s\n\n",
        ms(after_only.backlog_ms).c_str(), ms(after_only.samples_ms.front()).c_str(), ms(after_median).c_str(),
        backlog_seen > 0.5 * after_only.backlog_ms
            ? ("the first run contained " + ms(backlog_seen) + " ms of backlog that was not its own work.").c_str()
            : "the backlog did not show in this run (the GPU had finished it before the timer started).");

    // --- 2. the same four timers around a long kernel ------------------------
    std::printf("2. The same four timers around a %.1f ms kernel\n", s.long_kernel_ms);
    const auto long_runs = four_cases([&](cudaStream_t st) { lab::launch_spin(st, s.long_kernel_ms); }, stream, s,
                                      "long kernel", report, nullptr);
    const double synced = lab::summarize(long_runs[0].samples_ms).median;
    const double unsynced = lab::summarize(long_runs[3].samples_ms).median;
    char detail[200];
    std::snprintf(detail, sizeof detail, "no sync %.4f ms vs sync before and after %.3f ms (%.0fx)", unsynced, synced,
                  synced / unsynced);
    report.check("without a sync the host timer reads under 1/10 of the kernel", unsynced < synced / 10, detail);
    // --timeline / --trace: what the GPU ran in one run of each case, backlog included.
    for (ch02::SyncCase c : ch02::kAllCases) {
      if (!chapter.timeline().wanted()) break;
      chapter.timeline().begin(std::string("long kernel, ") + ch02::case_name(c) +
                               " (T: what the host timer spanned; K: the backlog, then the timed kernel)");
      chapter.timeline().name_stream(stream, "the chapter's stream");
      std::uint64_t timer_start = 0;
      ch02::run_case(c, [&](cudaStream_t st) { lab::launch_spin(st, s.long_kernel_ms); }, stream,
                     static_cast<int>(s.warmup), s.backlog_ms, 1, [&](bool started) {
                       const std::uint64_t now = lab::TimelineRecorder::now_ns();
                       if (started) timer_start = now;
                       else chapter.timeline().mark("host timer", "host timer", timer_start, now);
                     });
      chapter.timeline().end();
    }
    std::printf("\n");

    // --- 3. implicit synchronisation ----------------------------------------
    std::printf("3. Which calls wait for queued work? Before each call, %.0f ms of GPU work was queued\n", s.queued_ms);
    lab::Table calls({{"call", "", false},
                      {"returned after", "ms"},
                      {"waited", "", false},
                      {"CUDA docs", "", false},
                      {"data", "", false}});
    std::vector<ch02::ImplicitSync> probes;
    for (ch02::HostCall call : ch02::kAllHostCalls) {
      const ch02::ImplicitSync probe = ch02::probe_implicit_sync(call, add, s.queued_ms, stream);
      report.add_result(std::string("returned after: ") + ch02::host_call_name(call), "ms", {probe.returned_after_ms},
                        {{"queued_ms", probe.queued_ms}, {"waited", probe.waited}});
      calls.add_row({ch02::host_call_name(call), ms(probe.returned_after_ms), probe.waited ? "yes" : "no",
                     ch02::documented_to_wait(call) ? "waits" : "does not wait",
                     probe.result.passed() ? "correct" : "WRONG"});
      probes.push_back(probe);
    }
    std::printf("%s", calls.render().c_str());
    for (std::size_t i = 0; i < probes.size(); ++i) {
      const ch02::HostCall call = ch02::kAllHostCalls[i];
      const bool expected = ch02::documented_to_wait(call);
      report.check(std::string(ch02::host_call_name(call)) + ": data correct", probes[i].result.passed(),
                   probes[i].result.detail());
      std::snprintf(detail, sizeof detail, "returned after %.3f ms of %.1f ms queued", probes[i].returned_after_ms,
                    probes[i].queued_ms);
      report.check(std::string(ch02::host_call_name(call)) + (expected ? " waits" : " does not wait") +
                       ", as documented",
                   probes[i].waited == expected, detail);
    }
    std::printf("\n");

    // --- 4. where the CPU work goes -----------------------------------------
    const ch02::Placement p = ch02::compare_cpu_work_placement(add, s.long_kernel_ms, s.cpu_ms, stream);
    std::printf(
        "4. %.1f ms of GPU work and %.1f ms of CPU work\n"
        "   queue GPU work, CPU work, then read the result:  %8.3f ms  (max of the two: %.3f)\n"
        "   queue GPU work, read the result, then CPU work:  %8.3f ms  (sum of the two: %.3f)\n",
        p.gpu_ms, p.cpu_ms, p.work_then_sync_ms, std::max(p.gpu_ms, p.cpu_ms), p.sync_then_work_ms,
        p.gpu_ms + p.cpu_ms);
    report.add_result("wall: GPU work, CPU work, then sync", "ms", {p.work_then_sync_ms},
                      {{"gpu_ms", p.gpu_ms}, {"cpu_ms", p.cpu_ms}});
    report.add_result("wall: GPU work, sync, then CPU work", "ms", {p.sync_then_work_ms},
                      {{"gpu_ms", p.gpu_ms}, {"cpu_ms", p.cpu_ms}});
    report.check("result correct with CPU work before the sync", p.work_then_sync.passed(),
                 p.work_then_sync.detail());
    report.check("result correct with CPU work after the sync", p.sync_then_work.passed(), p.sync_then_work.detail());
    std::snprintf(detail, sizeof detail, "%.3f ms vs %.3f ms: %.3f ms saved", p.work_then_sync_ms,
                  p.sync_then_work_ms, p.sync_then_work_ms - p.work_then_sync_ms);
    report.check("CPU work before the sync overlaps the GPU (faster)", p.work_then_sync_ms < p.sync_then_work_ms,
                 detail);
    std::printf("\n");
    return chapter.finish();
  });
}
