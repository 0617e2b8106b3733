#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "command_line.hpp"
#include "vocabulary.hpp"

namespace ch04 {

// --- 1. The normalisation ------------------------------------------------------

bool NormalizeCheck::passed() const { return elements.passed() && std::fabs(sum - 1.0) <= kNormalizeTolerance; }

std::string NormalizeCheck::detail() const {
  return elements.detail() + lab::format("; largest relative error %.2e; sum of the result %.7f (tolerance %.2e)",
                                         max_relative_error, sum, kNormalizeTolerance);
}

lab::ResultTable first_table(const FirstRun& run) {
  lab::ResultTable table("normalisation",
                         "a <- a / sum(a): three kernels on one stream, random floats in [0.25, 1) from pinned memory",
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
  return {lab::correctness_check("normalisation_correct",
                                 "the normalisation matches the CPU reference (array 0, one stream)",
                                 run.result.passed(), run.result.detail())
              .with("max_relative_error", run.result.max_relative_error)
              .with("sum", run.result.sum)};
}

// --- 2. One stream against many ------------------------------------------------

bool ArraysRun::all_correct() const {
  return !results.empty() &&
         std::all_of(results.begin(), results.end(), [](const NormalizeCheck& c) { return c.passed(); });
}

namespace {

std::string streams_name(int streams) {
  return lab::count_text(static_cast<std::size_t>(streams), "stream", "streams");
}

std::vector<double> totals(const std::vector<ArraysRun>& runs) {
  std::vector<double> result;
  for (const ArraysRun& r : runs) result.push_back(r.total_ms);
  return result;
}

// The run whose total is closest to the median: its per-array times go in the table.
const ArraysRun* median_run(const std::vector<ArraysRun>& runs) {
  if (runs.empty()) return nullptr;
  const double median = lab::median_or_nan(totals(runs));
  return &*std::min_element(runs.begin(), runs.end(), [&](const ArraysRun& x, const ArraysRun& y) {
    return std::fabs(x.total_ms - median) < std::fabs(y.total_ms - median);
  });
}

// What CUPTI's record of one run says: busy times and overlaps, in ms.
struct Recorded {
  double span_ms = 0;                 // earliest start to latest end of the copies and kernels
  double copy_in_ms = 0;              // some copy host to device ran
  double copy_out_ms = 0;             // some copy device to host ran
  double kernels_ms = 0;              // some kernel ran
  double in_with_out_ms = 0;          // copies in both directions at once
  double copies_with_kernels_ms = 0;  // a copy beside a kernel
  double in_with_in_ms = 0;           // two copies host to device at once (sum of durations - busy)
  double out_with_out_ms = 0;         // two copies device to host at once
};

// "" when the recording is usable (recorded, nothing dropped), else why not.
std::string why_unusable(const ArraysRecording& recording) {
  if (!recording.recorded) return recording.why_not.empty() ? "CUPTI did not record" : recording.why_not;
  if (recording.dropped > 0) return lab::format("CUPTI dropped %zu records", recording.dropped);
  return "";
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

// The three kernels of normalize.cu, as CUPTI names them (mangled or not), with the bytes each moves.
struct KernelKind {
  const char* name;
  double bytes_per_float;  // bytes read + written per array element; 0: not a streaming kernel
};
constexpr KernelKind kKernels[] = {{"partial_sums", 4.0}, {"sum_partials", 0.0}, {"divide", 8.0}};

}  // namespace

lab::ResultTable streams_table(const StreamsComparison& run) {
  lab::ResultTable table("streams",
                         std::to_string(run.arrays) + " arrays x " + lab::format_count(run.n) +
                             " floats, each: copy in -> 3 kernels -> copy out (events)",
                         "streams",
                         {{"median", "total (median)", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"per_array_ms", "per array (median run)", "ms", 3},
                          {"speedup", "1 stream / this", "x", 2}});
  const double one = lab::median_or_nan(totals(run.one));
  for (const std::vector<ArraysRun>* runs : {&run.one, &run.lots}) {
    const ArraysRun* middle = median_run(*runs);
    if (middle == nullptr) continue;
    lab::ResultTable::Row& row = table.add_row(streams_name(middle->streams));
    row.samples(totals(*runs), "ms").set("streams", middle->streams).set("arrays", run.arrays);
    row.set("n", static_cast<long long>(run.n)).set("speedup", one / lab::median_or_nan(totals(*runs)));
    if (!middle->per_array_ms.empty()) row.set("per_array_ms", lab::median_or_nan(middle->per_array_ms));
  }
  table.note(
      "total: the earliest begin event to the latest end event, whichever arrays they belong to; per array: the "
      "median of the run whose total is the median");
  return table;
}

lab::ResultTable recorded_table(const StreamsComparison& run) {
  lab::ResultTable table("recorded", "What CUPTI recorded in one more run of each (busy: at least one of them running)",
                         "streams",
                         {{"span_ms", "first to last", "ms", 3},
                          {"copy_in_busy_ms", "copy in busy", "ms", 3},
                          {"copy_out_busy_ms", "copy out busy", "ms", 3},
                          {"kernels_busy_ms", "kernels busy", "ms", 3},
                          {"in_with_out_ms", "in || out", "ms", 3},
                          {"copies_with_kernels_ms", "copy || kernel", "ms", 3},
                          {"copy_in_gbps", "in while busy", "GB/s", 1},
                          {"copy_out_gbps", "out while busy", "GB/s", 1}});
  const double bytes = 4.0 * static_cast<double>(run.n) * static_cast<double>(run.arrays);  // each way
  for (const ArraysRecording* recording : {&run.one_recorded, &run.lots_recorded}) {
    lab::ResultTable::Row& row = table.add_row(streams_name(recording->streams));
    const std::string why = why_unusable(*recording);
    row.set("recorded", why.empty());
    if (!why.empty()) {
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
  lab::ResultTable table("kernels", "The three kernels of one array (CUPTI, the 1-stream recording)", "kernel",
                         {{"count", "launches", "", 0},
                          {"median", "median", "us", 1},
                          {"min", "min", "us", 1},
                          {"max", "max", "us", 1},
                          {"gbps", "bytes moved / median", "GB/s", 0}});
  const std::string why = why_unusable(run.one_recorded);
  if (!why.empty()) {
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
    const double bytes = kind.bytes_per_float * static_cast<double>(run.n);
    if (bytes > 0) row.set("gbps", lab::gigabytes_per_second(bytes, lab::median_or_nan(us) * 1e-3));
  }
  table.note("partial_sums reads the array once (4 B per float), divide reads and writes it (8 B per float)");
  return table;
}

namespace {

// Correct in every run, the recorded ones included.
lab::Finding arrays_correct(const StreamsComparison& run) {
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
    wrong += recording->all_correct ? 0 : 1;
    if (!recording->all_correct && first_wrong.empty()) first_wrong = "a recorded run was wrong";
  }
  return lab::correctness_check("arrays_correct",
                                "every array normalised correctly in every run (1 and " + streams_name(run.many) + ")",
                                runs > 0 && wrong == 0,
                                lab::format("%d of %d runs had a wrong array", wrong, runs) +
                                    (first_wrong.empty() ? "" : "; first: " + first_wrong))
      .with("runs_count", runs)
      .with("wrong_count", wrong);
}

// Many streams against one, in the events' totals.
lab::Finding streams_speedup(const StreamsComparison& run) {
  const double one = lab::median_or_nan(totals(run.one));
  const double lots = lab::median_or_nan(totals(run.lots));
  const double ratio = one / lots;
  const std::string branch = ratio > 1.05 ? "faster" : (ratio < 0.95 ? "slower" : "same");
  const std::string verdict = branch == "same" ? "no real difference (within 5 %)"
                                               : lab::format("%.2fx %s", std::max(ratio, 1.0 / ratio), branch.c_str());
  return lab::named_observation("streams_speedup." + branch, streams_name(run.many) + " against 1",
                                lab::format("%s took %.3f ms, 1 stream %.3f ms (medians of %zu runs, earliest begin "
                                            "to latest end): %s",
                                            streams_name(run.many).c_str(), lots, one, run.one.size(), verdict.c_str()))
      .with("one_stream_ms", one)
      .with("many_streams_ms", lots)
      .with("speedup", ratio);
}

// Copies host to device beside copies device to host: for more than a tenth of the run?
lab::Finding both_directions(const Recorded& r, int copy_engines) {
  const bool overlapped = r.in_with_out_ms > 0.1 * r.span_ms;
  return lab::named_observation(overlapped ? "both_directions.overlapped" : "both_directions.apart",
                                "copies in both directions",
                                lab::format("a copy host to device ran beside a copy device to host for %s%.3f ms of "
                                            "the run's %.3f ms (asyncEngineCount = %d)",
                                            overlapped ? "" : "only ", r.in_with_out_ms, r.span_ms, copy_engines))
      .with("in_with_out_ms", r.in_with_out_ms)
      .with("span_ms", r.span_ms)
      .with("copy_engines_count", copy_engines);
}

// Two copies in the same direction at once, for more than 1 % of that direction's busy time?
lab::Finding one_direction(const Recorded& r) {
  const double tolerance = 0.01;  // records can touch by a few ns
  const bool serial = r.in_with_in_ms <= tolerance * r.copy_in_ms && r.out_with_out_ms <= tolerance * r.copy_out_ms;
  return lab::named_observation(
             serial ? "one_direction.one_at_a_time" : "one_direction.overlapped", "copies in one direction",
             lab::format("copies in the same direction overlapped each other for %.3f ms (host to device) and %.3f ms "
                         "(device to host)%s",
                         r.in_with_in_ms, r.out_with_out_ms,
                         serial ? ": one at a time, within 1 % of each direction's busy time" : ""))
      .with("in_with_in_ms", r.in_with_in_ms)
      .with("out_with_out_ms", r.out_with_out_ms);
}

// How much of the kernels' busy time a copy ran beside them.
lab::Finding kernels_hidden(const Recorded& r) {
  const double hidden = r.kernels_ms > 0 ? 100.0 * r.copies_with_kernels_ms / r.kernels_ms : 0.0;
  const bool inside = hidden >= 90.0;
  const std::string text =
      lab::format("the kernels, busy %.3f ms in all, ran beside a copy for %s%.0f %% of that time%s", r.kernels_ms,
                  inside ? "" : "only ", hidden, inside ? ": they hid inside the copies" : "");
  return lab::named_observation(inside ? "kernels_hidden.inside" : "kernels_hidden.partly", "the kernels", text)
      .with("kernels_busy_ms", r.kernels_ms)
      .with("hidden_percent", hidden);
}

// Whether the busier copy direction fills the run.
lab::Finding time_bound(const Recorded& r) {
  const double busier = std::max(r.copy_in_ms, r.copy_out_ms);
  const double share = r.span_ms > 0 ? 100.0 * busier / r.span_ms : 0.0;
  const bool copies = share >= 80.0;
  const std::string text = lab::format(
      "the busier copy direction was busy %s%.3f ms, %.0f %% of the run's %.3f ms: %s", copies ? "" : "only ", busier,
      share, r.span_ms, copies ? "the copies bound it" : "something other than the copies took the rest");
  return lab::named_observation(copies ? "time_bound.copies" : "time_bound.other", "what bounds the time", text)
      .with("busier_copy_ms", busier)
      .with("share_percent", share);
}

}  // namespace

std::vector<lab::Finding> streams_findings(const StreamsComparison& run) {
  std::vector<lab::Finding> findings = {arrays_correct(run), streams_speedup(run)};
  // What ran beside what, from CUPTI's record of the many-streams run.
  const std::string why = why_unusable(run.lots_recorded);
  if (!why.empty()) {
    findings.push_back(
        lab::named_observation("what_overlapped.not_recorded", "what overlapped", "not recorded (" + why + ")")
            .with("dropped_count", run.lots_recorded.dropped));
    return findings;
  }
  const Recorded r = figures(run.lots_recorded);
  findings.insert(findings.end(),
                  {both_directions(r, run.copy_engines), one_direction(r), kernels_hidden(r), time_bound(r)});
  return findings;
}

std::vector<Background> streams_background() {
  return {
      {"work queued on one stream runs in the order it was queued; work queued on different streams may run "
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

// "non-blocking A/B ...: the three 10.0 ms kernels ran at once (wall 10.030 ms): allowed, and it happened here"
lab::Finding allowed_overlap(const std::string& id, const std::string& name, const DefaultStreamRun& run) {
  const std::string text =
      lab::format("the three %.1f ms kernels ran %s (wall %.3f ms): ", run.spin_ms, what_ran(run).c_str(),
                  run.wall_ms) +
      (run.concurrent() ? "allowed, and it happened here" : "allowed to run at once, but they did not here");
  return lab::named_observation(id + (run.concurrent() ? ".at_once" : ".not_at_once"), name, text)
      .with("wall_ms", run.wall_ms);
}

}  // namespace

lab::ResultTable default_stream_table(const DefaultStreamCases& cases) {
  lab::ResultTable table("default_stream", "Three spin kernels queued A, middle, B (start and end from %globaltimer)",
                         "case",
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
  std::string short_ones;
  int short_count = 0;
  for (const DefaultStreamRun* run : {&cases.legacy, &cases.non_blocking, &cases.per_thread, &cases.legacy_by_name}) {
    if (run->all_ran) continue;
    short_ones += (short_ones.empty() ? "" : "; ") + run->description();
    ++short_count;
  }
  const std::string ran = short_ones.empty()
                              ? lab::format("all twelve kernels spun for at least %.1f ms", cases.legacy.spin_ms)
                              : "too short in: " + short_ones;
  // A documented guarantee, but seen through %globaltimer stamps: a tool that serialises kernels decides it too.
  const std::string legacy = lab::format(
      "stream 0 of the legacy build: %s (wall %.3f ms); cudaStreamLegacy in the per-thread build: %s (wall %.3f ms)",
      what_ran(cases.legacy).c_str(), cases.legacy.wall_ms, what_ran(cases.legacy_by_name).c_str(),
      cases.legacy_by_name.wall_ms);
  return {
      lab::correctness_check("spins_ran", "every spin kernel ran its full length", short_count == 0, ran)
          .with("short_cases_count", short_count)
          .with("spin_ms", cases.legacy.spin_ms),
      lab::timing_check("legacy_serialised", "the legacy default stream serialised with blocking streams (both builds)",
                        cases.legacy.serialised() && cases.legacy_by_name.serialised(), legacy)
          .with("legacy_wall_ms", cases.legacy.wall_ms)
          .with("legacy_by_name_wall_ms", cases.legacy_by_name.wall_ms),
      allowed_overlap("non_blocking", "non-blocking A/B beside the legacy stream", cases.non_blocking),
      allowed_overlap("per_thread", "per-thread stream 0 beside blocking A/B", cases.per_thread)};
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
  lab::ResultTable table("race",
                         lab::format("A slow producer (held %.1f ms, data = 2 x input) on one stream, a consumer "
                                     "(out = data + 1) on another, ",
                                     run.delay_ms) +
                             lab::format_count(run.n) + " floats",
                         "ordering",
                         {{"runs", "runs", "", 0},
                          {"wrong_runs", "wrong runs", "", 0},
                          {"wrong_values_last", "wrong values, last run", "", 0},
                          {"values", "values", "", 0}});
  for (const auto& [name, wrong, last] :
       {std::tuple<const char*, int, const lab::Comparison*>{"none", run.raced_wrong, &run.raced_last},
        {"cudaEventRecord + cudaStreamWaitEvent", run.fixed_wrong, &run.fixed_last}}) {
    table.add_row(name)
        .set("runs", run.runs)
        .set("wrong_runs", wrong)
        .set("wrong_values_last", static_cast<long long>(last->mismatches))
        .set("values", static_cast<long long>(last->count));
  }
  table.note("data and out are poisoned with NaN before every run; out is checked exactly");
  return table;
}

std::vector<lab::Finding> race_findings(const RaceRun& run) {
  const std::string raced =
      run.raced_wrong > 0
          ? lab::format("the consumer read the poisoned data before the producer wrote it in %d of %d runs",
                        run.raced_wrong, run.runs)
          : lab::format("the race did not show in %d runs: no ordering is still a bug, the timing hid it", run.runs);
  return {lab::correctness_check(
              "fix_correct", "the consumer that waits on the producer's event is always correct",
              run.runs > 0 && run.fixed_wrong == 0,
              lab::format("wrong in %d of %d runs; last run: ", run.fixed_wrong, run.runs) + run.fixed_last.detail())
              .with("wrong_runs_count", run.fixed_wrong)
              .with("runs_count", run.runs),
          lab::named_observation(run.raced_wrong > 0 ? "race.showed" : "race.hidden", "without an ordering", raced)
              .with("wrong_runs_count", run.raced_wrong)
              .with("runs_count", run.runs)};
}

std::vector<Background> race_background() {
  return {{"cudaEventRecord captures in the event the work queued on the stream so far",
           "CUDA Runtime API, cudaEventRecord"},
          {"cudaStreamWaitEvent makes all work submitted to the stream afterwards wait for all work captured in the "
           "event; the wait is done on the device when applicable, the call does not make the host wait for it",
           "CUDA Runtime API, cudaStreamWaitEvent"}};
}

// --- 5. Stream-ordered memory -----------------------------------------------------

lab::ResultTable temporaries_table(const MemoryRun& run) {
  lab::ResultTable table("temporaries",
                         "One normalisation with per-call temporaries (partial sums, total), behind queued work",
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
  lab::ResultTable table(
      "allocation_calls", lab::format("Each call alone, %zu bytes (host time)", t.bytes), "call",
      {{"median", "median", "us", 1}, {"min", "min", "us", 1}, {"max", "max", "us", 1}, {"count", "samples", "", 0}});
  const std::string queued = lab::format(", behind %.1f ms of queued work", t.queued_ms);
  for (const auto& [name, us] :
       {std::pair<std::string, const std::vector<double>*>{"cudaMalloc, idle GPU", &t.malloc_idle_us},
        {"cudaFree, idle GPU", &t.free_idle_us},
        {"cudaMallocAsync, idle stream", &t.malloc_async_idle_us},
        {"cudaFreeAsync, idle stream", &t.free_async_idle_us},
        {"cudaMalloc" + queued, &t.malloc_queued_us},
        {"cudaFree" + queued, &t.free_queued_us},
        {"cudaMallocAsync" + queued, &t.malloc_async_queued_us},
        {"cudaFreeAsync" + queued, &t.free_async_queued_us}}) {
    if (!us->empty()) table.add_row(name).samples(*us, "us");
  }
  table.note("queued work: a spin kernel on the stream the stream-ordered calls use");
  return table;
}

lab::ResultTable threshold_table(const MemoryRun& run) {
  const ThresholdRun& t = run.threshold;
  lab::ResultTable table("release_threshold",
                         "The default pool's release threshold: cudaMallocAsync of " +
                             lab::mib_text(static_cast<double>(t.bytes)) + " right after cudaStreamSynchronize",
                         "cudaMemPoolAttrReleaseThreshold",
                         {{"reserved_after_sync_mib", "reserved after the sync", "MiB", 1},
                          {"median", "cudaMallocAsync median", "us", 1},
                          {"min", "min", "us", 1},
                          {"max", "max", "us", 1}});
  for (const auto& [name, c] :
       {std::pair<const char*, const ThresholdCase*>{"0 (the default)", &t.release_all}, {"UINT64_MAX", &t.keep_all}}) {
    lab::ResultTable::Row& row = table.add_row(name);
    if (!c->malloc_after_sync_us.empty()) row.samples(c->malloc_after_sync_us, "us");
    row.set("reserved_after_sync_mib", static_cast<double>(c->reserved_after_sync) / lab::kMiB)
        .set("threshold", static_cast<double>(c->threshold));
  }
  table.note(
      "reserved: cudaMemPoolAttrReservedMemCurrent; each sample allocates and frees the block, synchronises, "
      "then times the next cudaMallocAsync");
  return table;
}

lab::ResultTable reuse_table(const MemoryRun& run) {
  const ReuseRun& r = run.reuse;
  lab::ResultTable table(
      "reuse",
      lab::format("A block freed with cudaFreeAsync on a held stream, then %zu bytes allocated again", r.bytes),
      "allocated on",
      {{"measured", "measured", "", 0},
       {"same_address", "same address", "", 0},
       {"allocator_waited", "its stream waited", "", 0}});
  for (const ReuseCase* c : {&r.same_stream, &r.other_stream, &r.other_stream_no_internal, &r.other_stream_event}) {
    lab::ResultTable::Row& row = table.add_row(c->name);
    row.set("measured", c->measured);
    if (!c->measured) continue;
    row.set("same_address", c->same_address);
    if (c->checked_wait) row.set("allocator_waited", c->allocator_waited);
  }
  table.note(
      "measured: no: the holding kernel timed out (is a tool serialising kernels?); 'its stream waited': an "
      "event recorded after the allocation had not completed while the freeing stream was held; '-' where not "
      "probed");
  return table;
}

namespace {

// Did a call wait for the work queued before it? Waited: it took more than half of it. @p in_us: a single
// call (microseconds), else a whole normalisation (milliseconds).
lab::Finding call_behind_work(const std::string& id, const std::string& name, double call_ms, double queued_ms,
                              bool in_us) {
  const bool waited = call_ms > 0.5 * queued_ms;
  const std::string took =
      in_us ? lab::format("took %.1f us", call_ms * 1e3)
            : lab::format("returned after %.3f ms behind %.1f ms of queued work", call_ms, queued_ms);
  return lab::named_observation(
             id + (waited ? ".waited" : ".did_not_wait"), name,
             took + (waited ? ": it waited for the queued work" : ": it did not wait for the queued work"))
      .with("call_ms", call_ms)
      .with("queued_ms", queued_ms);
}

// The idle pairs' medians: is cudaMallocAsync + cudaFreeAsync cheaper than cudaMalloc + cudaFree?
lab::Finding idle_pairs(const AllocationTimes& t) {
  const double sync_pair = lab::median_or_nan(t.malloc_idle_us) + lab::median_or_nan(t.free_idle_us);
  const double async_pair = lab::median_or_nan(t.malloc_async_idle_us) + lab::median_or_nan(t.free_async_idle_us);
  const bool cheaper = async_pair < sync_pair;
  const std::string text =
      lab::format(
          "on an idle GPU cudaMalloc + cudaFree took %.1f us, cudaMallocAsync + cudaFreeAsync %.1f us "
          "(sums of medians): ",
          sync_pair, async_pair) +
      (cheaper ? lab::format("the stream-ordered pair was %.1fx cheaper", sync_pair / async_pair)
               : std::string("the stream-ordered pair was not cheaper"));
  return lab::named_observation(cheaper ? "idle_pairs.cheaper" : "idle_pairs.not_cheaper", "the calls alone, idle",
                                text)
      .with("sync_pair_us", sync_pair)
      .with("async_pair_us", async_pair);
}

// The release threshold: did the reserved memory follow it, and what did allocating again cost?
lab::Finding release_threshold(const ThresholdRun& th) {
  const double bytes = static_cast<double>(th.bytes);
  const double released_us = lab::median_or_nan(th.release_all.malloc_after_sync_us);
  const double kept_us = lab::median_or_nan(th.keep_all.malloc_after_sync_us);
  const bool as_documented = static_cast<double>(th.release_all.reserved_after_sync) < bytes &&
                             static_cast<double>(th.keep_all.reserved_after_sync) >= bytes;
  const bool costlier = released_us > 1.5 * kept_us;
  const std::string branch = !as_documented ? "not_followed" : (costlier ? "costlier" : "same_cost");
  const std::string verdict =
      !as_documented ? "the reserved memory did not follow the threshold in this run"
      : costlier     ? lab::format(
                       "memory handed back at the sync cost %.1fx more to allocate again than memory the "
                           "pool kept",
                       released_us / kept_us)
                 : "the pool released and kept memory as set, but allocating again cost about the same either way";
  const std::string text = lab::format(
      "after a sync the pool held %s with threshold 0 and %s with UINT64_MAX; the next cudaMallocAsync of %s took "
      "%.1f us and %.1f us: %s",
      lab::mib_text(static_cast<double>(th.release_all.reserved_after_sync)).c_str(),
      lab::mib_text(static_cast<double>(th.keep_all.reserved_after_sync)).c_str(), lab::mib_text(bytes).c_str(),
      released_us, kept_us, verdict.c_str());
  return lab::named_observation("release_threshold." + branch, "the release threshold", text)
      .with("released_us", released_us)
      .with("kept_us", kept_us)
      .with("released_reserved_mib", static_cast<double>(th.release_all.reserved_after_sync) / lab::kMiB)
      .with("kept_reserved_mib", static_cast<double>(th.keep_all.reserved_after_sync) / lab::kMiB);
}

}  // namespace

std::vector<lab::Finding> memory_findings(const MemoryRun& run) {
  const AllocationTimes& t = run.calls;
  const std::string behind = lab::format(" behind %.1f ms of queued work", t.queued_ms);
  const auto alone = [&](const char* id, const std::string& call, const std::vector<double>& us) {
    return call_behind_work(id, call + behind, lab::median_or_nan(us) * 1e-3, t.queued_ms, true);
  };
  const ReuseRun& r = run.reuse;
  return {lab::correctness_check("cuda_malloc_correct", "normalisation correct with cudaMalloc / cudaFree",
                                 run.cuda_malloc.result.passed(), run.cuda_malloc.result.detail())
              .with("max_relative_error", run.cuda_malloc.result.max_relative_error)
              .with("sum", run.cuda_malloc.result.sum),
          lab::correctness_check("stream_ordered_correct", "normalisation correct with cudaMallocAsync / cudaFreeAsync",
                                 run.stream_ordered.result.passed(), run.stream_ordered.result.detail())
              .with("max_relative_error", run.stream_ordered.result.max_relative_error)
              .with("sum", run.stream_ordered.result.sum),
          lab::correctness_check(
              "pool_restored", "the pool's attributes were restored after each experiment",
              run.threshold.restored && r.restored,
              std::string("release threshold ") + (run.threshold.restored ? "restored" : "NOT restored") +
                  ", cudaMemPoolReuseAllowInternalDependencies " + (r.restored ? "restored" : "NOT restored"))
              .with("threshold_restored", run.threshold.restored)
              .with("reuse_restored", r.restored),
          call_behind_work("cuda_malloc_call", "the call with cudaMalloc / cudaFree", run.cuda_malloc.call_ms,
                           run.cuda_malloc.queued_ms, false),
          call_behind_work("stream_ordered_call", "the call with cudaMallocAsync / cudaFreeAsync",
                           run.stream_ordered.call_ms, run.stream_ordered.queued_ms, false),
          idle_pairs(t),
          alone("cuda_malloc_queued", "cudaMalloc", t.malloc_queued_us),
          alone("cuda_free_queued", "cudaFree", t.free_queued_us),
          alone("cuda_malloc_async_queued", "cudaMallocAsync", t.malloc_async_queued_us),
          alone("cuda_free_async_queued", "cudaFreeAsync", t.free_async_queued_us),
          release_threshold(run.threshold),
          lab::named_observation(
              "reuse_attributes", "the default pool's reuse attributes",
              lab::format("cudaMemPoolReuseFollowEventDependencies = %d, cudaMemPoolReuseAllowOpportunistic = %d, "
                          "cudaMemPoolReuseAllowInternalDependencies = %d",
                          r.follow_event_dependencies, r.allow_opportunistic, r.allow_internal_dependencies))
              .with("follow_event_dependencies", r.follow_event_dependencies)
              .with("allow_opportunistic", r.allow_opportunistic)
              .with("allow_internal_dependencies", r.allow_internal_dependencies)};
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
