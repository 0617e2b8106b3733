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
// The lesson is normalize.cuh and streams.cuh; findings.hpp makes the tables and findings.
//
// Build and run
//   cmake --preset release && cmake --build build/release --target ch04_streams
//   build/release/chapters/04_streams/ch04_streams [--n 10M] [--arrays 10] [--streams 10] [--timeline] [--json out.json]
#include <string>
#include <vector>

#include "chapter.cuh"
#include "memory_fit.hpp"
#include "normalize.cuh"
#include "program.hpp"
#include "stream.cuh"
#include "streams.cuh"

namespace {

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
  std::int64_t pool_mib = 256;  // the block of the release-threshold experiment
  std::int64_t seed = 1;
};

}  // namespace

int main(int argc, char** argv) {
  return lab::run_program("ch04_streams", [&] {
    Settings s;
    lab::Chapter chapter("ch04_streams", "Chapter 04: streams",
                         "Normalises arrays with three kernels per stream, one stream against many, the default\n"
                         "stream, a race between streams and its fix, and temporaries allocated in stream order.");
    chapter.options()
        .add("n", &s.n, 1, std::int64_t{1} << 31, "floats per array")
        .add("arrays", &s.arrays, 1, 64, "independent arrays to normalise")
        .add("streams", &s.streams, 1, 64, "streams for the many-streams case (at most --arrays)")
        .add("reps", &s.reps, 1, 1000, "runs of each case (the median is reported)")
        .add("spin-ms", &s.spin_ms, 1.0, 1000.0, "length of each kernel in the default-stream experiment")
        .add("race-delay-ms", &s.race_delay_ms, 0.5, 1000.0, "how long the slow producer holds its stream")
        .add("race-n", &s.race_n, 1, std::int64_t{1} << 28, "floats the producer writes")
        .add("race-reps", &s.race_reps, 1, 10000, "runs of the race and of its fix")
        .add("queued-ms", &s.queued_ms, 1.0, 1000.0, "GPU work queued before the allocation calls")
        .add("pool-mib", &s.pool_mib, 1, 65536, "MiB of the block in the release-threshold experiment")
        .add("seed", &s.seed, 0, std::int64_t{1} << 62, "random input seed")
        .add_rule([&] {
          return s.streams > s.arrays ? "--streams " + std::to_string(s.streams) + " is more than --arrays " +
                                            std::to_string(s.arrays) + ": some streams would have no work"
                                      : std::string();
        });
    chapter.add_timeline_options();
    if (!chapter.start(argc, argv)) return lab::exit_code::success;
    const lab::DeviceInfo& device = chapter.device();
    const auto pool_bytes = static_cast<std::size_t>(s.pool_mib) << 20;
    const std::string too_big =
        ch04::check_memory(s.n, s.arrays, s.pool_mib, device.free_memory_bytes, lab::available_host_memory_bytes());
    if (!too_big.empty()) throw lab::UsageError(too_big);
    chapter.measure_sm_clock();
    lab::Report& report = chapter.report();
    lab::Stream stream;
    std::vector<ch04::NormalizeProblem> arrays;
    for (std::int64_t i = 0; i < s.arrays; ++i) {
      arrays.emplace_back(static_cast<std::size_t>(s.n), static_cast<std::uint64_t>(s.seed + i));
    }
    const int many = static_cast<int>(s.streams);

    report.section("1. Three kernels on one stream");
    const ch04::FirstRun first = ch04::normalize_once(arrays[0], stream);
    report.add(ch04::first_table(first));
    report.add(ch04::first_findings(first));

    report.section("2. One stream against " + std::to_string(many));
    const ch04::StreamsComparison streams =
        ch04::compare_streams(arrays, many, static_cast<int>(s.reps), device.copy_engines);
    report.add(ch04::streams_table(streams));
    report.add(ch04::recorded_table(streams));
    report.add(ch04::kernel_table(streams));
    report.add(ch04::streams_findings(streams));
    report.add(ch04::streams_background());
    // --timeline / --trace: one more run of each, as CUPTI saw it.
    for (int count : {many, 1}) {
      if (!chapter.timeline().wanted()) break;
      chapter.timeline().begin(std::to_string(s.arrays) + " arrays on " + std::to_string(count) + " stream(s)");
      ch04::run_arrays(arrays, count);
      chapter.timeline().end();
    }

    report.section("3. The default stream");
    const ch04::DefaultStreamCases cases = ch04::run_default_stream_cases(s.spin_ms);
    report.add(ch04::default_stream_table(cases));
    report.add(ch04::default_stream_findings(cases));
    report.add(ch04::default_stream_background());

    report.section("4. A race between two streams, and its fix");
    const ch04::RaceRun race = ch04::run_race(s.race_n, static_cast<std::uint64_t>(s.seed) + 1000, s.race_delay_ms,
                                              static_cast<int>(s.race_reps));
    report.add(ch04::race_table(race));
    report.add(ch04::race_findings(race));
    report.add(ch04::race_background());

    report.section("5. Stream-ordered memory");
    const ch04::MemoryRun memory = ch04::study_memory(arrays[0], s.queued_ms, pool_bytes, stream);
    report.add(ch04::temporaries_table(memory));
    report.add(ch04::allocation_table(memory));
    report.add(ch04::threshold_table(memory));
    report.add(ch04::reuse_table(memory));
    report.add(ch04::memory_findings(memory));
    report.add(ch04::memory_background());
    return chapter.finish();
  });
}
