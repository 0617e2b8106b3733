// Chapter 04's checks replayed on the kept runs: the numbers the H200 (2026-12-02e) and the H100
// (run 5 of 2026-11-25) measured, rebuilt into the chapter's run structs and fed to the same
// functions the chapter calls, so each verdict and each computed column is pinned on both GPUs.
// Run 5 is of older code; its tables carry the same ids and the numbers these functions need.
//
// What the JSON cannot give back: CUPTI's intervals of section 2 (only their sums are kept, so the
// table "recorded" is not recomputed), each array's own result (only the verdict and the count of
// runs: arrays_correct is rebuilt from them), and whether the pool read back as before (only the
// check's own values: pool_restored is rebuilt from them). Those three replay the logic, not data.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"
#include "tables.hpp"
#include "vocabulary.hpp"

namespace {

const char* const kH200 = lab_test::kH200Run;
const char* const kH100 = lab_test::kH100Run;
const char* const kChapter = "ch04_streams";

double number(const nlohmann::json& row, const char* key) { return row.at(key).get<double>(); }

// A comparison of @p count values, @p wrong of them wrong.
lab::Comparison comparison(std::size_t count, std::size_t wrong) {
  lab::Comparison c;
  c.count = count;
  c.mismatches = wrong;
  return c;
}

// A normalisation check from what the run recorded for check @p id: its largest relative error and
// the sum of the result, over --n elements that all matched when the check passed.
ch04::NormalizeCheck normalize_check(const lab_test::KeptRun& run, const std::string& id) {
  const nlohmann::json& values = run.finding(id).at("values");
  ch04::NormalizeCheck c;
  c.elements = comparison(run.options().at("n").get<std::size_t>(), run.passed(id) ? 0 : 1);
  c.max_relative_error = values.at("max_relative_error").get<double>();
  c.sum = values.at("sum").get<double>();
  return c;
}

// --- section 2 -------------------------------------------------------------------

// The runs of one case: the totals are the table's samples; each run's arrays are all correct when
// the run's arrays_correct passed (the JSON keeps no array's own result).
std::vector<ch04::ArraysRun> arrays_runs(const lab_test::KeptRun& run, const std::string& name, int streams) {
  const nlohmann::json row = run.row("streams", name);
  std::vector<ch04::ArraysRun> runs;
  for (double total : lab_test::samples(row)) {
    ch04::ArraysRun r;
    r.streams = streams;
    r.total_ms = total;
    r.per_array_ms = {number(row, "per_array_ms")};  // the median run's median: all the JSON keeps
    const ch04::NormalizeCheck ok = normalize_check(run, "normalisation_correct");
    r.results.assign(static_cast<std::size_t>(run.options().at("arrays").get<int>()), ok);
    runs.push_back(r);
  }
  return runs;
}

// CUPTI's record of the one-stream run: its kernels, from the kernel table's durations, laid end to
// end (the JSON keeps each kernel's duration, not its start; the kernel table reads durations only).
ch04::ArraysRecording one_stream_recording(const lab_test::KeptRun& run) {
  ch04::ArraysRecording rec;
  rec.streams = 1;
  rec.recorded = run.row("recorded", "1 stream").at("recorded").get<bool>();
  rec.all_correct = run.passed("arrays_correct");
  double at_ns = 0;
  for (const nlohmann::json& row : run.rows("kernels")) {
    for (double us : lab_test::samples(row)) {
      lab::Interval k;
      k.kind = lab::Interval::Kind::kernel;
      k.name = row.at("name").get<std::string>();
      k.start_ns = at_ns;
      k.end_ns = at_ns + us * 1e3;
      at_ns = k.end_ns;
      rec.work.push_back(k);
    }
  }
  return rec;
}

ch04::StreamsComparison streams_comparison(const lab_test::KeptRun& run) {
  ch04::StreamsComparison c;
  c.n = run.options().at("n").get<std::int64_t>();
  c.arrays = run.options().at("arrays").get<int>();
  c.many = run.options().at("streams").get<int>();
  c.copy_engines = run.device().at("copy_engines").get<int>();
  c.one = arrays_runs(run, "1 stream", 1);
  c.lots = arrays_runs(run, std::to_string(c.many) + " streams", c.many);
  c.one_recorded = one_stream_recording(run);
  c.lots_recorded.streams = c.many;
  c.lots_recorded.recorded = run.row("recorded", std::to_string(c.many) + " streams").at("recorded").get<bool>();
  c.lots_recorded.all_correct = run.passed("arrays_correct");
  return c;
}

// --- section 3 -------------------------------------------------------------------

// One case, from its %globaltimer stamps. A kernel ran its full length when its stamps lie at least
// --spin-ms apart (to within the printed microsecond).
ch04::DefaultStreamRun default_stream_run(const lab_test::KeptRun& run, const std::string& build,
                                          const std::string& side, const std::string& middle) {
  ch04::DefaultStreamRun r;
  r.build = build;
  r.side_streams = side;
  r.middle = middle;
  const nlohmann::json row = run.row("default_stream", ch04::case_name(r));
  r.spin_ms = run.options().at("spin-ms").get<double>();
  r.wall_ms = number(row, "wall_ms");
  const char* const begins[] = {"a_begin_ms", "middle_begin_ms", "b_begin_ms"};
  const char* const ends[] = {"a_end_ms", "middle_end_ms", "b_end_ms"};
  r.all_ran = true;
  for (int k = 0; k < 3; ++k) {
    r.begin_ms[k] = number(row, begins[k]);
    r.end_ms[k] = number(row, ends[k]);
    r.all_ran = r.all_ran && r.end_ms[k] - r.begin_ms[k] >= r.spin_ms - 1e-6;
  }
  return r;
}

ch04::DefaultStreamCases default_stream_cases(const lab_test::KeptRun& run) {
  return {default_stream_run(run, "legacy", "blocking", "stream 0"),
          default_stream_run(run, "legacy", "non-blocking", "stream 0"),
          default_stream_run(run, "per-thread", "blocking", "stream 0"),
          default_stream_run(run, "per-thread", "blocking", "cudaStreamLegacy")};
}

// --- section 4 -------------------------------------------------------------------

ch04::RaceRun race_run(const lab_test::KeptRun& run) {
  const nlohmann::json none = run.row("race", "none");
  const nlohmann::json fixed = run.row("race", "cudaEventRecord + cudaStreamWaitEvent");
  ch04::RaceRun r;
  r.n = run.options().at("race-n").get<std::int64_t>();
  r.delay_ms = run.options().at("race-delay-ms").get<double>();
  r.runs = none.at("runs").get<int>();
  r.raced_wrong = none.at("wrong_runs").get<int>();
  r.fixed_wrong = fixed.at("wrong_runs").get<int>();
  r.raced_last = comparison(none.at("values").get<std::size_t>(), none.at("wrong_values_last").get<std::size_t>());
  r.fixed_last = comparison(fixed.at("values").get<std::size_t>(), fixed.at("wrong_values_last").get<std::size_t>());
  return r;
}

// --- section 5 -------------------------------------------------------------------

ch04::TemporariesRun temporaries_run(const lab_test::KeptRun& run, const std::string& kind, const std::string& id) {
  const nlohmann::json row = run.row("temporaries", kind);
  ch04::TemporariesRun t;
  t.kind = kind;
  t.queued_ms = number(row, "queued_ms");
  t.call_ms = number(row, "call_ms");
  t.result = normalize_check(run, id);
  return t;
}

ch04::MemoryRun memory_run(const lab_test::KeptRun& run) {
  ch04::MemoryRun m;
  m.cuda_malloc = temporaries_run(run, "cudaMalloc / cudaFree", "cuda_malloc_correct");
  m.stream_ordered = temporaries_run(run, "cudaMallocAsync / cudaFreeAsync", "stream_ordered_correct");

  ch04::AllocationTimes& t = m.calls;
  t.bytes = 2048;  // the partial sums: kMaxPartials floats (the table's title)
  t.queued_ms = run.options().at("queued-ms").get<double>();
  const std::string queued = lab::format(", behind %.1f ms of queued work", t.queued_ms);
  const auto calls = [&](const std::string& name) { return lab_test::samples(run.row("allocation_calls", name)); };
  t.malloc_idle_us = calls("cudaMalloc, idle GPU");
  t.free_idle_us = calls("cudaFree, idle GPU");
  t.malloc_async_idle_us = calls("cudaMallocAsync, idle stream");
  t.free_async_idle_us = calls("cudaFreeAsync, idle stream");
  t.malloc_queued_us = calls("cudaMalloc" + queued);
  t.free_queued_us = calls("cudaFree" + queued);
  t.malloc_async_queued_us = calls("cudaMallocAsync" + queued);
  t.free_async_queued_us = calls("cudaFreeAsync" + queued);

  ch04::ThresholdRun& th = m.threshold;
  th.bytes = run.options().at("pool-mib").get<std::size_t>() * 1024 * 1024;
  th.restored = run.finding("pool_restored").at("values").at("threshold_restored").get<bool>();
  const auto threshold = [&](const char* name) {
    const nlohmann::json row = run.row("release_threshold", name);
    ch04::ThresholdCase c;
    const double set = number(row, "threshold");  // UINT64_MAX is kept as the double 2^64
    c.threshold = set >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(set);
    c.reserved_after_sync = static_cast<std::uint64_t>(number(row, "reserved_after_sync_mib") * 1024 * 1024);
    c.malloc_after_sync_us = lab_test::samples(row);
    return c;
  };
  th.release_all = threshold("0 (the default)");
  th.keep_all = threshold("UINT64_MAX");

  ch04::ReuseRun& r = m.reuse;
  r.bytes = 2048;
  r.follow_event_dependencies = r.allow_opportunistic = r.allow_internal_dependencies = 1;  // both notes: = 1
  r.restored = run.finding("pool_restored").at("values").at("reuse_restored").get<bool>();
  const auto reuse = [&](const char* name) {
    const nlohmann::json row = run.row("reuse", name);
    ch04::ReuseCase c;
    c.name = name;
    c.measured = row.at("measured").get<bool>();
    c.same_address = row.value("same_address", false);
    c.checked_wait = row.contains("allocator_waited") && row.at("allocator_waited").is_boolean();
    c.allocator_waited = c.checked_wait && row.at("allocator_waited").get<bool>();
    return c;
  };
  r.same_stream = reuse("the freeing stream");
  r.other_stream = reuse("another stream, no event");
  r.other_stream_no_internal = reuse("another stream, no event, internal dependencies off");
  r.other_stream_event = reuse("another stream, after an event recorded after the free");
  return m;
}

// --- all of it ---------------------------------------------------------------------

// Every check the chapter makes from a run, in the order main.cu prints them.
std::vector<lab::Finding> replay(const lab_test::KeptRun& run) {
  std::vector<lab::Finding> all;
  const auto add = [&all](std::vector<lab::Finding> more) { all.insert(all.end(), more.begin(), more.end()); };
  add(ch04::first_checks({run.options().at("n").get<std::int64_t>(), normalize_check(run, "normalisation_correct")}));
  add(ch04::streams_checks(streams_comparison(run)));
  add(ch04::default_stream_checks(default_stream_cases(run)));
  add(ch04::race_checks(race_run(run)));
  add(ch04::memory_checks(memory_run(run)));
  return all;
}

// Each replayed check against the run's own: same id, same verdict, the same recorded numbers.
void check_against_run(const lab_test::KeptRun& run, const std::vector<lab::Finding>& replayed) {
  CHECK(replayed.size() == run.json().at("checks").size());
  for (const lab::Finding& f : replayed) {
    CAPTURE(f.id);
    const nlohmann::json& r = run.finding(f.id);
    CHECK(r.at("finding_id").get<std::string>() == f.id);
    CHECK(f.passed == r.at("passed").get<bool>());
    for (const auto& [key, value] : r.at("values").items()) {
      CAPTURE(key);
      if (value.is_number()) CHECK(f.value(key).number() == doctest::Approx(value.get<double>()).epsilon(1e-6));
      if (value.is_boolean()) CHECK(f.value(key).boolean() == value.get<bool>());
    }
  }
}

// A computed column against the run's, row by row (numbers to within rounding, texts and yes/no exactly).
void check_column(const lab::ResultTable& table, const lab_test::KeptRun& run, const std::string& key) {
  for (const nlohmann::json& row : run.rows(table.id())) {
    if (!row.contains(key) || row.at(key).is_null()) continue;
    const std::string name = row.at("name").get<std::string>();
    CAPTURE(name);
    CAPTURE(key);
    const lab::Value v = table.row(name).get(key);
    if (row.at(key).is_number()) CHECK(v.number() == doctest::Approx(row.at(key).get<double>()).epsilon(1e-6));
    if (row.at(key).is_string()) CHECK(v.text() == row.at(key).get<std::string>());
    if (row.at(key).is_boolean()) CHECK(v.boolean() == row.at(key).get<bool>());
  }
}

// The columns both runs printed, and the ones the new code adds, on @p run's numbers.
void check_columns(const lab_test::KeptRun& run) {
  const lab::ResultTable first =
      ch04::first_table({run.options().at("n").get<std::int64_t>(), normalize_check(run, "normalisation_correct")});
  for (const char* key : {"max_relative_error_ppm", "sum_error_ppm", "result"}) check_column(first, run, key);
  const ch04::StreamsComparison streams = streams_comparison(run);
  for (const char* key : {"median", "min", "max", "speedup"}) check_column(ch04::streams_table(streams), run, key);
  for (const char* key : {"count", "median", "min", "max", "gbps"}) check_column(ch04::kernel_table(streams), run, key);
  const lab::ResultTable defaults = ch04::default_stream_table(default_stream_cases(run));
  for (const char* key : {"ran", "serialised", "concurrent"}) check_column(defaults, run, key);
  const lab::ResultTable race = ch04::race_table(race_run(run));
  for (const char* key : {"runs", "wrong_runs", "wrong_values_last", "values"}) check_column(race, run, key);
  const ch04::MemoryRun memory = memory_run(run);
  check_column(ch04::temporaries_table(memory), run, "call_percent_of_queued");
  for (const char* key : {"median", "min", "max", "percent_of_queued"})
    check_column(ch04::allocation_table(memory), run, key);
  for (const char* key : {"median", "reserved_after_sync_mib", "x_kept"})
    check_column(ch04::threshold_table(memory), run, key);
  for (const char* key : {"measured", "same_address", "allocator_waited"})
    check_column(ch04::reuse_table(memory), run, key);
}

// Section 5 on one kept run: only cudaFree waited behind the queued work (the other three calls
// took under others_below_percent of it); memory the pool handed back cost x_kept times more to
// allocate again than memory it kept; the cudaMalloc / cudaFree call took call_percent of the queue.
void check_memory_columns(const lab_test::KeptRun& run, double others_below_percent, double x_kept,
                          double call_percent) {
  const ch04::MemoryRun memory = memory_run(run);
  const lab::ResultTable calls = ch04::allocation_table(memory);
  CHECK(lab_test::cell(calls, "cudaFree, behind 20.0 ms of queued work", "percent_of_queued") > 99.0);
  for (const char* name :
       {"cudaMalloc, behind 20.0 ms of queued work", "cudaMallocAsync, behind 20.0 ms of queued work",
        "cudaFreeAsync, behind 20.0 ms of queued work"}) {
    CAPTURE(name);
    CHECK(lab_test::cell(calls, name, "percent_of_queued") < others_below_percent);
  }
  CHECK(lab_test::cell(ch04::threshold_table(memory), "0 (the default)", "x_kept") ==
        doctest::Approx(x_kept).epsilon(1e-3));
  CHECK(lab_test::cell(ch04::temporaries_table(memory), "cudaMalloc / cudaFree", "call_percent_of_queued") ==
        doctest::Approx(call_percent).epsilon(1e-3));
}

}  // namespace

// --- H200, 2026-12-02e (the fifth run of that day, code at 37ba1db) -----------

TEST_CASE("ch04 replay, H200 2026-12-02e: every check the run printed, with its verdict and numbers") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> f = replay(run);
  check_against_run(run, f);
  for (const char* id : {"normalisation_correct", "arrays_correct", "spins_ran", "legacy_serialised", "fix_correct",
                         "cuda_malloc_correct", "stream_ordered_correct", "pool_restored"}) {
    CAPTURE(id);
    CHECK(lab_test::by_id(f, id).passed == run.passed(id));
    CHECK(lab_test::by_id(f, id).passed);
  }
  CHECK(lab_test::value(f, "arrays_correct", "runs_count") == 12);  // 5 + 5 timed runs and the 2 recorded
}

TEST_CASE("ch04 replay, H200 2026-12-02e: the tables' computed columns, and the ones the page quotes") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH200, kChapter);
  check_columns(run);
  // The page: 15.132 ms on one stream, 8.904 ms on ten (1.70x).
  const lab::ResultTable streams = ch04::streams_table(streams_comparison(run));
  CHECK(lab_test::cell(streams, "1 stream", "median") == doctest::Approx(15.132).epsilon(1e-3));
  CHECK(lab_test::cell(streams, "10 streams", "median") == doctest::Approx(8.904).epsilon(1e-3));
  CHECK(lab_test::cell(streams, "10 streams", "speedup") == doctest::Approx(1.700).epsilon(1e-3));
  // Section 5: only cudaFree waited behind the queued work (the other three 0.4 % of it or less);
  // memory the pool handed back cost 109.8x more to allocate again than memory it kept; the
  // cudaMalloc call took 103.9 % of the queue.
  check_memory_columns(run, 0.5, 109.8, 103.9);
}

// --- H100, run 5 of 2026-11-25: older code, the same tables -------------------

TEST_CASE("ch04 replay, H100 run 5: the new code gives the verdicts run 5 printed") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH100, kChapter);
  const std::vector<lab::Finding> f = replay(run);
  check_against_run(run, f);
  for (const char* id : {"normalisation_correct", "arrays_correct", "spins_ran", "legacy_serialised", "fix_correct",
                         "cuda_malloc_correct", "stream_ordered_correct", "pool_restored"}) {
    CAPTURE(id);
    CHECK(lab_test::by_id(f, id).passed);
  }
}

TEST_CASE("ch04 replay, H100 run 5: its columns, and the ones it did not print, on its numbers") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH100, kChapter);
  check_columns(run);
  // Columns the new code adds: only cudaFree waited behind the queued work (page, section 5), and
  // memory the pool handed back cost 145.8x more to allocate again than memory it kept.
  check_memory_columns(run, 2.0, 145.8, 104.1);
}
