// Chapter 04: streams
// ===================
// What it shows
//   - the stream is a launch's fourth parameter: kernel<<<grid, block, shared, stream>>>;
//     work in one stream runs in order, work in different streams may overlap;
//   - the workload (the Numba streams-and-events tutorial): normalise an array,
//     a <- a / sum(a), with three kernels queued on one stream, on pinned host arrays,
//     checked against a double-precision CPU reference;
//   - ten independent arrays: all in one stream vs one stream each. Total time
//     from events (first begin to last end), per-array times, the speedup, and
//     what overlapped (copies of one array beside kernels or copies of another);
//   - default-stream semantics, measured: the legacy default stream serialises
//     with blocking streams; cudaStreamNonBlocking streams are exempt; a
//     translation unit built with --default-stream per-thread gets its own stream 0;
//   - a race: a slow producer on one stream, a consumer on another with no
//     ordering reads data not yet written; the fix is an event and cudaStreamWaitEvent;
//   - stream-ordered memory: cudaMallocAsync / cudaFreeAsync vs cudaMalloc / cudaFree
//     for per-call temporaries, and why memory must be freed in the order of its use.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch04_streams
//   build/release/chapters/04_streams/ch04_streams [--n 10M] [--arrays 10] [--streams 10] [--json out.json]
//
// Shape (every chapter): CPU reference -> lesson functions (normalize.cuh,
// streams.cuh) -> the experiment, variants side by side -> a table -> computed verdicts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "chapter.cuh"
#include "memory_fit.hpp"
#include "normalize.cuh"
#include "program.hpp"
#include "statistics.hpp"
#include "stream.cuh"
#include "streams.cuh"
#include "timeline.hpp"

namespace {

constexpr char kProgram[] = "ch04_streams";

struct Settings {
  std::int64_t n = 10'000'000;  // floats per array: the tutorial's 10 million
  std::int64_t arrays = 10;     // independent arrays
  std::int64_t streams = 10;    // streams they are spread over in the "many" case
  std::int64_t reps = 5;        // runs of each case; the median is reported
  double spin_ms = 10.0;        // each kernel of the default-stream experiment
  double race_delay_ms = 5.0;   // how slow the producer is
  std::int64_t race_n = std::int64_t{1} << 20;
  std::int64_t race_reps = 20;  // runs of the race and of its fix
  double queued_ms = 20.0;      // work queued before the temporaries' call
  std::int64_t seed = 1;
};

std::string ms(double value) { return lab::fixed(value, 3); }

std::vector<double> totals(const std::vector<ch04::ArraysRun>& runs) {
  std::vector<double> result;
  for (const auto& r : runs) result.push_back(r.total_ms);
  return result;
}

// The run whose total is the median, for the table and the chart.
const ch04::ArraysRun& median_run(const std::vector<ch04::ArraysRun>& runs) {
  const double median = lab::summarize(totals(runs)).median;
  return *std::min_element(runs.begin(), runs.end(), [&](const auto& x, const auto& y) {
    return std::fabs(x.total_ms - median) < std::fabs(y.total_ms - median);
  });
}

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    Settings s;
    lab::Chapter chapter(kProgram, "Chapter 04: streams",
                         "Normalises arrays with three kernels per stream, compares one stream with many,\n"
                         "measures what the default stream does, and shows a race between streams and its fix.");
    lab::Options& options = chapter.options();
    options.add("n", &s.n, 1, std::int64_t{1} << 31, "floats per array")
        .add("arrays", &s.arrays, 1, 64, "independent arrays to normalise")
        .add("streams", &s.streams, 1, 64, "streams for the many-streams case (at most --arrays)")
        .add("reps", &s.reps, 1, 1000, "runs of each case (the median is reported)")
        .add("spin-ms", &s.spin_ms, 1.0, 1000.0, "length of each kernel in the default-stream experiment")
        .add("race-delay-ms", &s.race_delay_ms, 0.5, 1000.0, "how long the slow producer holds its stream")
        .add("race-n", &s.race_n, 1, std::int64_t{1} << 28, "floats the producer writes")
        .add("race-reps", &s.race_reps, 1, 10000, "runs of the race and of its fix")
        .add("queued-ms", &s.queued_ms, 1.0, 1000.0, "GPU work queued before the temporaries' call")
        .add("seed", &s.seed, 0, std::int64_t{1} << 62, "random input seed")
        .add_rule([&] {
          return s.streams > s.arrays ? "--streams " + std::to_string(s.streams) + " is more than --arrays " +
                                            std::to_string(s.arrays) + ": some streams would have no work"
                                      : std::string();
        });
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.measure_sm_clock();
    const lab::DeviceInfo& device = chapter.device();
    const double floats = static_cast<double>(s.n) * static_cast<double>(s.arrays);
    if (auto problem = lab::check_memory_fits(
            "--arrays " + std::to_string(s.arrays) + " x --n " + lab::format_count(s.n),
            {4.0 * floats, "one device copy per array", 4.0 * 4.0 * floats,
             "pinned input and output, the CPU reference and the random values: 4 floats per element"},
            device.free_memory_bytes, lab::available_host_memory_bytes());
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    lab::Report& report = chapter.report();
    char detail[240];

    // --- CPU reference on random inputs --------------------------------------
    std::vector<ch04::NormalizeProblem> arrays;
    for (std::int64_t i = 0; i < s.arrays; ++i) {
      arrays.emplace_back(static_cast<std::size_t>(s.n), static_cast<std::uint64_t>(s.seed + i));
    }
    {
      lab::Stream stream;
      arrays[0].poison_output();
      arrays[0].enqueue(stream);
      stream.synchronize();
      const ch04::NormalizeCheck first = arrays[0].check();
      std::printf(
          "1. a <- a / sum(a) with three kernels in one stream (partial sums, one-thread total, divide),\n"
          "   %s random floats in [0.25, 1) from pinned memory: %s\n"
          "   tolerance: |gpu - cpu| <= %.0e x |cpu| per element (CPU in double), |sum - 1| <= %.0e\n",
          lab::format_count(s.n).c_str(), first.passed() ? "correct" : "WRONG", ch04::kNormalizeTolerance,
          ch04::kNormalizeTolerance);
      report.check("normalisation correct (array 0, one stream)", first.passed(), first.detail());
    }

    // --- 2. one stream vs many -----------------------------------------------
    const int many = static_cast<int>(s.streams);
    ch04::run_arrays(arrays, many);  // warm-up: module loading, pinned pages, clocks
    std::vector<ch04::ArraysRun> one_runs, many_runs;
    for (std::int64_t r = 0; r < s.reps; ++r) {  // alternate, so drift hits both alike
      one_runs.push_back(ch04::run_arrays(arrays, 1));
      many_runs.push_back(ch04::run_arrays(arrays, many));
    }
    const ch04::ArraysRun& one = median_run(one_runs);
    const ch04::ArraysRun& lots = median_run(many_runs);
    // --timeline / --trace: one more run of each, as CUPTI saw it (real copy and kernel times, no redrawing).
    for (int streams : {many, 1}) {
      if (!chapter.timeline().wanted()) break;
      chapter.timeline().begin(std::to_string(s.arrays) + " arrays on " + std::to_string(streams) + " stream(s)");
      ch04::run_arrays(arrays, streams);
      chapter.timeline().end();
    }
    const double bytes_each_way = 4.0 * floats;
    std::printf(
        "\n2. %lld arrays x %s floats (%.0f MB each way), each: copy in -> 3 kernels -> copy out.\n"
        "   The device has %d copy engine(s) and %s run kernels of different streams at once.\n"
        "   Median of %lld runs; events from the first begin to the latest end.\n",
        static_cast<long long>(s.arrays), lab::format_count(s.n).c_str(), bytes_each_way / 1e6, device.copy_engines,
        device.concurrent_kernels ? "can" : "cannot", static_cast<long long>(s.reps));
    lab::Table table({{"streams", ""},
                      {"total", "ms"},
                      {"per array (median)", "ms"},
                      {"copy in busy", "ms"},
                      {"copy out busy", "ms"},
                      {"kernels busy", "ms"},
                      {"in || out", "ms"},
                      {"copies || kernels", "ms"}});
    for (const ch04::ArraysRun* run : {&one, &lots}) {
      table.add_row({std::to_string(run->streams), ms(run->total_ms), ms(lab::summarize(run->per_array_ms).median),
                     ms(run->copy_in_busy_ms), ms(run->copy_out_busy_ms), ms(run->kernel_busy_ms),
                     ms(run->in_with_out_ms), ms(run->copies_with_kernels_ms)});
    }
    std::printf("%s", table.render().c_str());
    const double speedup = one.total_ms / lots.total_ms;
    std::printf("   %d streams took %.3f ms, 1 stream %.3f ms: %.2fx %s\n", many, lots.total_ms, one.total_ms, speedup,
                speedup > 1.05 ? "faster" : (speedup < 0.95 ? "SLOWER" : "(no real difference)"));
    std::printf("   copy in ran at %.1f GB/s and copy out at %.1f GB/s while busy (1 stream)\n",
                lab::gigabytes_per_second(bytes_each_way, one.copy_in_busy_ms),
                lab::gigabytes_per_second(bytes_each_way, one.copy_out_busy_ms));
    if (lots.in_with_out_ms > 0.1 * lots.total_ms) {
      std::printf(
          "   what overlapped: for %.3f ms one array's copy in ran beside another's copy out (two copy engines,\n"
          "   one per direction), and for %.3f ms a copy ran beside another array's kernels.\n",
          lots.in_with_out_ms, lots.copies_with_kernels_ms);
    } else {
      std::printf("   copies in the two directions hardly overlapped (%.3f ms): %s\n", lots.in_with_out_ms,
                  device.copy_engines < 2 ? "this device has a single copy engine"
                                          : "the copy engines did not run together in this run");
    }
    const double copy_floor = std::max(lots.copy_in_busy_ms, lots.copy_out_busy_ms);
    std::printf(
        "   the copies bound the many-streams time: the busier direction alone took %.3f ms (%.0f %% of the total);\n"
        "   the kernels, %.3f ms in all, hide inside the copies.\n",
        copy_floor, 100 * copy_floor / lots.total_ms, lots.kernel_busy_ms);
    std::printf("\n   %d streams (copies redrawn as one-at-a-time per direction; see docs):\n%s", many,
                lab::render_timeline(lots.spans, lab::copy_kernel_copy_legend("3 kernels"), 72).c_str());
    std::printf("\n   1 stream:\n%s",
                lab::render_timeline(one.spans, lab::copy_kernel_copy_legend("3 kernels"), 72).c_str());
    for (const auto* runs : {&one_runs, &many_runs}) {
      const ch04::ArraysRun& m = median_run(*runs);
      report.add_result(std::to_string(runs->front().streams) + " stream(s): total, first begin to last end", "ms",
                        totals(*runs),
                        {{"arrays", static_cast<double>(s.arrays)}, {"n", static_cast<double>(s.n)}, {"copy_in_busy_ms", m.copy_in_busy_ms}, {"copy_out_busy_ms", m.copy_out_busy_ms}, {"kernel_busy_ms", m.kernel_busy_ms}, {"in_with_out_ms", m.in_with_out_ms}, {"copies_with_kernels_ms", m.copies_with_kernels_ms}});
      report.add_result(std::to_string(runs->front().streams) + " stream(s): per array (median run)", "ms",
                        m.per_array_ms);
    }
    bool all_correct = true;
    for (const auto* runs : {&one_runs, &many_runs}) {
      for (const auto& r : *runs) all_correct = all_correct && r.all_correct();
    }
    report.check("every array normalised correctly in every run (1 and " + std::to_string(many) + " streams)",
                 all_correct, lots.results.front().detail());

    // --- 3. the default stream -----------------------------------------------
    const ch04::DefaultStreamRun cases[] = {
        ch04::default_stream_legacy_build(cudaStreamDefault, s.spin_ms),
        ch04::default_stream_legacy_build(cudaStreamNonBlocking, s.spin_ms),
        ch04::default_stream_per_thread_build(cudaStreamDefault, s.spin_ms, false),
        ch04::default_stream_per_thread_build(cudaStreamDefault, s.spin_ms, true),
    };
    std::printf("\n3. The default stream: three %.1f ms kernels queued A, middle, B (start-end from %%globaltimer)\n",
                s.spin_ms);
    lab::Table streams_table({{"build", "", false},
                              {"A, B", "", false},
                              {"middle on", "", false},
                              {"wall", "ms"},
                              {"A", "ms", false},
                              {"middle", "ms", false},
                              {"B", "ms", false},
                              {"the three kernels", "", false}});
    for (const auto& c : cases) {
      auto span = [&](int k) { return lab::fixed(c.begin_ms[k], 1) + "-" + lab::fixed(c.end_ms[k], 1); };
      streams_table.add_row({c.build, c.side_streams, c.middle, ms(c.wall_ms), span(0), span(1), span(2),
                             c.serialised() ? "ran one after another" : (c.concurrent() ? "ran at once" : "partly overlapped")});
      report.add_result("default stream: " + c.description(), "ms", {c.wall_ms},
                        {{"serialised", c.serialised()}, {"concurrent", c.concurrent()}});
      report.check("default stream: every kernel ran its full length (" + c.description() + ")", c.all_ran,
                   "spin " + ms(c.spin_ms) + " ms");
    }
    std::printf("%s", streams_table.render().c_str());
    std::printf(
        "   The legacy default stream waits for every blocking stream and they wait for it, so A -> 0 -> B run\n"
        "   one after another. Non-blocking streams are exempt. Built with --default-stream per-thread, stream 0\n"
        "   is an ordinary stream of this thread; the legacy stream, asked for by name (cudaStreamLegacy), still\n"
        "   serialises. The programming guide promises the serialisation; running at once is allowed, not promised.\n");
    std::snprintf(detail, sizeof detail, "%s / %s", cases[0].serialised() ? "serialised" : "NOT serialised",
                  cases[3].serialised() ? "serialised" : "NOT serialised");
    // A guarantee, but shown by %globaltimer stamps: a sanitizer or profiler that serialises kernels
    // decides it, so it is a timing check (not judged in an instrumented run).
    report.add(lab::timing_check("the legacy default stream serialised with blocking streams (both builds)",
                                 cases[0].serialised() && cases[3].serialised(), detail));

    // --- 4. a race between streams and its fix -------------------------------
    ch04::ProducerConsumer race(static_cast<std::size_t>(s.race_n), static_cast<std::uint64_t>(s.seed) + 1000);
    int raced_wrong = 0, fixed_wrong = 0;
    lab::Comparison raced_example, fixed_example;
    for (std::int64_t r = 0; r < s.race_reps; ++r) {
      raced_example = race.run(ch04::no_ordering, s.race_delay_ms);
      raced_wrong += raced_example.passed() ? 0 : 1;
      fixed_example = race.run(ch04::wait_for_producer, s.race_delay_ms);
      fixed_wrong += fixed_example.passed() ? 0 : 1;
    }
    std::printf(
        "\n4. A race: producer (held %.1f ms, then data = 2 x input) on one stream, consumer (out = data + 1)\n"
        "   on another, %s floats, %lld runs each\n"
        "   no ordering:                              wrong in %d of %lld runs (last run: %zu of %zu values wrong)\n"
        "   cudaEventRecord + cudaStreamWaitEvent:    wrong in %d of %lld runs (last run: %zu of %zu values wrong)\n",
        s.race_delay_ms, lab::format_count(s.race_n).c_str(), static_cast<long long>(s.race_reps), raced_wrong,
        static_cast<long long>(s.race_reps), raced_example.mismatches, raced_example.count, fixed_wrong,
        static_cast<long long>(s.race_reps), fixed_example.mismatches, fixed_example.count);
    std::printf("   %s\n", raced_wrong > 0
                               ? "without an ordering the consumer read the poisoned data before the producer wrote it"
                               : "in this run the race never showed: no ordering is still a bug, the timing hid it");
    report.add_result("race: runs with a wrong result, no ordering", "runs", {static_cast<double>(raced_wrong)},
                      {{"runs", static_cast<double>(s.race_reps)}});
    report.add_result("race: runs with a wrong result, event + cudaStreamWaitEvent", "runs",
                      {static_cast<double>(fixed_wrong)},
                      {{"runs", static_cast<double>(s.race_reps)}});
    report.check("the consumer that waits on the producer's event is always correct", fixed_wrong == 0,
                 std::to_string(fixed_wrong) + " wrong runs");

    // --- 5. stream-ordered memory --------------------------------------------
    lab::Stream stream;
    const ch04::TemporariesRun blocking =
        ch04::time_temporaries(arrays[0], ch04::Temporaries::cuda_malloc, s.queued_ms, 100, stream);
    const ch04::TemporariesRun ordered =
        ch04::time_temporaries(arrays[0], ch04::Temporaries::stream_ordered, s.queued_ms, 100, stream);
    std::printf("\n5. Temporaries (partial sums, total) allocated per call of the normalisation\n");
    lab::Table temps({{"temporaries from", "", false},
                      {"call returned after", "ms"},
                      {"with queued", "ms"},
                      {"per call, idle", "us"},
                      {"result", "", false}});
    for (const auto* t : {&blocking, &ordered}) {
      temps.add_row({ch04::temporaries_name(t->kind), ms(t->call_ms), ms(t->queued_ms), lab::fixed(t->per_call_us, 1),
                     t->result.passed() ? "correct" : "WRONG"});
      report.add_result(std::string("temporaries: call with work queued, ") + ch04::temporaries_name(t->kind), "ms",
                        {t->call_ms},
                        {{"queued_ms", t->queued_ms}, {"per_call_us", t->per_call_us}});
      report.check(std::string("normalisation correct with ") + ch04::temporaries_name(t->kind), t->result.passed(),
                   t->result.detail());
    }
    std::printf("%s", temps.render().c_str());
    std::printf(
        "   cudaFree %s for the queued work; cudaFreeAsync %s.\n"
        "   Memory freed in stream order goes back to the pool only after the work queued before the free\n"
        "   has run, so it is never reused while a kernel still reads it. Freeing it on another stream, or\n"
        "   with cudaFree while a kernel that uses it is queued, lets the next allocation hand the same\n"
        "   bytes to other work: wrong results that depend on timing.\n\n",
        blocking.call_ms > 0.5 * s.queued_ms ? "waited" : "did NOT wait",
        ordered.call_ms > 0.5 * s.queued_ms ? "waited too" : "did not: the host went on at once");
    return chapter.finish();
  });
}
