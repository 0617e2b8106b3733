// Chapter 03: events
// ==================
// What it shows
//   - CUDA events as GPU stopwatches: the bare API (cudaEventRecord,
//     cudaEventSynchronize, cudaEventElapsedTime) and the RAII lab::EventTimer;
//   - what an event pair reads around nothing, what a record costs, and what
//     cudaEventBlockingSync changes: the CPU time of waiting, not the wall time;
//   - the host stays free while a kernel runs: poll cudaEventQuery and count
//     the CPU work done meanwhile;
//   - pitfall 1: events placed before a host-to-device copy time the copy too;
//   - pitfall 2: around a lone small kernel the events time the launch gap;
//     a blocked stream (nvbench's method, lab::SampleMode::blocked_stream) hides it;
//   - timing several streams: the first begin event to the latest end event,
//     and why each stream's own event pair reads more than its kernel.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch03_events
//   build/release/chapters/03_events/ch03_events [--n 1Mi] [--streams 4] [--json out.json]
//
// Shape (every chapter): CPU reference -> lesson functions (events.cuh) ->
// the experiment, variants side by side -> a table -> computed verdicts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "chapter.cuh"
#include "clock.cuh"
#include "events.cuh"
#include "launch_options.hpp"
#include "program.hpp"
#include "statistics.hpp"
#include "stream.cuh"
#include "measure.cuh"
#include "timers.cuh"
#include "vector_add.cuh"

namespace {

constexpr char kProgram[] = "ch03_events";

struct Settings {
  std::int64_t n = std::int64_t{1} << 20;          // the small kernel: ~7 us on an H100, launch-gap sized
  std::int64_t reps = 20;                          // samples per measurement
  double kernel_ms = 20.0;                         // the long kernel
  std::int64_t streams = 4;                        // streams in the many-streams demo
  std::int64_t stream_n = std::int64_t{16} << 20;  // floats per vector in each of those streams
  std::int64_t seed = 1;
};

std::string ms(double value) { return lab::fixed(value, 3); }
std::string us(double milliseconds) { return lab::fixed(milliseconds * 1e3, 1); }

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    Settings s;
    lab::Chapter chapter(kProgram, "Chapter 03: events",
                         "Times GPU work with CUDA events, measures what events cost, and shows\n"
                         "what an event pair silently includes: a copy, the launch gap, other streams.");
    lab::Options& options = chapter.options();
    options.add("n", &s.n, 1, std::int64_t{1} << 36, "floats per vector of the small kernel (chapter 01's c = a + b)")
        .add("reps", &s.reps, 1, 10000, "samples per measurement")
        .add("kernel-ms", &s.kernel_ms, 5.0, 1000.0, "length of the long kernel, in ms")
        .add("streams", &s.streams, 1, 32, "streams in the many-streams demo")
        .add("stream-n", &s.stream_n, 1, std::int64_t{1} << 36, "floats per vector in each of those streams")
        .add("seed", &s.seed, 0, std::int64_t{1} << 62, "random input seed");
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.measure_sm_clock();
    const lab::DeviceInfo& device = chapter.device();
    const std::size_t host_free = lab::available_host_memory_bytes();
    if (auto problem = ch01::check_vectors_fit("--n " + lab::format_count(s.n), s.n, device.free_memory_bytes,
                                               host_free);
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    if (auto problem = ch01::check_vectors_fit(
            "--streams " + std::to_string(s.streams) + " x --stream-n " + lab::format_count(s.stream_n),
            s.streams * s.stream_n, device.free_memory_bytes, host_free);
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    lab::Report& report = chapter.report();
    char detail[240];

    // --- CPU reference on random inputs --------------------------------------
    ch01::AddProblem add(s.n, static_cast<std::uint64_t>(s.seed), device);
    lab::Stream stream;
    add.poison(stream);
    add.launch(stream);
    const lab::Comparison first = add.check();
    report.check("c = a + b correct (first launch)", first.passed(), first.detail());
    auto long_kernel = [&](cudaStream_t st) { lab::launch_spin(st, s.kernel_ms); };

    // --- 1. events as a stopwatch --------------------------------------------
    const float raw = ch03::time_with_raw_events(long_kernel, stream);
    const ch03::EventVsHost both = ch03::time_events_and_host(long_kernel, stream);
    std::printf(
        "1. A %.1f ms kernel, timed\n"
        "   bare event API (cudaEventRecord ... cudaEventElapsedTime): %9.3f ms\n"
        "   lab::EventTimer (RAII scope):                              %9.3f ms\n"
        "   host timer with a sync before and after:                   %9.3f ms\n",
        s.kernel_ms, raw, both.event_ms, both.host_ms);
    report.add_result("long kernel: bare events", "ms", {raw});
    report.add_result("long kernel: EventTimer", "ms", {both.event_ms}, {{"host_ms", both.host_ms}});
    const double gap = std::fabs(both.event_ms - both.host_ms) / both.host_ms;
    std::snprintf(detail, sizeof detail, "events %.3f ms, host %.3f ms: %.2f %% apart", both.event_ms, both.host_ms,
                  100 * gap);
    report.check("events agree with a synchronised host timer within 5 % on a long kernel", gap < 0.05, detail);

    // --- 2. what events cost -------------------------------------------------
    const lab::Summary floor = report.add_result("two events back to back", "ms",
                                                 ch03::back_to_back_events_ms(stream, static_cast<int>(s.reps)));
    const double record_timing = ch03::record_cost_us(cudaEventDefault, stream, 1000);
    const double record_plain = ch03::record_cost_us(cudaEventDisableTiming, stream, 1000);
    report.add_result("cudaEventRecord call, timing event", "us", {record_timing});
    report.add_result("cudaEventRecord call, cudaEventDisableTiming", "us", {record_plain});
    const ch03::WaitCost spinning = ch03::wait_for_kernel(cudaEventDefault, s.kernel_ms, stream);
    const ch03::WaitCost sleeping = ch03::wait_for_kernel(cudaEventBlockingSync, s.kernel_ms, stream);
    report.add_result("wait for kernel, default event: CPU time", "ms", {spinning.cpu_ms},
                      {{"wall_ms", spinning.wall_ms}});
    report.add_result("wait for kernel, cudaEventBlockingSync: CPU time", "ms", {sleeping.cpu_ms},
                      {{"wall_ms", sleeping.wall_ms}});
    std::printf(
        "\n2. What events cost\n"
        "   two events back to back (queued behind a blocked stream) read: median %s us, min %s us, max %s us (%lld pairs)\n"
        "   one cudaEventRecord call on the host: %.2f us (timing event), %.2f us (cudaEventDisableTiming)\n",
        us(floor.median).c_str(), us(floor.min).c_str(), us(floor.max).c_str(), static_cast<long long>(s.reps),
        record_timing, record_plain);
    lab::Table waits({{"waiting on a " + lab::fixed(s.kernel_ms, 0) + " ms kernel with", "", false},
                      {"wall", "ms"},
                      {"CPU", "ms"},
                      {"CPU / wall", "%"}});
    waits.add_row({"default event (the thread spins)", ms(spinning.wall_ms), ms(spinning.cpu_ms),
                   lab::fixed(100 * spinning.cpu_ms / spinning.wall_ms, 0)});
    waits.add_row({"cudaEventBlockingSync (the thread sleeps)", ms(sleeping.wall_ms), ms(sleeping.cpu_ms),
                   lab::fixed(100 * sleeping.cpu_ms / sleeping.wall_ms, 0)});
    std::printf("%s", waits.render().c_str());
    std::printf("   %s\n", sleeping.cpu_ms < 0.5 * spinning.cpu_ms
                               ? "the blocking-sync event left the core free for other threads while waiting"
                               : "in this run the blocking-sync event did NOT use less CPU than the default one");

    // --- 3. the host stays free ----------------------------------------------
    const ch03::FreeHost free_host = ch03::poll_while_kernel_runs(s.kernel_ms, stream);
    std::printf(
        "\n3. While a %.3f ms kernel ran, the host polled cudaEventQuery %llu times and did %llu iterations\n"
        "   of CPU work between the polls (%.3f ms of host time)\n",
        free_host.kernel_ms, static_cast<unsigned long long>(free_host.polls),
        static_cast<unsigned long long>(free_host.work_iterations), free_host.host_ms);
    report.add_result("CPU work while the kernel ran", "iterations", {static_cast<double>(free_host.work_iterations)},
                      {{"polls", static_cast<double>(free_host.polls)}, {"kernel_ms", free_host.kernel_ms}});
    report.check("the host did CPU work while the kernel ran", free_host.polls > 0,
                 std::to_string(free_host.polls) + " polls");

    // --- 4. pitfall 1: what the events bracket --------------------------------
    const ch03::Bracketing b = ch03::time_copy_and_kernel(add, static_cast<int>(s.reps), stream);
    const lab::Summary with_copy = report.add_result("events around copy + kernel", "ms", b.copy_and_kernel_ms);
    const lab::Summary kernel_only = report.add_result("events around the kernel only", "ms", b.kernel_only_ms);
    const lab::Summary copy_only = report.add_result("events around the copy only", "ms", b.copy_only_ms);
    report.check("c = a + b correct after the copy", b.result.passed(), b.result.detail());
    std::printf(
        "\n4. Pitfall 1: events placed before a host-to-device copy of a (%.1f MiB, pinned) time it too\n"
        "   start; copy; kernel; stop   median %9.3f ms\n"
        "   copy; start; kernel; stop   median %9.3f ms   (the kernel)\n"
        "   start; copy; stop           median %9.3f ms   (the copy)\n",
        static_cast<double>(add.c_bytes()) / (1 << 20), with_copy.median, kernel_only.median, copy_only.median);
    std::snprintf(detail, sizeof detail, "%.3f ms vs %.3f ms", with_copy.median, kernel_only.median);
    report.check("the pair around copy + kernel reads more than around the kernel", with_copy.median > kernel_only.median,
                 detail);

    // --- 5. pitfall 2: the launch gap ----------------------------------------
    std::printf("\n5. Pitfall 2: a lone small kernel (c = a + b, %s floats), %lld samples each\n",
                lab::format_count(s.n).c_str(), static_cast<long long>(s.reps));
    lab::Table modes({{"how the samples were queued", "", false},
                      {"median", "us"},
                      {"min", "us"},
                      {"max", "us"},
                      {"what the events contained", "", false}});
    // The last row flushes the L2 before each sample, as Nsight Compute does by
    // default (--cache-control all): the figure to compare with its gpu__time_duration.
    struct Row {
      lab::SampleMode mode;
      bool flush_l2;
      const char* name;
      const char* contents;
    };
    const Row rows[] = {
        {lab::SampleMode::back_to_back, false, "back to back", "kernel, plus gaps while the host is behind"},
        {lab::SampleMode::isolated, false, "isolated", "launch gap + kernel"},
        {lab::SampleMode::blocked_stream, false, "blocked stream", "kernel only (warm L2)"},
        {lab::SampleMode::blocked_stream, true, "blocked stream, L2 flushed", "kernel only (cold L2)"},
    };
    double isolated = 0, blocked = 0;
    for (const Row& row : rows) {
      lab::MeasureConfig config;
      config.samples = static_cast<int>(s.reps);
      config.mode = row.mode;
      config.flush_l2 = row.flush_l2;
      const lab::Summary sum = report.add_result(std::string("small kernel, ") + row.name, "ms",
                                                 lab::measure_ms([&](cudaStream_t st) { add.launch(st); }, stream, config),
                                                 {{"n", static_cast<double>(s.n)}});
      modes.add_row({row.name, us(sum.median), us(sum.min), us(sum.max), row.contents});
      if (row.mode == lab::SampleMode::isolated) isolated = sum.median;
      if (row.mode == lab::SampleMode::blocked_stream && !row.flush_l2) blocked = sum.median;
    }
    std::printf("%s", modes.render().c_str());
    std::printf("   the launch gap inside the isolated events: %.1f us (%.0f %% of the blocked-stream time)\n",
                (isolated - blocked) * 1e3, 100 * (isolated - blocked) / blocked);
    // Even with no gap, an event pair reads its own floor (section 2) on top of
    // the kernel; a profiler's kernel duration does not include it.
    const double corrected = blocked - floor.median;
    std::printf(
        "   blocked stream minus the empty event pair (%.1f us, section 2): %.1f us, the figure closest to a\n"
        "   profiler's kernel duration (Nsight Compute: ncu --cache-control none --clock-control none)\n",
        floor.median * 1e3, corrected * 1e3);
    report.add_result("small kernel, blocked stream, minus the empty event pair", "ms", {corrected},
                      {{"empty_pair_ms", floor.median}, {"n", static_cast<double>(s.n)}});
    const lab::Comparison after_timing = add.check();
    report.check("c = a + b still correct after timing", after_timing.passed(), after_timing.detail());
    std::snprintf(detail, sizeof detail, "blocked %.1f us vs isolated %.1f us", blocked * 1e3, isolated * 1e3);
    report.check("the blocked stream reads less than isolated launches, and more than zero",
                 blocked < isolated && blocked > 0, detail);

    // --- 6. timing many streams -----------------------------------------------
    const ch03::ManyStreams m = ch03::time_many_streams(static_cast<int>(s.streams), s.stream_n,
                                                        static_cast<std::uint64_t>(s.seed) + 100, device);
    std::printf(
        "\n6. %lld streams, each c = a + b on its own %s floats (one kernel alone: %.3f ms)\n",
        static_cast<long long>(s.streams), lab::format_count(s.stream_n).c_str(), m.one_kernel_ms);
    lab::Table per_stream({{"stream", ""}, {"its own begin/end events", "ms"}, {"x one kernel alone", ""}});
    for (std::size_t i = 0; i < m.per_stream_ms.size(); ++i) {
      per_stream.add_row({std::to_string(i), ms(m.per_stream_ms[i]), lab::fixed(m.per_stream_ms[i] / m.one_kernel_ms, 2)});
    }
    std::printf("%s", per_stream.render().c_str());
    const double sum_of_kernels = m.one_kernel_ms * static_cast<double>(s.streams);
    std::printf(
        "   first begin to latest end: %.3f ms (host, synchronised: %.3f ms); %lld kernels alone back to back: %.3f ms\n",
        m.first_begin_to_last_end_ms, m.host_ms, static_cast<long long>(s.streams), sum_of_kernels);
    const double longest = *std::max_element(m.per_stream_ms.begin(), m.per_stream_ms.end());
    if (longest > 1.5 * m.one_kernel_ms) {
      std::printf(
          "   each stream's pair started when its stream was reached, then its kernel waited for the GPU the\n"
          "   others held: the longest pair read %.1fx one kernel's time\n",
          longest / m.one_kernel_ms);
    } else {
      std::printf("   each stream's pair read about one kernel's time: the kernels did not wait for each other here\n");
    }
    report.add_result("many streams: first begin to latest end", "ms", {m.first_begin_to_last_end_ms},
                      {{"streams", static_cast<double>(s.streams)}, {"one_kernel_ms", m.one_kernel_ms}, {"host_ms", m.host_ms}});
    report.add_result("many streams: each stream's pair", "ms", m.per_stream_ms);
    for (std::size_t i = 0; i < m.results.size(); ++i) {
      report.check("stream " + std::to_string(i) + ": c = a + b correct", m.results[i].passed(), m.results[i].detail());
    }
    std::printf("\n");
    return chapter.finish();
  });
}
