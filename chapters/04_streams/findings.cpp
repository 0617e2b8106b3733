#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "memory_fit.hpp"
#include "options.hpp"
#include "statistics.hpp"

namespace ch04 {

namespace {

std::string fixed(double value, int decimals) { return lab::fixed(value, decimals); }

// "1.19e-07": relative errors are far below what fixed decimals show.
std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", value);
  return text;
}

constexpr auto& median_of = lab::median_or_nan;  // NaN when there are no samples

lab::Finding (&observe)(const std::string&, const std::string&) = lab::named_observation;  // "name: text"

std::string mib(double bytes) { return fixed(bytes / (1024.0 * 1024.0), 1) + " MiB"; }

std::string streams_name(int streams) { return std::to_string(streams) + (streams == 1 ? " stream" : " streams"); }

}  // namespace

std::string check_memory(std::int64_t n, std::int64_t arrays, std::int64_t pool_mib, std::size_t free_device_bytes,
                         std::size_t available_host_bytes) {
  const double floats = static_cast<double>(n) * static_cast<double>(arrays);
  return lab::check_memory_fits(
      "--arrays " + std::to_string(arrays) + " x --n " + lab::format_count(n) + " and --pool-mib " +
          std::to_string(pool_mib),
      {4.0 * floats + static_cast<double>(pool_mib) * 1024.0 * 1024.0, "one device copy per array and the pool's block",
       4.0 * 4.0 * floats, "pinned input and output, the CPU reference and the random values: 4 floats per element"},
      free_device_bytes, available_host_bytes);
}

// --- 1. The normalisation ------------------------------------------------------

bool NormalizeCheck::passed() const { return elements.passed() && std::fabs(sum - 1.0) <= kNormalizeTolerance; }

std::string NormalizeCheck::detail() const {
  return elements.detail() + "; largest relative error " + scientific(max_relative_error) + "; sum of the result " +
         fixed(sum, 7) + " (tolerance " + scientific(kNormalizeTolerance) + ")";
}

lab::ResultTable first_table(const FirstRun& run) {
  lab::ResultTable table("a <- a / sum(a): three kernels on one stream, random floats in [0.25, 1) from pinned memory",
                         "array",
                         {{"n", "floats", "", 0},
                          {"max_relative_error_ppm", "largest |gpu - cpu| / |cpu|", "ppm", 4},
                          {"sum_error_ppm", "|sum - 1|", "ppm", 4},
                          {"tolerance_ppm", "tolerance", "ppm", 1},
                          {"result", "result", "", 0}});
  table.add_row("array 0")
      .set("n", static_cast<long long>(run.n))
      .set("max_relative_error_ppm", run.result.max_relative_error * 1e6)
      .set("sum_error_ppm", std::fabs(run.result.sum - 1.0) * 1e6)
      .set("tolerance_ppm", kNormalizeTolerance * 1e6)
      .set("result", run.result.passed() ? "correct" : "WRONG");
  table.note("the CPU reference divides in double; the tolerance holds for every element (relative) and for the sum");
  return table;
}

std::vector<lab::Finding> first_findings(const FirstRun& run) {
  return {lab::correctness_check("the normalisation matches the CPU reference (array 0, one stream)",
                                 run.result.passed(), run.result.detail())};
}

// --- 2. One stream against many ------------------------------------------------

bool ArraysRun::all_correct() const {
  return !results.empty() &&
         std::all_of(results.begin(), results.end(), [](const NormalizeCheck& c) { return c.passed(); });
}

namespace {

std::vector<double> totals(const std::vector<ArraysRun>& runs) {
  std::vector<double> result;
  for (const ArraysRun& r : runs) result.push_back(r.total_ms);
  return result;
}

// The run whose total is closest to the median: its per-array times go in the table.
const ArraysRun* median_run(const std::vector<ArraysRun>& runs) {
  if (runs.empty()) return nullptr;
  const double median = median_of(totals(runs));
  return &*std::min_element(runs.begin(), runs.end(), [&](const ArraysRun& x, const ArraysRun& y) {
    return std::fabs(x.total_ms - median) < std::fabs(y.total_ms - median);
  });
}

// What CUPTI's record of one run says: busy times and overlaps, in ms.
struct Recorded {
  double span_ms = 0;              // earliest start to latest end of the copies and kernels
  double copy_in_ms = 0;           // some copy host to device ran
  double copy_out_ms = 0;          // some copy device to host ran
  double kernels_ms = 0;           // some kernel ran
  double in_with_out_ms = 0;       // copies in both directions at once
  double copies_with_kernels_ms = 0;  // a copy beside a kernel
  double in_with_in_ms = 0;        // two copies host to device at once (sum of durations - busy)
  double out_with_out_ms = 0;      // two copies device to host at once
};

// Usable: recorded and nothing dropped. Otherwise @p why says what happened.
bool usable(const ArraysRecording& recording, std::string& why) {
  if (!recording.recorded) {
    why = recording.why_not.empty() ? "CUPTI did not record" : recording.why_not;
    return false;
  }
  if (recording.dropped > 0) {
    why = "CUPTI dropped " + std::to_string(recording.dropped) + " records";
    return false;
  }
  return true;
}

double summed_ms(const std::vector<lab::Interval>& work, char symbol) {
  double ns = 0;
  for (const lab::Interval& i : work) {
    if (lab::chart_symbol(i) == symbol) ns += i.end_ns - i.start_ns;
  }
  return ns * 1e-6;
}

Recorded figures(const ArraysRecording& recording) {
  Recorded r;
  const std::vector<lab::Interval>& work = recording.work;
  double first = std::numeric_limits<double>::max(), last = 0;
  for (const lab::Interval& i : work) {
    const char symbol = lab::chart_symbol(i);
    if (symbol != 'H' && symbol != 'D' && symbol != 'K') continue;
    first = std::min(first, i.start_ns);
    last = std::max(last, i.end_ns);
  }
  r.span_ms = last > first ? (last - first) * 1e-6 : 0.0;
  r.copy_in_ms = lab::busy_ms(work, "H");
  r.copy_out_ms = lab::busy_ms(work, "D");
  r.kernels_ms = lab::busy_ms(work, "K");
  r.in_with_out_ms = lab::overlap_ms(work, "H", "D");
  r.copies_with_kernels_ms = lab::overlap_ms(work, "HD", "K");
  r.in_with_in_ms = std::max(0.0, summed_ms(work, 'H') - r.copy_in_ms);
  r.out_with_out_ms = std::max(0.0, summed_ms(work, 'D') - r.copy_out_ms);
  return r;
}

double bytes_each_way(const StreamsComparison& run) {
  return 4.0 * static_cast<double>(run.n) * static_cast<double>(run.arrays);
}

// The three kernels of normalize.cu, as CUPTI names them (mangled or not), with the bytes each moves.
struct KernelKind {
  const char* name;
  double bytes_per_float;  // bytes read + written per array element; 0: not a streaming kernel
};
constexpr KernelKind kKernels[] = {{"partial_sums", 4.0}, {"sum_partials", 0.0}, {"divide", 8.0}};

}  // namespace

lab::ResultTable streams_table(const StreamsComparison& run) {
  lab::ResultTable table(std::to_string(run.arrays) + " arrays x " + lab::format_count(run.n) +
                             " floats, each: copy in -> 3 kernels -> copy out (events)",
                         "streams",
                         {{"median", "total (median)", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"per_array_ms", "per array (median run)", "ms", 3},
                          {"speedup", "1 stream / this", "x", 2}});
  const double one = median_of(totals(run.one));
  for (const std::vector<ArraysRun>* runs : {&run.one, &run.lots}) {
    const ArraysRun* middle = median_run(*runs);
    if (middle == nullptr) continue;
    lab::ResultTable::Row& row = table.add_row(streams_name(middle->streams));
    row.samples(totals(*runs), "ms").set("streams", middle->streams).set("arrays", run.arrays).set("n",
                                                                                                   static_cast<long long>(run.n));
    if (!middle->per_array_ms.empty()) row.set("per_array_ms", median_of(middle->per_array_ms));
    row.set("speedup", one / median_of(totals(*runs)));
  }
  table.note("total: the first array's begin event to the latest end event; per array: the median of the run whose "
             "total is the median");
  return table;
}

lab::ResultTable recorded_table(const StreamsComparison& run) {
  lab::ResultTable table("What CUPTI recorded in one more run of each (busy: at least one of them running)", "streams",
                         {{"span_ms", "first to last", "ms", 3},
                          {"copy_in_busy_ms", "copy in busy", "ms", 3},
                          {"copy_out_busy_ms", "copy out busy", "ms", 3},
                          {"kernels_busy_ms", "kernels busy", "ms", 3},
                          {"in_with_out_ms", "in || out", "ms", 3},
                          {"copies_with_kernels_ms", "copy || kernel", "ms", 3},
                          {"copy_in_gbps", "in while busy", "GB/s", 1},
                          {"copy_out_gbps", "out while busy", "GB/s", 1}});
  const double bytes = bytes_each_way(run);
  for (const ArraysRecording* recording : {&run.one_recorded, &run.lots_recorded}) {
    lab::ResultTable::Row& row = table.add_row(streams_name(recording->streams));
    std::string why;
    row.set("recorded", usable(*recording, why));
    if (!usable(*recording, why)) {
      row.set("why_not", why);
      continue;
    }
    const Recorded r = figures(*recording);
    row.set("span_ms", r.span_ms)
        .set("copy_in_busy_ms", r.copy_in_ms)
        .set("copy_out_busy_ms", r.copy_out_ms)
        .set("kernels_busy_ms", r.kernels_ms)
        .set("in_with_out_ms", r.in_with_out_ms)
        .set("copies_with_kernels_ms", r.copies_with_kernels_ms)
        .set("in_with_in_ms", r.in_with_in_ms)
        .set("out_with_out_ms", r.out_with_out_ms);
    if (r.copy_in_ms > 0) row.set("copy_in_gbps", lab::gigabytes_per_second(bytes, r.copy_in_ms));
    if (r.copy_out_ms > 0) row.set("copy_out_gbps", lab::gigabytes_per_second(bytes, r.copy_out_ms));
  }
  table.note("H: copy host to device, D: device to host, K: kernel; '-' where CUPTI did not record (see the findings)");
  return table;
}

lab::ResultTable kernel_table(const StreamsComparison& run) {
  lab::ResultTable table("The three kernels of one array (CUPTI, the 1-stream recording)", "kernel",
                         {{"count", "launches", "", 0},
                          {"median", "median", "us", 1},
                          {"min", "min", "us", 1},
                          {"max", "max", "us", 1},
                          {"gbps", "bytes moved / median", "GB/s", 0}});
  std::string why;
  if (!usable(run.one_recorded, why)) {
    table.note("not recorded: " + why);
    return table;
  }
  for (const KernelKind& kind : kKernels) {
    std::vector<double> us;
    for (const lab::Interval& i : run.one_recorded.work) {
      if (i.kind == lab::Interval::Kind::kernel && i.name.find(kind.name) != std::string::npos)
        us.push_back((i.end_ns - i.start_ns) * 1e-3);
    }
    if (us.empty()) continue;
    lab::ResultTable::Row& row = table.add_row(kind.name);
    row.samples(us, "us");
    if (kind.bytes_per_float > 0)
      row.set("gbps", kind.bytes_per_float * static_cast<double>(run.n) / (median_of(us) * 1e-6) / 1e9);
  }
  table.note("partial_sums reads the array once (4 B per float), divide reads and writes it (8 B per float)");
  return table;
}

std::vector<lab::Finding> streams_findings(const StreamsComparison& run) {
  std::vector<lab::Finding> findings;
  // Correct in every run, the recorded ones included.
  int runs = 0, wrong = 0;
  std::string first_wrong;
  for (const std::vector<ArraysRun>* list : {&run.one, &run.lots}) {
    for (const ArraysRun& r : *list) {
      ++runs;
      if (r.all_correct()) continue;
      ++wrong;
      for (const NormalizeCheck& c : r.results) {
        if (!c.passed() && first_wrong.empty()) first_wrong = c.detail();
      }
      if (first_wrong.empty()) first_wrong = "no array was checked";
    }
  }
  for (const ArraysRecording* recording : {&run.one_recorded, &run.lots_recorded}) {
    if (!recording->recorded) continue;
    ++runs;
    if (!recording->all_correct) {
      ++wrong;
      if (first_wrong.empty()) first_wrong = "a recorded run was wrong";
    }
  }
  findings.push_back(lab::correctness_check(
      "every array normalised correctly in every run (1 and " + std::to_string(run.many) + " streams)",
      runs > 0 && wrong == 0,
      std::to_string(wrong) + " of " + std::to_string(runs) + " runs had a wrong array" +
          (first_wrong.empty() ? "" : "; first: " + first_wrong)));

  // The comparison a framework's figures are set against.
  const double one = median_of(totals(run.one));
  const double lots = median_of(totals(run.lots));
  const double ratio = one / lots;
  const std::string both = streams_name(run.many) + " took " + fixed(lots, 3) + " ms, 1 stream " + fixed(one, 3) +
                           " ms (medians of " + std::to_string(run.one.size()) + " runs, first begin to last end)";
  if (ratio > 1.05) {
    findings.push_back(observe(streams_name(run.many) + " against 1", both + ": " + fixed(ratio, 2) + "x faster"));
  } else if (ratio < 0.95) {
    findings.push_back(observe(streams_name(run.many) + " against 1", both + ": " + fixed(1.0 / ratio, 2) + "x slower"));
  } else {
    findings.push_back(observe(streams_name(run.many) + " against 1", both + ": no real difference (within 5 %)"));
  }

  // What ran beside what, from CUPTI's record of the many-streams run.
  std::string why;
  if (!usable(run.lots_recorded, why)) {
    findings.push_back(observe("what overlapped", "not recorded (" + why + ")"));
    return findings;
  }
  const Recorded r = figures(run.lots_recorded);
  const std::string of_run = " of the recorded " + streams_name(run.many) + " run's " + fixed(r.span_ms, 3) + " ms";
  if (r.in_with_out_ms > 0.1 * r.span_ms) {
    findings.push_back(observe("copies in both directions",
                               "for " + fixed(r.in_with_out_ms, 3) + " ms" + of_run +
                                   " a copy host to device ran beside a copy device to host (this device reports "
                                   "asyncEngineCount = " +
                                   std::to_string(run.copy_engines) + ")"));
  } else {
    findings.push_back(observe("copies in both directions", "they ran at once for only " +
                                                                fixed(r.in_with_out_ms, 3) + " ms" + of_run +
                                                                " (asyncEngineCount = " +
                                                                std::to_string(run.copy_engines) + ")"));
  }
  const double tolerance = 0.01;  // 1 % of a direction's busy time: records can touch by a few ns
  if (r.in_with_in_ms <= tolerance * r.copy_in_ms && r.out_with_out_ms <= tolerance * r.copy_out_ms) {
    findings.push_back(observe("copies in one direction",
                               "no two copies in the same direction ran at once: each direction's copies add up to "
                               "its busy time (" +
                                   fixed(r.copy_in_ms, 3) + " ms in, " + fixed(r.copy_out_ms, 3) + " ms out)"));
  } else {
    findings.push_back(observe("copies in one direction", "copies in the same direction overlapped each other for " +
                                                              fixed(r.in_with_in_ms, 3) + " ms (host to device) and " +
                                                              fixed(r.out_with_out_ms, 3) + " ms (device to host)"));
  }
  const double hidden = r.kernels_ms > 0 ? r.copies_with_kernels_ms / r.kernels_ms : 0.0;
  if (hidden >= 0.9) {
    findings.push_back(observe("the kernels", "the kernels, busy " + fixed(r.kernels_ms, 3) + " ms in all, ran beside a copy for " +
                                                  fixed(100 * hidden, 0) + " % of that time: they hid inside the copies"));
  } else {
    findings.push_back(observe("the kernels", "the kernels, busy " + fixed(r.kernels_ms, 3) +
                                                  " ms in all, ran beside a copy for only " + fixed(100 * hidden, 0) +
                                                  " % of that time"));
  }
  const double busier = std::max(r.copy_in_ms, r.copy_out_ms);
  const double share = r.span_ms > 0 ? busier / r.span_ms : 0.0;
  if (share >= 0.8) {
    findings.push_back(observe("what bounds the time", "the busier copy direction was busy " + fixed(busier, 3) +
                                                           " ms, " + fixed(100 * share, 0) + " %" + of_run +
                                                           ": the copies bound it"));
  } else {
    findings.push_back(observe("what bounds the time", "the busier copy direction was busy only " + fixed(busier, 3) +
                                                           " ms, " + fixed(100 * share, 0) + " %" + of_run +
                                                           ": something other than the copies took the rest"));
  }
  return findings;
}

std::vector<Background> streams_background() {
  return {{"work queued on one stream runs in the order it was queued; work queued on different streams may run "
           "concurrently, in no promised order",
           "CUDA C++ Programming Guide, Asynchronous Concurrent Execution (Streams)"},
          {"a device can overlap a copy to it with a copy from it when its asyncEngineCount is 2 or more, for copies "
           "from and to page-locked host memory; the count says how many asynchronous engines there are, not which "
           "copy each one serves",
           "CUDA C++ Programming Guide, Concurrent Data Transfers; CUDA Runtime API, cudaDeviceProp::asyncEngineCount"}};
}

// --- 3. The default stream -----------------------------------------------------

std::string DefaultStreamRun::description() const {
  return build + " build, " + side_streams + " A/B, middle on " + middle;
}

bool DefaultStreamRun::serialised() const { return begin_ms[1] >= end_ms[0] && begin_ms[2] >= end_ms[1]; }

bool DefaultStreamRun::concurrent() const {
  const double latest_begin = std::max({begin_ms[0], begin_ms[1], begin_ms[2]});
  const double earliest_end = std::min({end_ms[0], end_ms[1], end_ms[2]});
  return latest_begin < earliest_end;
}

namespace {

std::string what_ran(const DefaultStreamRun& run) {
  if (run.serialised()) return "one after another";
  return run.concurrent() ? "at once" : "partly overlapped";
}

// "non-blocking A/B: the three 10.0 ms kernels ran at once, wall 10.03 ms"
lab::Finding allowed_overlap(const std::string& name, const DefaultStreamRun& run) {
  const std::string kernels = "the three " + fixed(run.spin_ms, 1) + " ms kernels ";
  if (run.concurrent()) {
    return observe(name, kernels + "ran at once (wall " + fixed(run.wall_ms, 3) + " ms): allowed, and it happened here");
  }
  return observe(name, kernels + "ran " + what_ran(run) + " (wall " + fixed(run.wall_ms, 3) +
                           " ms): allowed to run at once, but they did not here");
}

}  // namespace

lab::ResultTable default_stream_table(const DefaultStreamCases& cases) {
  lab::ResultTable table("Three spin kernels queued A, middle, B (start and end from %globaltimer)", "case",
                         {{"wall_ms", "wall", "ms", 3},
                          {"a_begin_ms", "A from", "ms", 1},
                          {"a_end_ms", "A to", "ms", 1},
                          {"middle_begin_ms", "middle from", "ms", 1},
                          {"middle_end_ms", "middle to", "ms", 1},
                          {"b_begin_ms", "B from", "ms", 1},
                          {"b_end_ms", "B to", "ms", 1},
                          {"ran", "the three kernels ran", "", 0}});
  for (const DefaultStreamRun* run : {&cases.legacy, &cases.non_blocking, &cases.per_thread, &cases.legacy_by_name}) {
    table.add_row(run->description())
        .set("wall_ms", run->wall_ms)
        .set("a_begin_ms", run->begin_ms[0])
        .set("a_end_ms", run->end_ms[0])
        .set("middle_begin_ms", run->begin_ms[1])
        .set("middle_end_ms", run->end_ms[1])
        .set("b_begin_ms", run->begin_ms[2])
        .set("b_end_ms", run->end_ms[2])
        .set("ran", what_ran(*run))
        .set("spin_ms", run->spin_ms)
        .set("serialised", run->serialised())
        .set("concurrent", run->concurrent());
  }
  table.note("times in ms after the earliest start of the three");
  return table;
}

std::vector<lab::Finding> default_stream_findings(const DefaultStreamCases& cases) {
  std::vector<lab::Finding> findings;
  std::string short_ones;
  for (const DefaultStreamRun* run : {&cases.legacy, &cases.non_blocking, &cases.per_thread, &cases.legacy_by_name}) {
    if (!run->all_ran) short_ones += (short_ones.empty() ? "" : "; ") + run->description();
  }
  findings.push_back(lab::correctness_check("every spin kernel ran its full length", short_ones.empty(),
                                            short_ones.empty() ? "all twelve kernels spun for at least " +
                                                                     fixed(cases.legacy.spin_ms, 1) + " ms"
                                                               : "too short in: " + short_ones));
  // A documented guarantee, but seen through %globaltimer stamps: a tool that serialises kernels decides it too.
  findings.push_back(lab::timing_check(
      "the legacy default stream serialised with blocking streams (both builds)",
      cases.legacy.serialised() && cases.legacy_by_name.serialised(),
      "stream 0 of the legacy build: " + what_ran(cases.legacy) + " (wall " + fixed(cases.legacy.wall_ms, 3) +
          " ms); cudaStreamLegacy in the per-thread build: " + what_ran(cases.legacy_by_name) + " (wall " +
          fixed(cases.legacy_by_name.wall_ms, 3) + " ms)"));
  findings.push_back(allowed_overlap("non-blocking A/B beside the legacy stream", cases.non_blocking));
  findings.push_back(allowed_overlap("per-thread stream 0 beside blocking A/B", cases.per_thread));
  return findings;
}

std::vector<Background> default_stream_background() {
  const char* source = "CUDA Runtime API, Stream synchronization behavior";
  return {{"in code built without --default-stream per-thread, stream 0 is the legacy default stream: work queued "
           "on it waits for all earlier work on the blocking streams of the same context (one per device in a "
           "runtime API program), and work queued later on those streams waits for it",
           source},
          {"streams created with cudaStreamNonBlocking do not synchronise with the legacy default stream", source},
          {"in code built with --default-stream per-thread, stream 0 is the calling thread's per-thread default "
           "stream, which does not synchronise with other streams (it does with the legacy default stream); "
           "cudaStreamLegacy names the legacy default stream in any build",
           source},
          {"kernels of different streams may run concurrently on a device that supports it; nothing promises that "
           "they do",
           "CUDA C++ Programming Guide, Concurrent Kernel Execution"}};
}

// --- 4. A race between two streams ----------------------------------------------

lab::ResultTable race_table(const RaceRun& run) {
  lab::ResultTable table("A slow producer (held " + fixed(run.delay_ms, 1) + " ms, data = 2 x input) on one stream, "
                             "a consumer (out = data + 1) on another, " + lab::format_count(run.n) + " floats",
                         "ordering",
                         {{"runs", "runs", "", 0},
                          {"wrong_runs", "wrong runs", "", 0},
                          {"wrong_values_last", "wrong values, last run", "", 0},
                          {"values", "values", "", 0}});
  table.add_row("none")
      .set("runs", run.runs)
      .set("wrong_runs", run.raced_wrong)
      .set("wrong_values_last", static_cast<long long>(run.raced_last.mismatches))
      .set("values", static_cast<long long>(run.raced_last.count));
  table.add_row("cudaEventRecord + cudaStreamWaitEvent")
      .set("runs", run.runs)
      .set("wrong_runs", run.fixed_wrong)
      .set("wrong_values_last", static_cast<long long>(run.fixed_last.mismatches))
      .set("values", static_cast<long long>(run.fixed_last.count));
  table.note("data and out are poisoned with NaN before every run; out is checked exactly");
  return table;
}

std::vector<lab::Finding> race_findings(const RaceRun& run) {
  std::vector<lab::Finding> findings;
  findings.push_back(lab::correctness_check(
      "the consumer that waits on the producer's event is always correct", run.runs > 0 && run.fixed_wrong == 0,
      "wrong in " + std::to_string(run.fixed_wrong) + " of " + std::to_string(run.runs) + " runs; last run: " +
          run.fixed_last.detail()));
  if (run.raced_wrong > 0) {
    findings.push_back(observe("without an ordering",
                               "the consumer read the poisoned data before the producer wrote it in " +
                                   std::to_string(run.raced_wrong) + " of " + std::to_string(run.runs) + " runs"));
  } else {
    findings.push_back(observe("without an ordering", "the race did not show in " + std::to_string(run.runs) +
                                                          " runs: no ordering is still a bug, the timing hid it"));
  }
  return findings;
}

std::vector<Background> race_background() {
  return {{"cudaEventRecord captures in the event the work queued on the stream so far", "CUDA Runtime API, cudaEventRecord"},
          {"cudaStreamWaitEvent makes all work submitted to the stream afterwards wait for all work captured in the "
           "event; the wait is done on the device when applicable, the call does not make the host wait for it",
           "CUDA Runtime API, cudaStreamWaitEvent"}};
}

// --- 5. Stream-ordered memory -----------------------------------------------------

namespace {

void add_samples(lab::ResultTable& table, const std::string& name, const std::vector<double>& us) {
  if (us.empty()) return;
  table.add_row(name).samples(us, "us");
}

std::string us_text(const std::vector<double>& us) { return fixed(median_of(us), 1) + " us"; }

// One sentence per reuse case.
lab::Finding reuse_finding(const ReuseCase& c) {
  if (!c.measured) return observe(c.name, "not measured: the holding kernel timed out (is a tool serialising kernels?)");
  std::string text = c.same_address ? "got the freed block's address back, although its free had not run yet"
                                    : "got a different address from the freed block";
  if (c.checked_wait) {
    text += c.allocator_waited ? "; the allocating stream's later work waited for the held free"
                               : "; the allocating stream's later work did not wait for the held free";
  }
  return observe(c.name, text);
}

}  // namespace

lab::ResultTable temporaries_table(const MemoryRun& run) {
  lab::ResultTable table("One normalisation with per-call temporaries (partial sums, total), behind queued work",
                         "temporaries from",
                         {{"queued_ms", "queued before", "ms", 1},
                          {"call_ms", "call returned after", "ms", 3},
                          {"result", "result", "", 0}});
  for (const TemporariesRun* t : {&run.cuda_malloc, &run.stream_ordered}) {
    table.add_row(t->kind)
        .set("queued_ms", t->queued_ms)
        .set("call_ms", t->call_ms)
        .set("result", t->result.passed() ? "correct" : "WRONG");
  }
  return table;
}

lab::ResultTable allocation_table(const MemoryRun& run) {
  const AllocationTimes& t = run.calls;
  lab::ResultTable table("Each call alone, " + std::to_string(t.bytes) + " bytes (host time)", "call",
                         {{"median", "median", "us", 1}, {"min", "min", "us", 1}, {"max", "max", "us", 1},
                          {"count", "samples", "", 0}});
  const std::string queued = ", behind " + fixed(t.queued_ms, 1) + " ms of queued work";
  add_samples(table, "cudaMalloc, idle GPU", t.malloc_idle_us);
  add_samples(table, "cudaFree, idle GPU", t.free_idle_us);
  add_samples(table, "cudaMallocAsync, idle stream", t.malloc_async_idle_us);
  add_samples(table, "cudaFreeAsync, idle stream", t.free_async_idle_us);
  add_samples(table, "cudaMalloc" + queued, t.malloc_queued_us);
  add_samples(table, "cudaFree" + queued, t.free_queued_us);
  add_samples(table, "cudaMallocAsync" + queued, t.malloc_async_queued_us);
  add_samples(table, "cudaFreeAsync" + queued, t.free_async_queued_us);
  table.note("queued work: a spin kernel on the stream the stream-ordered calls use");
  return table;
}

lab::ResultTable threshold_table(const MemoryRun& run) {
  const ThresholdRun& t = run.threshold;
  lab::ResultTable table("The default pool's release threshold: cudaMallocAsync of " + mib(static_cast<double>(t.bytes)) +
                             " right after cudaStreamSynchronize",
                         "cudaMemPoolAttrReleaseThreshold",
                         {{"reserved_after_sync_mib", "reserved after the sync", "MiB", 1},
                          {"median", "cudaMallocAsync median", "us", 1},
                          {"min", "min", "us", 1},
                          {"max", "max", "us", 1}});
  for (const auto& [name, c] : {std::pair<const char*, const ThresholdCase*>{"0 (the default)", &t.release_all},
                                {"UINT64_MAX", &t.keep_all}}) {
    lab::ResultTable::Row& row = table.add_row(name);
    if (!c->malloc_after_sync_us.empty()) row.samples(c->malloc_after_sync_us, "us");
    row.set("reserved_after_sync_mib", static_cast<double>(c->reserved_after_sync) / (1024.0 * 1024.0))
        .set("threshold", static_cast<double>(c->threshold));
  }
  table.note("reserved: cudaMemPoolAttrReservedMemCurrent; each sample allocates and frees the block, synchronises, "
             "then times the next cudaMallocAsync");
  return table;
}

lab::ResultTable reuse_table(const MemoryRun& run) {
  const ReuseRun& r = run.reuse;
  lab::ResultTable table("A block freed with cudaFreeAsync on a held stream, then " + std::to_string(r.bytes) +
                             " bytes allocated again",
                         "allocated on",
                         {{"same_address", "same address", "", 0}, {"allocator_waited", "its stream waited", "", 0}});
  for (const ReuseCase* c : {&r.same_stream, &r.other_stream, &r.other_stream_no_internal, &r.other_stream_event}) {
    lab::ResultTable::Row& row = table.add_row(c->name);
    row.set("measured", c->measured);
    if (!c->measured) continue;
    row.set("same_address", c->same_address);
    if (c->checked_wait) row.set("allocator_waited", c->allocator_waited);
  }
  table.note("'its stream waited': an event recorded after the allocation had not completed while the freeing stream "
             "was held; '-' where not probed");
  return table;
}

std::vector<lab::Finding> memory_findings(const MemoryRun& run) {
  std::vector<lab::Finding> findings;
  for (const TemporariesRun* t : {&run.cuda_malloc, &run.stream_ordered}) {
    findings.push_back(
        lab::correctness_check("normalisation correct with " + t->kind, t->result.passed(), t->result.detail()));
  }
  findings.push_back(lab::correctness_check(
      "the pool's attributes were restored after each experiment", run.threshold.restored && run.reuse.restored,
      std::string("release threshold ") + (run.threshold.restored ? "restored" : "NOT restored") +
          ", cudaMemPoolReuseAllowInternalDependencies " + (run.reuse.restored ? "restored" : "NOT restored")));

  // Whole calls of the normalisation behind queued work.
  const TemporariesRun& blocking = run.cuda_malloc;
  const TemporariesRun& ordered = run.stream_ordered;
  const std::string behind = " behind " + fixed(blocking.queued_ms, 1) + " ms of queued work";
  // "too" below only when the cudaMalloc call waited as well: beside one that did not, it would contradict it.
  const bool blocking_waited = blocking.call_ms > 0.5 * blocking.queued_ms;
  findings.push_back(observe(
      "the call with cudaMalloc / cudaFree",
      "returned after " + fixed(blocking.call_ms, 3) + " ms" + behind +
          (blocking_waited ? ": it waited for the queued work" : ": it did not wait for it")));
  findings.push_back(observe(
      "the call with cudaMallocAsync / cudaFreeAsync",
      "returned after " + fixed(ordered.call_ms, 3) + " ms" + behind +
          (ordered.call_ms < 0.5 * ordered.queued_ms
               ? ": it did not wait for the queued work"
               : std::string(": it waited for the queued work") + (blocking_waited ? " too" : ""))));

  // Each call alone.
  const AllocationTimes& t = run.calls;
  const double sync_pair = median_of(t.malloc_idle_us) + median_of(t.free_idle_us);
  const double async_pair = median_of(t.malloc_async_idle_us) + median_of(t.free_async_idle_us);
  const std::string idle = "on an idle GPU cudaMalloc took " + us_text(t.malloc_idle_us) + " and cudaFree " +
                           us_text(t.free_idle_us) + "; cudaMallocAsync " + us_text(t.malloc_async_idle_us) +
                           " and cudaFreeAsync " + us_text(t.free_async_idle_us) + " (medians)";
  if (async_pair < sync_pair) {
    findings.push_back(observe("the calls alone, idle", idle + ": the stream-ordered pair was " +
                                                            fixed(sync_pair / async_pair, 1) + "x cheaper"));
  } else {
    findings.push_back(observe("the calls alone, idle", idle + ": the stream-ordered pair was not cheaper"));
  }
  const double half_queued_us = 0.5 * t.queued_ms * 1e3;
  const std::string queued = " behind " + fixed(t.queued_ms, 1) + " ms of queued work";
  auto waited = [&](const std::vector<double>& us) { return median_of(us) > half_queued_us; };
  for (const auto& [call, us] : {std::pair<const char*, const std::vector<double>*>{"cudaMalloc", &t.malloc_queued_us},
                                 {"cudaFree", &t.free_queued_us},
                                 {"cudaMallocAsync", &t.malloc_async_queued_us},
                                 {"cudaFreeAsync", &t.free_async_queued_us}}) {
    findings.push_back(observe(std::string(call) + queued, "took " + us_text(*us) +
                                                               (waited(*us) ? ": it waited for the queued work"
                                                                            : ": it did not wait for the queued work")));
  }

  // The release threshold.
  const ThresholdRun& th = run.threshold;
  const double bytes = static_cast<double>(th.bytes);
  const double released_us = median_of(th.release_all.malloc_after_sync_us);
  const double kept_us = median_of(th.keep_all.malloc_after_sync_us);
  const std::string figures = "after a sync the pool held " + mib(static_cast<double>(th.release_all.reserved_after_sync)) +
                              " with threshold 0 and " + mib(static_cast<double>(th.keep_all.reserved_after_sync)) +
                              " with UINT64_MAX; the next cudaMallocAsync of " + mib(bytes) + " took " +
                              fixed(released_us, 1) + " us and " + fixed(kept_us, 1) + " us";
  const bool as_documented = static_cast<double>(th.release_all.reserved_after_sync) < bytes &&
                             static_cast<double>(th.keep_all.reserved_after_sync) >= bytes;
  if (!as_documented) {
    findings.push_back(observe("the release threshold",
                               figures + ": the reserved memory did not follow the threshold in this run"));
  } else if (released_us > 1.5 * kept_us) {
    findings.push_back(observe("the release threshold", figures + ": memory handed back at the sync cost " +
                                                            fixed(released_us / kept_us, 1) +
                                                            "x more to allocate again than memory the pool kept"));
  } else {
    findings.push_back(observe("the release threshold",
                               figures + ": the pool released and kept memory as set, but allocating again cost "
                                         "about the same either way"));
  }

  // Reuse after a pending free.
  const ReuseRun& r = run.reuse;
  findings.push_back(observe("the default pool's reuse attributes",
                             "cudaMemPoolReuseFollowEventDependencies = " + std::to_string(r.follow_event_dependencies) +
                                 ", cudaMemPoolReuseAllowOpportunistic = " + std::to_string(r.allow_opportunistic) +
                                 ", cudaMemPoolReuseAllowInternalDependencies = " +
                                 std::to_string(r.allow_internal_dependencies)));
  for (const ReuseCase* c : {&r.same_stream, &r.other_stream, &r.other_stream_no_internal, &r.other_stream_event}) {
    findings.push_back(reuse_finding(*c));
  }
  return findings;
}

std::vector<Background> memory_background() {
  return {{"allocating and freeing with cudaMalloc and cudaFree makes the GPU synchronise across all executing "
           "streams; cudaMallocAsync and cudaFreeAsync order the allocation and the free with the other work of a "
           "stream",
           "CUDA C++ Programming Guide, Stream-Ordered Memory Allocator, Introduction"},
          {"every access to a stream-ordered allocation must happen between the allocation and the free in stream "
           "order (an access outside it is undefined behaviour); the allocator may hand the memory out again once it "
           "can guarantee that such accesses do not overlap in time, from stream order, from dependencies between "
           "streams (events), or from dependencies it inserts itself",
           "CUDA Runtime API, Stream Ordered Memory Allocator (overview)"},
          {"cudaMemPoolAttrReleaseThreshold (default 0): when the pool holds more reserved memory than this, the "
           "allocator tries to release memory to the OS at the next stream, event or context synchronize",
           "CUDA Runtime API, cudaMemPoolSetAttribute"},
          {"the pool may reuse a block freed on another stream when the allocating stream depends on the free "
           "(cudaMemPoolReuseFollowEventDependencies), when the free has already completed "
           "(cudaMemPoolReuseAllowOpportunistic), or by inserting that dependency itself "
           "(cudaMemPoolReuseAllowInternalDependencies); all three are enabled by default",
           "CUDA Runtime API, cudaMemPoolSetAttribute"}};
}

}  // namespace ch04
