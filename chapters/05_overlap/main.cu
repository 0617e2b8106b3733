// Chapter 05: overlap
// ===================
// What it shows, one numbered section of README.md each, in this order:
//   1. the copies and kernels alone, sampled before and after the sweep, and the lower
//      bound they set (the slowest of them at its fastest);
//   2. NVIDIA's async.cu schedules on pinned memory (sequential; V1: per chunk copy in,
//      kernel, copy out; V2: all copies in, all kernels, all copies out; chunk i on
//      stream i) over chunk counts 1, 2, 4, ... and two kernels (async.cu's light one, a
//      heavy one as long as the copies), against the model (overlap_model.hpp) and the bound;
//   3. why V1 and V2 can differ: child processes (ch05_queue_child) run them with
//      CUDA_DEVICE_MAX_CONNECTIONS = 1, 2, the default and 32, and queue two kernels per
//      stream over 4 to 32 streams, stream by stream or kernel by kernel;
//   4. one run of each schedule as CUPTI recorded it: what ran at the same time.
// The lesson is overlap.cuh; findings.hpp turns its data into the tables and findings.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch05_overlap ch05_queue_child
//   build/release/chapters/05_overlap/ch05_overlap [--mib 256] [--max-chunks 32] [--timeline] [--json out.json]
#include <cstdlib>
#include <string>
#include <vector>

#include "chapter.cuh"
#include "memory_fit.hpp"
#include "overlap.cuh"
#include "program.hpp"

namespace {

struct Settings {
  std::int64_t mib = 256;            // the data copied each way (NVIDIA's figures: 256 MiB, 4 streams)
  std::int64_t max_chunks = 32;      // the sweep: 1, 2, 4, ... up to this
  std::int64_t chart_chunks = 4;     // chunks of the recorded runs (section 4)
  std::int64_t heavy_iterations = 0; // steps of the heavy kernel; 0: as long as the copy in
  std::int64_t reps = 5;
  std::int64_t queue_mib = 64;       // what each child of section 3 copies each way
  std::int64_t seed = 1;
};

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program("ch05_overlap", [&] {
    Settings s;
    lab::Chapter chapter("ch05_overlap", "Chapter 05: overlap",
                         "Overlaps copies with kernels three ways (sequential, V1, V2) over a sweep of chunk counts\n"
                         "and two kernel costs, against a lower bound and a model measured in the same run, and\n"
                         "measures what the hardware's work queues (CUDA_DEVICE_MAX_CONNECTIONS) do to them.");
    chapter.options()
        .add("mib", &s.mib, 1, 65536, "MiB copied each way")
        .add("max-chunks", &s.max_chunks, 1, 1024, "largest chunk (= stream) count of the sweep 1, 2, 4, ...")
        .add("chart-chunks", &s.chart_chunks, 1, 64, "chunks of the runs CUPTI records (section 4)")
        .add("heavy-iterations", &s.heavy_iterations, 0, 100000,
             "steps of the heavy kernel (0: chosen so that it takes as long as the copy in)")
        .add("reps", &s.reps, 1, 1000, "timed runs per row (the median is reported)")
        .add("queue-mib", &s.queue_mib, 1, 65536, "MiB each child process of section 3 copies each way")
        .add("seed", &s.seed, 0, std::int64_t{1} << 62, "random input seed")
        .add_rule([&] { return ch05::too_many_chunks("--max-chunks", s.max_chunks, s.mib); })
        .add_rule([&] { return ch05::too_many_chunks("--chart-chunks", s.chart_chunks, s.mib); });
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    const lab::DeviceInfo& device = chapter.device();
    const double bytes = static_cast<double>(s.mib) * (1 << 20);
    const std::string too_big = lab::check_memory_fits(
        "--mib " + std::to_string(s.mib),
        {2.0 * bytes, "the array and a second one to measure both copy directions",
         6.0 * bytes, "pinned input and output, the inputs, two CPU references and a copy of the output"},
        device.free_memory_bytes, lab::available_host_memory_bytes());
    if (!too_big.empty()) throw lab::UsageError(too_big);
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    const int reps = static_cast<int>(s.reps);
    ch05::OverlapProblem problem(static_cast<std::size_t>(bytes / 4), static_cast<std::uint64_t>(s.seed));

    // Measured first, printed once the sweep is done: the link is sampled again after it.
    ch05::LinkRun link = ch05::measure_link(problem, device.copy_engines, static_cast<int>(s.heavy_iterations), reps);
    std::vector<int> chunk_counts;
    for (int c = 1; c <= s.max_chunks; c *= 2) chunk_counts.push_back(c);
    ch05::SweepRun sweep;
    sweep.connections = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS") ? std::getenv("CUDA_DEVICE_MAX_CONNECTIONS") : "";
    sweep.rows = ch05::sweep(problem, "light", 1, chunk_counts, reps);
    const std::vector<ch05::ScheduleRow> heavy = ch05::sweep(problem, "heavy", link.heavy_steps, chunk_counts, reps);
    sweep.rows.insert(sweep.rows.end(), heavy.begin(), heavy.end());
    ch05::sample_link_and_kernels(problem, reps, link);

    report.section("1. The copies and the kernels alone, and the lower bound");
    report.add(ch05::link_table(link));
    report.add(ch05::bound_findings(link));

    report.section("2. Sequential, V1 and V2 over chunk counts");
    report.add(ch05::sweep_table(sweep, link));
    report.add(ch05::sweep_findings(sweep, link));

    report.section("3. V1 against V2, and the hardware's work queues");
    ch05::QueueRun queues;
    if (chapter.instrumented()) {
      queues.skipped = "an instrumented run (compute-sanitizer or a profiler) starts no child process: the tool "
                       "would follow it, and its times would measure the tool";
    } else {
      queues = ch05::compare_connections(ch05::queue_child_program(), {"1", "2", "", "32"},
                                         static_cast<int>(s.queue_mib), reps);
    }
    report.add(ch05::queue_schedule_table(queues));
    report.add(ch05::stream_order_table(queues));
    report.add(ch05::queue_findings(queues));
    report.add(ch05::queue_background());

    report.section("4. The schedules as CUPTI recorded them");
    std::vector<ch05::RecordedSchedule> recorded;
    const int chart = static_cast<int>(s.chart_chunks);
    for (ch05::Schedule schedule : {ch05::Schedule::sequential, ch05::Schedule::v1_per_chunk,
                                    ch05::Schedule::v2_per_stage}) {
      recorded.push_back(ch05::record_schedule(problem, schedule, chart));
      if (!chapter.timeline().wanted()) continue;  // --timeline / --trace: one more run, charted
      ch05::Pipeline pipeline(problem, schedule == ch05::Schedule::sequential ? 1 : chart, 1);
      chapter.timeline().begin(std::string(ch05::schedule_name(schedule)) + ", light kernel, " +
                               std::to_string(pipeline.chunks()) + " chunk(s)");
      for (int c = 0; c < pipeline.chunks(); ++c)
        chapter.timeline().name_stream(pipeline.stream(c), "stream " + std::to_string(c));
      ch05::enqueue(schedule, pipeline);
      chapter.timeline().end();
    }
    report.add(ch05::recorded_table(recorded));
    report.add(ch05::recorded_findings(recorded));
    return chapter.finish();
  });
}
