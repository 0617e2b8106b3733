// Chapter 05: overlap
// ===================
// What it shows
//   - NVIDIA's "How to Overlap Data Transfers in CUDA C/C++" (async.cu), three
//     schedules of copy in -> kernel -> copy out on pinned memory:
//       sequential  everything in one stream, one chunk
//       V1          per chunk: copy in, kernel, copy out (chunk i on stream i)
//       V2          all copies in, then all kernels, then all copies out
//   - a sweep over the number of chunks (= streams) and over the kernel's cost
//     (async.cu's light kernel, and a heavy one as long as the copies);
//   - a model from bandwidths and kernel time measured in the same run: the
//     sequential time, the best overlapped time (the busiest of copy in, copy out,
//     both directions sharing the link, the kernel) plus pipeline fill and drain;
//     every row prints measured, predicted and % of the bound;
//   - when V1 and V2 differ: the order work reaches the hardware queues;
//   - a text timeline of V1 and V2 from events.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch05_overlap
//   build/release/chapters/05_overlap/ch05_overlap [--mib 256] [--max-chunks 32] [--json out.json]
//   CUDA_DEVICE_MAX_CONNECTIONS=1 build/release/chapters/05_overlap/ch05_overlap   (one hardware queue)
//
// Shape (every chapter): CPU reference -> lesson functions (overlap.cuh,
// overlap_model.hpp) -> the experiment, variants side by side -> a table -> computed verdicts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "chapter.cuh"
#include "memory_fit.hpp"
#include "overlap.cuh"
#include "overlap_model.hpp"
#include "program.hpp"
#include "statistics.hpp"
#include "timeline.hpp"

namespace {

constexpr char kProgram[] = "ch05_overlap";

struct Settings {
  std::int64_t mib = 256;            // the data copied each way (NVIDIA's figures: 256 MiB, 4 streams)
  std::int64_t max_chunks = 32;      // the sweep: 1, 2, 4, ... up to this
  std::int64_t chart_chunks = 4;     // chunks of the timelines
  std::int64_t heavy_iterations = 0; // steps of the heavy kernel; 0: as long as the copy in
  std::int64_t reps = 5;
  std::int64_t seed = 1;
};

std::string ms(double value) { return lab::fixed(value, 3); }

std::string too_many_chunks(const char* option, std::int64_t chunks, std::int64_t mib) {
  const std::int64_t floats = mib * (std::int64_t{1} << 20) / 4;
  if (floats / chunks >= static_cast<std::int64_t>(ch05::kMinChunkFloats)) return "";
  return std::string(option) + " " + std::to_string(chunks) + " is too many chunks for --mib " + std::to_string(mib) +
         ": each chunk would hold fewer than " + std::to_string(ch05::kMinChunkFloats) + " floats (4 KiB)";
}

// One kernel cost of the sweep, and the model's inputs measured for it.
struct KernelCase {
  std::string name;           // "light" or "heavy"
  int steps;                  // steps of the kernel
  ch05::LinkAndKernel model;  // measured in this run
};

struct Row {
  const KernelCase* kernel;
  ch05::Schedule schedule;
  int chunks;
  double measured_ms;
  double predicted_ms;
  bool correct;
};

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program(kProgram, [&] {
    Settings s;
    lab::Chapter chapter(kProgram, "Chapter 05: overlap",
                         "Overlaps copies with kernels three ways (sequential, V1, V2), over a sweep of\n"
                         "chunk counts and two kernel costs, against a model measured in the same run.");
    lab::Options& options = chapter.options();
    options.add("mib", &s.mib, 1, 65536, "MiB copied each way")
        .add("max-chunks", &s.max_chunks, 1, 1024, "largest chunk (= stream) count of the sweep 1, 2, 4, ...")
        .add("chart-chunks", &s.chart_chunks, 1, 64, "chunks of the timelines")
        .add("heavy-iterations", &s.heavy_iterations, 0, 100000,
             "steps of the heavy kernel (0: chosen so that it takes as long as the copy in)")
        .add("reps", &s.reps, 1, 1000, "timed runs per row (the median is reported)")
        .add("seed", &s.seed, 0, std::int64_t{1} << 62, "random input seed")
        .add_rule([&] { return too_many_chunks("--max-chunks", s.max_chunks, s.mib); })
        .add_rule([&] { return too_many_chunks("--chart-chunks", s.chart_chunks, s.mib); });
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    chapter.measure_sm_clock();
    const lab::DeviceInfo& device = chapter.device();
    const double bytes = static_cast<double>(s.mib) * (1 << 20);
    if (auto problem = lab::check_memory_fits(
            "--mib " + std::to_string(s.mib),
            {2.0 * bytes, "the array and a second one to measure both copy directions",
             5.0 * bytes, "pinned input and output, the inputs, and in each check the CPU reference and a copy of the output"},
            device.free_memory_bytes, lab::available_host_memory_bytes());
        !problem.empty()) {
      throw lab::UsageError(problem);
    }
    lab::Report& report = chapter.report();
    const int reps = static_cast<int>(s.reps);
    const char* connections_env = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    const std::string connections = connections_env != nullptr ? connections_env : "8 (the default)";

    // --- CPU reference on random inputs ----------------------------------------
    ch05::OverlapProblem problem(static_cast<std::size_t>(bytes / 4), static_cast<std::uint64_t>(s.seed));
    const ch05::ScheduleRun first = ch05::time_schedule(problem, ch05::Schedule::sequential, 1, 1, 1);
    std::printf(
        "1. %lld MiB each way, pinned; kernel: v = v + sqrt(sin(v)^2 + cos(v)^2), in place: %s\n"
        "   reference: input + steps (sin^2 + cos^2 = 1), tolerance steps x (5e-7 + 1.2e-7 x |reference|)\n",
        static_cast<long long>(s.mib), first.result.passed() ? "correct" : "WRONG");
    report.check("sequential schedule correct (light kernel)", first.result.passed(), first.result.detail());

    // --- 2. the model's inputs, measured now -------------------------------------
    // The link is measured once, with twice the runs (it is the noisiest input), and
    // shared by both kernels' models; only the kernel time differs between them.
    const ch05::LinkAndKernel light = ch05::measure_link_and_kernel(problem, 1, device.copy_engines, 2 * reps);
    const int heavy_steps = s.heavy_iterations > 0 ? static_cast<int>(s.heavy_iterations)
                                                   : ch05::calibrate_iterations(problem, light.h2d_ms);
    const ch05::LinkAndKernel heavy = [&] {
      ch05::LinkAndKernel m = light;
      m.kernel_ms = ch05::measure_kernel_ms(problem, heavy_steps, 2 * reps);
      return m;
    }();
    std::printf(
        "\n2. Measured in this run (medians of %d): the model's inputs, for both kernels\n"
        "   copy in alone    %8.3f ms  %6.1f GB/s\n"
        "   copy out alone   %8.3f ms  %6.1f GB/s\n"
        "   both at once     %8.3f ms  %6.1f GB/s in total (each way: %.1f GB/s)\n"
        "   light kernel     %8.3f ms  (1 step, NVIDIA's kernel)\n"
        "   heavy kernel     %8.3f ms  (%d steps%s)\n"
        "   copy engines: %d; hardware queues (CUDA_DEVICE_MAX_CONNECTIONS): %s\n",
        2 * reps, light.h2d_ms, lab::gigabytes_per_second(bytes, light.h2d_ms), light.d2h_ms,
        lab::gigabytes_per_second(bytes, light.d2h_ms), light.both_ms,
        lab::gigabytes_per_second(2 * bytes, light.both_ms), lab::gigabytes_per_second(bytes, light.both_ms),
        light.kernel_ms, heavy.kernel_ms, heavy_steps,
        s.heavy_iterations > 0 ? "" : ", chosen to match the copy in", device.copy_engines, connections.c_str());
    const KernelCase kernels[] = {{"light", 1, light}, {"heavy", heavy_steps, heavy}};
    for (const KernelCase& k : kernels) {
      report.add_result("model inputs, " + k.name + " kernel", "ms", {k.model.kernel_ms},
                        {{"bytes", k.model.bytes}, {"h2d_ms", k.model.h2d_ms}, {"d2h_ms", k.model.d2h_ms}, {"both_ms", k.model.both_ms}, {"steps", static_cast<double>(k.steps)}, {"copy_engines", static_cast<double>(k.model.copy_engines)}});
    }

    // --- 3. the sweep -----------------------------------------------------------
    std::vector<int> chunk_counts;
    for (int c = 1; c <= s.max_chunks; c *= 2) chunk_counts.push_back(c);
    std::vector<Row> rows;
    bool all_correct = true;
    for (const KernelCase& k : kernels) {
      auto run = [&](ch05::Schedule schedule, int chunks, double predicted) {
        const ch05::ScheduleRun r = ch05::time_schedule(problem, schedule, chunks, k.steps, reps);
        const lab::Summary sum = report.add_result(
            k.name + " kernel, " + ch05::schedule_name(schedule) + ", " + std::to_string(chunks) + " chunk(s)", "ms",
            r.samples_ms,
            {{"predicted_ms", predicted}, {"bound_ms", ch05::overlap_bound_ms(k.model)}, {"chunks", static_cast<double>(chunks)}, {"steps", static_cast<double>(k.steps)}});
        rows.push_back({&k, schedule, chunks, sum.median, predicted, r.result.passed()});
        all_correct = all_correct && r.result.passed();
        if (!r.result.passed()) {
          std::printf("   WRONG: %s %s %d chunks: %s\n", k.name.c_str(), ch05::schedule_name(schedule), chunks,
                      r.result.detail().c_str());
        }
      };
      run(ch05::Schedule::sequential, 1, ch05::sequential_ms(k.model));
      for (int chunks : chunk_counts) {
        run(ch05::Schedule::v1_per_chunk, chunks, ch05::pipelined_ms(k.model, chunks));
        run(ch05::Schedule::v2_per_stage, chunks, ch05::pipelined_ms(k.model, chunks));
      }
    }
    std::printf(
        "\n3. The schedules, median of %d runs each (events on the legacy default stream around each run).\n"
        "   predicted: the model for that chunk count; bound: no schedule can beat it; %% of bound = bound / measured\n",
        reps);
    lab::Table table({{"kernel", "", false},
                      {"schedule", "", false},
                      {"chunks", ""},
                      {"measured", "ms"},
                      {"predicted", "ms"},
                      {"bound", "ms"},
                      {"% of bound", ""},
                      {"result", "", false}});
    for (const Row& row : rows) {
      const double bound = ch05::overlap_bound_ms(row.kernel->model);
      table.add_row({row.kernel->name, ch05::schedule_name(row.schedule), std::to_string(row.chunks), ms(row.measured_ms),
                     ms(row.predicted_ms), ms(bound), lab::fixed(100 * bound / row.measured_ms, 0),
                     row.correct ? "correct" : "WRONG"});
    }
    std::printf("%s", table.render().c_str());
    report.check("every schedule, chunk count and kernel gave the right result", all_correct,
                 std::to_string(rows.size()) + " rows");

    // --- 4. verdicts, computed from the rows ---------------------------------------
    std::printf("\n4. What the measurements say\n");
    for (const KernelCase& k : kernels) {
      const ch05::LinkAndKernel* m = &k.model;
      const Row* sequential = nullptr;
      const Row* best = nullptr;
      for (const Row& row : rows) {
        if (row.kernel != &k) continue;
        if (row.schedule == ch05::Schedule::sequential) sequential = &row;
        if (best == nullptr || row.measured_ms < best->measured_ms) best = &row;
      }
      const double bound = ch05::overlap_bound_ms(*m);
      std::printf(
          "   %s kernel: best %s with %d chunks, %.3f ms = %.0f %% of the bound (%.3f ms, %s-bound);\n"
          "     sequential %.3f ms (model %.3f ms): overlap %s %.2fx\n",
          k.name.c_str(), ch05::schedule_name(best->schedule), best->chunks, best->measured_ms,
          100 * bound / best->measured_ms, bound, m->kernel_ms > ch05::transfer_bound_ms(*m) ? "kernel" : "transfer",
          sequential->measured_ms, ch05::sequential_ms(*m),
          best->measured_ms < sequential->measured_ms ? "saved" : "did NOT save time:",
          sequential->measured_ms / best->measured_ms);
      report.add_result(k.name + " kernel: best schedule, % of the bound", "%", {100 * bound / best->measured_ms},
                        {{"schedule", ch05::schedule_name(best->schedule)}, {"chunks", static_cast<double>(best->chunks)}, {"measured_ms", best->measured_ms}, {"bound_ms", bound}, {"sequential_ms", sequential->measured_ms}});
    }
    // V1 against V2 at every chunk count: "differ" means more than 5 % apart.
    std::string differ, same;
    double worst = 0;
    int v2_faster = 0, v1_faster = 0;
    for (const Row& v1 : rows) {
      if (v1.schedule != ch05::Schedule::v1_per_chunk) continue;
      for (const Row& v2 : rows) {
        if (v2.schedule != ch05::Schedule::v2_per_stage || v2.kernel != v1.kernel || v2.chunks != v1.chunks) continue;
        const double gap = (v1.measured_ms - v2.measured_ms) / v2.measured_ms;
        worst = std::max(worst, std::fabs(gap));
        const bool apart = std::fabs(gap) > 0.05;
        if (apart) (gap > 0 ? v2_faster : v1_faster) += 1;
        std::string& list = apart ? differ : same;
        char item[64];
        std::snprintf(item, sizeof item, "%s%s/%d (%+.0f %%)", list.empty() ? "" : ", ", v1.kernel->name.c_str(), v1.chunks,
                      100 * gap);
        list += item;
      }
    }
    std::printf(
        "   V1 vs V2 (V1's time relative to V2's; kernel/chunks):\n"
        "     within 5 %%: %s\n"
        "     more than 5 %% apart: %s\n",
        same.empty() ? "none" : same.c_str(), differ.empty() ? "none" : differ.c_str());
    if (v1_faster + v2_faster == 0) {
      std::printf("   -> on this device V1 and V2 took the same time, within 5 %%, at every chunk count and kernel.\n");
    } else if (v1_faster > 0 && v2_faster > 0) {
      std::printf(
          "   -> where they differ, V1 won %d time(s) and V2 %d time(s): neither schedule wins consistently;\n"
          "      run it twice and compare, the rows that differ move from run to run.\n",
          v1_faster, v2_faster);
    } else {
      std::printf("   -> %s was faster in every row that differs (%d row(s)): a systematic effect here.\n",
                  v2_faster > 0 ? "V2" : "V1", v1_faster + v2_faster);
    }
    std::printf(
        "   Each stream holds the same work in the same order in V1 and V2; only the order in which the host\n"
        "   queues it differs. That order matters where streams share one queue that starts work in order:\n"
        "   with a single copy engine, V1's copy out of chunk i (waiting for its kernel) holds back the copy\n"
        "   in of chunk i+1 queued behind it, and V2, which queues every copy in first, avoids that. This\n"
        "   device has %d copy engine(s) and %s hardware work queue(s) (CUDA_DEVICE_MAX_CONNECTIONS).\n",
        device.copy_engines, connections.c_str());
    int above = 0;
    for (const Row& row : rows) above += row.measured_ms < ch05::overlap_bound_ms(row.kernel->model) ? 1 : 0;
    if (above > 0) {
      std::printf(
          "   %d row(s) ran faster than the bound: the bound is a measurement too (one whole copy each way at\n"
          "   once), and a few %% either side of it is its noise.\n",
          above);
    }
    std::printf("\n");
    report.add_result("V1 vs V2: largest relative difference", "%", {100 * worst},
                      {{"connections", connections}, {"rows_v1_faster", static_cast<double>(v1_faster)}, {"rows_v2_faster", static_cast<double>(v2_faster)}});

    // --- 5. timelines -------------------------------------------------------------
    const int chart = static_cast<int>(s.chart_chunks);
    for (ch05::Schedule schedule : {ch05::Schedule::sequential, ch05::Schedule::v1_per_chunk,
                                    ch05::Schedule::v2_per_stage}) {
      const std::vector<lab::Span> spans = ch05::trace_schedule(problem, schedule, chart, 1);
      std::printf("5. %s, light kernel, %d chunk(s) (copies redrawn one at a time per direction):\n%s\n",
                  ch05::schedule_name(schedule), schedule == ch05::Schedule::sequential ? 1 : chart,
                  lab::render_timeline(spans, lab::copy_kernel_copy_legend("kernel"), 72).c_str());
      if (chapter.timeline().wanted()) {  // --timeline / --trace: one run of the same schedule, as CUPTI saw it
        ch05::Pipeline pipeline(problem, schedule == ch05::Schedule::sequential ? 1 : chart, 1);
        chapter.timeline().begin(std::string(ch05::schedule_name(schedule)) + ", light kernel, " +
                                 std::to_string(pipeline.chunks()) + " chunk(s)");
        for (int c = 0; c < pipeline.chunks(); ++c)
          chapter.timeline().name_stream(pipeline.stream(c), "stream " + std::to_string(c));
        ch05::enqueue(schedule, pipeline);
        chapter.timeline().end();
      }
      const lab::Comparison traced = problem.check(1);
      report.check(std::string("traced ") + ch05::schedule_name(schedule) + " run correct", traced.passed(),
                   traced.detail());
    }
    return chapter.finish();
  });
}
