#include "tables.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "checks.hpp"
#include "command_line.hpp"
#include "vocabulary.hpp"

namespace ch04 {

std::string streams_name(int streams) {
  return lab::count_text(static_cast<std::size_t>(streams), "stream", "streams");
}

std::string case_name(const DefaultStreamRun& run) {
  return run.build + " build, " + run.side_streams + " A/B, middle on " + run.middle;
}

// --- 1. The normalisation ------------------------------------------------------

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
      .set("result", normalisation_passed(run.result) ? "correct" : "WRONG");
  table.note("the CPU reference divides in double; the tolerance holds for every element (relative) and for the sum");
  return table;
}

// --- 2. One stream against many ------------------------------------------------

namespace {

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

double summed_ms(const std::vector<lab::Interval>& work, char symbol) {
  double ns = 0;
  for (const lab::Interval& i : work) {
    if (lab::chart_symbol(i) == symbol) ns += i.end_ns - i.start_ns;
  }
  return ns * 1e-6;
}

// Earliest start to latest end of the copies and kernels, in ms.
double span_ms(const std::vector<lab::Interval>& work) {
  double first = std::numeric_limits<double>::max(), last = 0;
  for (const lab::Interval& i : work) {
    if (std::string("HDK").find(lab::chart_symbol(i)) == std::string::npos) continue;
    first = std::min(first, i.start_ns);
    last = std::max(last, i.end_ns);
  }
  return last > first ? (last - first) * 1e-6 : 0.0;
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
                          {"in_with_in_ms", "in || in", "ms", 3},
                          {"out_with_out_ms", "out || out", "ms", 3},
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
    const std::vector<lab::Interval>& work = recording->work;
    const double in = lab::busy_ms(work, "H"), out = lab::busy_ms(work, "D");
    row.set("span_ms", span_ms(work))
        .set("copy_in_busy_ms", in)
        .set("copy_out_busy_ms", out)
        .set("kernels_busy_ms", lab::busy_ms(work, "K"))
        .set("in_with_out_ms", lab::overlap_ms(work, "H", "D"))
        .set("copies_with_kernels_ms", lab::overlap_ms(work, "HD", "K"))
        .set("in_with_in_ms", std::max(0.0, summed_ms(work, 'H') - in))  // sum of durations - busy
        .set("out_with_out_ms", std::max(0.0, summed_ms(work, 'D') - out));
    if (in > 0) row.set("copy_in_gbps", lab::gigabytes_per_second(bytes, in));
    if (out > 0) row.set("copy_out_gbps", lab::gigabytes_per_second(bytes, out));
  }
  table.note(
      "H: copy host to device, D: device to host, K: kernel; a || b: both running; '-' where CUPTI did not "
      "record (see below)");
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
    for (const lab::Interval& i : lab::kernels_named(run.one_recorded.work, {kind.name}))
      us.push_back((i.end_ns - i.start_ns) * 1e-3);
    if (us.empty()) continue;
    lab::ResultTable::Row& row = table.add_row(kind.name);
    row.samples(us, "us");
    const double bytes = kind.bytes_per_float * static_cast<double>(run.n);
    if (bytes > 0) row.set("gbps", lab::gigabytes_per_second(bytes, lab::median_or_nan(us) * 1e-3));
  }
  table.note("partial_sums reads the array once (4 B per float), divide reads and writes it (8 B per float)");
  return table;
}

// --- 3. The default stream -----------------------------------------------------

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
    table.add_row(case_name(*run))
        .set("wall_ms", run->wall_ms)
        .set("a_begin_ms", run->begin_ms[0])
        .set("a_end_ms", run->end_ms[0])
        .set("middle_begin_ms", run->begin_ms[1])
        .set("middle_end_ms", run->end_ms[1])
        .set("b_begin_ms", run->begin_ms[2])
        .set("b_end_ms", run->end_ms[2])
        .set("ran", what_ran(*run))
        .set("spin_ms", run->spin_ms)
        .set("serialised", serialised(*run))
        .set("concurrent", concurrent(*run));
  }
  table.note("times in ms after the earliest start of the three");
  return table;
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

// --- 5. Stream-ordered memory -----------------------------------------------------

lab::ResultTable temporaries_table(const MemoryRun& run) {
  lab::ResultTable table("temporaries",
                         "One normalisation with per-call temporaries (partial sums, total), behind queued work",
                         "temporaries from",
                         {{"queued_ms", "queued before", "ms", 1},
                          {"call_ms", "call returned after", "ms", 3},
                          {"call_percent_of_queued", "call / queued", "%", 1},
                          {"result", "result", "", 0}});
  for (const TemporariesRun* t : {&run.cuda_malloc, &run.stream_ordered}) {
    table.add_row(t->kind)
        .set("queued_ms", t->queued_ms)
        .set("call_ms", t->call_ms)
        .set("call_percent_of_queued", lab::percent_of(t->call_ms, t->queued_ms))
        .set("result", normalisation_passed(t->result) ? "correct" : "WRONG");
  }
  return table;
}

lab::ResultTable allocation_table(const MemoryRun& run) {
  const AllocationTimes& t = run.calls;
  lab::ResultTable table("allocation_calls", lab::format("Each call alone, %zu bytes (host time)", t.bytes), "call",
                         {{"median", "median", "us", 1},
                          {"min", "min", "us", 1},
                          {"max", "max", "us", 1},
                          {"count", "samples", "", 0},
                          {"percent_of_queued", "median / queued", "%", 1}});
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
    if (us->empty()) continue;
    lab::ResultTable::Row& row = table.add_row(name).samples(*us, "us");
    if (name.find(queued) != std::string::npos)
      row.set("percent_of_queued", lab::percent_of(lab::median_or_nan(*us) * 1e-3, t.queued_ms));
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
                          {"max", "max", "us", 1},
                          {"x_kept", "x UINT64_MAX", "", 1}});
  const double kept_us = lab::median_or_nan(t.keep_all.malloc_after_sync_us);
  for (const auto& [name, c] :
       {std::pair<const char*, const ThresholdCase*>{"0 (the default)", &t.release_all}, {"UINT64_MAX", &t.keep_all}}) {
    lab::ResultTable::Row& row = table.add_row(name);
    if (!c->malloc_after_sync_us.empty()) row.samples(c->malloc_after_sync_us, "us");
    row.set("reserved_after_sync_mib", static_cast<double>(c->reserved_after_sync) / lab::kMiB)
        .set("threshold", static_cast<double>(c->threshold));
    if (!c->malloc_after_sync_us.empty() && kept_us > 0)
      row.set("x_kept", lab::median_or_nan(c->malloc_after_sync_us) / kept_us);
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
  table.note(lab::format(
      "measured: no: the holding kernel timed out (is a tool serialising kernels?); 'its stream waited': an event "
      "recorded after the allocation had not completed while the freeing stream was held; '-' where not probed; "
      "the default pool's cudaMemPoolReuseFollowEventDependencies = %d, cudaMemPoolReuseAllowOpportunistic = %d, "
      "cudaMemPoolReuseAllowInternalDependencies = %d",
      r.follow_event_dependencies, r.allow_opportunistic, r.allow_internal_dependencies));
  return table;
}

}  // namespace ch04
