// Chapter 04: streams
// ===================
// What it shows, one numbered section of README.md each, in this order:
//   1. the stream is a launch's fourth parameter, kernel<<<grid, block, shared, stream>>>:
//      a <- a / sum(a) with three kernels on one stream, pinned arrays, a CPU reference;
//   2. ten arrays in one stream and in ten: total time from events; from CUPTI's record
//      of one more run, what overlapped and how long each of the three kernels took;
//   3. the default stream, measured: the legacy default stream serialises with blocking
//      streams; cudaStreamNonBlocking streams and --default-stream per-thread do not;
//   4. a race: a slow producer on one stream, a consumer on another with no ordering;
//      the fix is cudaEventRecord + cudaStreamWaitEvent;
//   5. stream-ordered memory: cudaMalloc/cudaFree against cudaMallocAsync/cudaFreeAsync,
//      each call alone, the pool's release threshold, and when a freed block is reused.
// The lesson is normalize.cu and streams.cu (their .cuh declare it); options.hpp declares the options and the
// memory they need; tables.hpp and checks.hpp make the tables and checks from its data (data.hpp). What the
// documentation says is on the page.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch04_streams
//   build/release/chapters/04_streams/ch04_streams [--n 10M] [--arrays 10] [--streams 10] [--timeline] [--json
//   out.json]
#include <vector>

#include "chapter.cuh"
#include "checks.hpp"
#include "normalize.cuh"
#include "options.hpp"
#include "program.hpp"
#include "stream.cuh"
#include "streams.cuh"
#include "tables.hpp"

int main(int argc, char** argv) {
  constexpr char kProgram[] = "ch04_streams";
  return lab::run_program(kProgram, [&] {
    ch04::Options o;
    lab::Chapter chapter(kProgram, "Chapter 04: streams",
                         "Normalises arrays with three kernels per stream, one stream against many, the default\n"
                         "stream, a race between streams and its fix, and temporaries allocated in stream order.");
    ch04::add_options(chapter.options(), o);
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;  // --help was printed
    chapter.require_memory(ch04::memory_need(o));                    // exit 2 before anything is allocated
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream stream;
    std::vector<ch04::NormalizeProblem> arrays = ch04::make_arrays(o);

    report.section("1. Three kernels on one stream");
    const ch04::FirstRun first = ch04::normalize_once(arrays[0], stream);
    report.add(ch04::first_table(first));
    report.add(ch04::first_checks(first));

    report.section("2. One stream against many");
    const ch04::StreamsComparison streams = ch04::compare_streams(arrays, o, chapter.device().copy_engines);
    report.add(ch04::streams_table(streams));
    report.add(ch04::recorded_table(streams));
    report.add(ch04::kernel_table(streams));
    report.add(ch04::streams_checks(streams));
    ch04::record_timelines(chapter.timeline(), arrays, o);  // --timeline / --trace: one more run of each, by CUPTI

    report.section("3. The default stream");
    const ch04::DefaultStreamCases cases = ch04::run_default_stream_cases(o.spin_ms);
    report.add(ch04::default_stream_table(cases));
    report.add(ch04::default_stream_checks(cases));

    report.section("4. A race between two streams, and its fix");
    const ch04::RaceRun race = ch04::run_race(o);
    report.add(ch04::race_table(race));
    report.add(ch04::race_checks(race));

    report.section("5. Stream-ordered memory");
    const ch04::MemoryRun memory = ch04::study_memory(arrays[0], o, stream);
    report.add(ch04::temporaries_table(memory));
    report.add(ch04::allocation_table(memory));
    report.add(ch04::threshold_table(memory));
    report.add(ch04::reuse_table(memory));
    report.add(ch04::memory_checks(memory));
    return chapter.finish();
  });
}
