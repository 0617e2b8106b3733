// Chapter 04's checks and tables on hand-made data: every branch of every check in
// chapters/04_streams/checks.hpp (pinned by id, verdict and numbers, not by
// wording), the tables' derived columns, and the options' rule and memory need. No GPU.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../chapters/04_streams/options.hpp"
#include "checks.hpp"
#include "command_line.hpp"
#include "program.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

using namespace lab_test;  // by_id, value, cell, correct, wrong

ch04::NormalizeCheck good_check() {
  ch04::NormalizeCheck c;
  c.elements = correct();
  c.max_relative_error = 1.2e-7;
  c.sum = 1.0000001;
  return c;
}

std::vector<double> around(double value, int count = 5) {
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) samples.push_back(value * (1.0 + 0.01 * (i - count / 2)));
  return samples;
}

// A copy or kernel from @p start_ms to @p end_ms: 'H' host to device, 'D' device to host, 'K' a kernel.
lab::Interval work(char symbol, double start_ms, double end_ms, const std::string& name = "") {
  lab::Interval i;
  i.kind = symbol == 'K' ? lab::Interval::Kind::kernel : lab::Interval::Kind::memcpy;
  i.direction = symbol == 'H' ? "HtoD" : (symbol == 'D' ? "DtoH" : "");
  i.name = name.empty() ? std::string(1, symbol) : name;
  i.start_ns = start_ms * 1e6;
  i.end_ns = end_ms * 1e6;
  return i;
}

ch04::ArraysRun arrays_run(int streams, double total_ms) {
  ch04::ArraysRun run;
  run.streams = streams;
  run.total_ms = total_ms;
  run.per_array_ms = {total_ms / 10, total_ms / 5};
  run.results = {good_check(), good_check()};
  return run;
}

ch04::ArraysRecording recording(int streams, std::vector<lab::Interval> intervals) {
  ch04::ArraysRecording r;
  r.streams = streams;
  r.recorded = true;
  r.all_correct = true;
  r.work = std::move(intervals);
  return r;
}

// Ten streams that overlap well: five copies in back to back (0 to 5 ms), each
// kernel and copy out beside the next copy in.
std::vector<lab::Interval> overlapping() {
  std::vector<lab::Interval> w;
  for (int i = 0; i < 5; ++i) w.push_back(work('H', i, i + 1));
  for (int i = 0; i < 4; ++i) {
    w.push_back(work('K', i + 1, i + 1.1));
    w.push_back(work('D', i + 1.1, i + 2));
  }
  return w;
}

// Nothing overlaps usefully: two copies in at once, the kernel alone, the copy out alone.
std::vector<lab::Interval> serial() {
  return {work('H', 0, 1), work('H', 0.5, 1.5), work('K', 1.5, 2), work('D', 2, 3)};
}

ch04::StreamsComparison comparison(double one_ms, double lots_ms, std::vector<lab::Interval> lots_work) {
  ch04::StreamsComparison run;
  run.n = 1000;
  run.arrays = 2;
  run.many = 10;
  run.copy_engines = 3;
  for (int i = 0; i < 3; ++i) {
    run.one.push_back(arrays_run(1, one_ms + i * 0.01));
    run.lots.push_back(arrays_run(10, lots_ms + i * 0.01));
  }
  run.one_recorded = recording(1, {work('H', 0, 1, "copy"), work('K', 1, 1.01, "_Z12partial_sumsPKfmPf"),
                                   work('K', 1.01, 1.02, "_Z12sum_partialsPKfiPf"),
                                   work('K', 1.02, 1.04, "_Z6dividePfmPKf"), work('D', 1.04, 2, "copy")});
  run.lots_recorded = recording(10, std::move(lots_work));
  return run;
}

}  // namespace

// --- options ------------------------------------------------------------------

TEST_CASE("options: the streams rule, the table's parsing, the memory need") {
  ch04::Options o;
  CHECK(ch04::streams_rule(o).empty());
  o.arrays = 4;
  o.streams = 8;
  CHECK_FALSE(ch04::streams_rule(o).empty());

  ch04::Options parsed;
  lab::Options table("ch04_streams", "test");
  ch04::add_options(table, parsed);
  const char* too_many[] = {"ch04_streams", "--arrays", "4", "--streams", "8"};
  CHECK_THROWS_AS(table.parse(5, too_many), lab::UsageError);
  ch04::Options sized;
  lab::Options again("ch04_streams", "test");
  ch04::add_options(again, sized);
  const char* sizes[] = {"ch04_streams", "--n", "64Mi", "--race-n", "1024"};
  CHECK(again.parse(5, sizes) == lab::Options::Parsed::run);
  CHECK(sized.n == std::int64_t{64} << 20);
  CHECK(sized.race_n == 1024);

  const lab::MemoryNeed need = ch04::memory_need(ch04::Options{});  // 10 x 10M floats, 256 MiB, 1Mi race floats
  CHECK(need.device_bytes == doctest::Approx(4e8 + 256.0 * 1024 * 1024 + 3.0 * 4 * 1024 * 1024));
  CHECK(need.host_bytes == doctest::Approx(4 * 4e8 + 3.0 * 4 * 1024 * 1024));
  CHECK(need.what == "--arrays 10 x --n 10M, --pool-mib 256 and --race-n 1Mi");
}

// --- 1 ------------------------------------------------------------------------

TEST_CASE("section 1: a correct normalisation passes and reports its relative error") {
  ch04::FirstRun run;
  run.n = 1024;
  run.result = good_check();
  const lab::ResultTable table = ch04::first_table(run);
  CHECK(table.id() == "normalisation");
  CHECK(cell(table, "array 0", "max_relative_error_ppm") == doctest::Approx(0.12));
  CHECK(cell(table, "array 0", "tolerance_ppm") == doctest::Approx(10.0));
  CHECK(table.row("array 0").get("result").text() == "correct");
  const std::vector<lab::Finding> findings = ch04::first_checks(run);
  CHECK(by_id(findings, "normalisation_correct").passed);
  CHECK(by_id(findings, "normalisation_correct").kind == lab::Finding::Kind::correctness);
  CHECK(value(findings, "normalisation_correct", "max_relative_error") == doctest::Approx(1.2e-7));
}

TEST_CASE("section 1: a wrong element or a sum off by more than the tolerance fails") {
  ch04::FirstRun run;
  run.n = 1024;
  run.result = good_check();
  run.result.elements = wrong();
  CHECK_FALSE(by_id(ch04::first_checks(run), "normalisation_correct").passed);
  run.result = good_check();
  run.result.sum = 1.0 + 2 * ch04::kNormalizeTolerance;
  CHECK_FALSE(ch04::normalisation_passed(run.result));
  CHECK(ch04::first_table(run).row("array 0").get("result").text() == "WRONG");
}

// --- 2 ------------------------------------------------------------------------

TEST_CASE("section 2: the events' totals, what CUPTI recorded, and each kernel's median") {
  const ch04::StreamsComparison run = comparison(15.0, 9.0, overlapping());
  const lab::ResultTable table = ch04::streams_table(run);
  CHECK(table.id() == "streams");
  CHECK(cell(table, "1 stream", "median") == doctest::Approx(15.01));
  CHECK(cell(table, "10 streams", "speedup") == doctest::Approx(15.01 / 9.01));
  CHECK(cell(table, "10 streams", "per_array_ms") == doctest::Approx(9.01 * 0.15));  // median of 0.901 and 1.802
  const lab::ResultTable recorded = ch04::recorded_table(run);
  CHECK(recorded.id() == "recorded");
  CHECK(cell(recorded, "10 streams", "copy_in_busy_ms") == doctest::Approx(5.0));
  CHECK(cell(recorded, "10 streams", "span_ms") == doctest::Approx(5.0));
  CHECK(cell(recorded, "10 streams", "in_with_out_ms") == doctest::Approx(3.6));
  CHECK(cell(recorded, "10 streams", "copies_with_kernels_ms") == doctest::Approx(0.4));
  CHECK(cell(recorded, "10 streams", "in_with_in_ms") == doctest::Approx(0.0));
  CHECK(cell(recorded, "10 streams", "out_with_out_ms") == doctest::Approx(0.0));
  CHECK(cell(recorded, "1 stream", "in_with_out_ms") == doctest::Approx(0.0));
  CHECK(cell(recorded, "1 stream", "copy_in_gbps") == doctest::Approx(4.0 * 2000 / 1e-3 / 1e9));
  const lab::ResultTable kernels = ch04::kernel_table(run);
  CHECK(kernels.id() == "kernels");
  CHECK(cell(kernels, "partial_sums", "median") == doctest::Approx(10.0));
  CHECK(cell(kernels, "divide", "gbps") == doctest::Approx(8.0 * 1000 / 20e-6 / 1e9));
  CHECK(kernels.row("sum_partials").get("gbps").is_none());

  const std::vector<lab::Finding> findings = ch04::streams_checks(run);
  REQUIRE(findings.size() == 1);
  CHECK(by_id(findings, "arrays_correct").passed);
  CHECK(value(findings, "arrays_correct", "runs_count") == 8);
}

TEST_CASE("section 2: copies in one direction at once, and the kernels beside no copy, in the recorded table") {
  const ch04::StreamsComparison run = comparison(9.0, 15.0, serial());
  const lab::ResultTable recorded = ch04::recorded_table(run);
  CHECK(cell(recorded, "10 streams", "in_with_in_ms") == doctest::Approx(0.5));
  CHECK(cell(recorded, "10 streams", "in_with_out_ms") == doctest::Approx(0.0));
  CHECK(cell(recorded, "10 streams", "copies_with_kernels_ms") == doctest::Approx(0.0));
  CHECK(cell(recorded, "10 streams", "copy_in_busy_ms") == doctest::Approx(1.5));
  CHECK(cell(ch04::streams_table(run), "10 streams", "speedup") == doctest::Approx(9.01 / 15.01));
}

TEST_CASE("section 2: not recorded, or a recording with dropped records: '-' in the tables, the record skipped") {
  ch04::StreamsComparison run = comparison(10.0, 10.1, overlapping());
  run.lots_recorded = ch04::ArraysRecording{};
  run.lots_recorded.streams = 10;
  run.lots_recorded.why_not = "this build has no CUPTI";
  std::vector<lab::Finding> findings = ch04::streams_checks(run);
  CHECK(by_id(findings, "recorded").id == "recorded.skipped");
  CHECK(by_id(findings, "arrays_correct").passed);
  CHECK(ch04::recorded_table(run).row("10 streams").get("span_ms").is_none());
  CHECK(ch04::recorded_table(run).row("10 streams").get("why_not").text() == "this build has no CUPTI");
  run.lots_recorded = recording(10, overlapping());
  run.lots_recorded.dropped = 4;
  CHECK(by_id(ch04::streams_checks(run), "recorded").id == "recorded.skipped");
  CHECK_FALSE(ch04::recorded_table(run).row("10 streams").get("recorded").boolean());
  run.lots_recorded.dropped = 0;
  run.one_recorded = ch04::ArraysRecording{};
  run.one_recorded.why_not = "a tool holds CUPTI";
  CHECK(by_id(ch04::streams_checks(run), "recorded").id == "recorded.skipped");
  CHECK(ch04::kernel_table(run).rows().empty());
}

TEST_CASE("section 2: the whole runs from the earliest begin event, which need not be begin[0]") {
  // Each begin and end in ms after begin[0]; array 2's begin ran 0.03 ms before it.
  CHECK(lab::span_ms({0.0, 0.01, -0.03}, {0.20, 0.25, 0.18}) == doctest::Approx(0.28));
  CHECK(lab::span_ms({0.0, 0.01, 0.02}, {0.20, 0.25, 0.18}) == doctest::Approx(0.25));  // begin[0] first
  CHECK(lab::span_ms({}, {}) == doctest::Approx(0.0));
}

TEST_CASE("section 2: a wrong array in a timed or in a recorded run fails the correctness check") {
  ch04::StreamsComparison run = comparison(15.0, 9.0, overlapping());
  run.lots[1].results[1].elements = wrong();
  const std::vector<lab::Finding> timed = ch04::streams_checks(run);
  CHECK_FALSE(by_id(timed, "arrays_correct").passed);
  CHECK(value(timed, "arrays_correct", "wrong_count") == 1);
  CHECK(value(timed, "arrays_correct", "runs_count") == 8);
  run = comparison(15.0, 9.0, overlapping());
  run.one_recorded.all_correct = false;
  CHECK_FALSE(by_id(ch04::streams_checks(run), "arrays_correct").passed);
  run = comparison(15.0, 9.0, overlapping());
  run.one[0].results.clear();  // a run with no array checked is not a correct one
  CHECK_FALSE(by_id(ch04::streams_checks(run), "arrays_correct").passed);
  CHECK_FALSE(ch04::all_arrays_correct(ch04::ArraysRun{}));
}

// --- 3 ------------------------------------------------------------------------

namespace {

ch04::DefaultStreamRun spins(const std::string& build, bool one_after_another) {
  ch04::DefaultStreamRun run;
  run.build = build;
  run.side_streams = "blocking";
  run.middle = "stream 0";
  run.spin_ms = 10;
  run.all_ran = true;
  for (int k = 0; k < 3; ++k) {
    run.begin_ms[k] = one_after_another ? 10.0 * k : 0.0;
    run.end_ms[k] = run.begin_ms[k] + 10.0;
  }
  run.wall_ms = run.end_ms[2];
  return run;
}

ch04::DefaultStreamCases as_documented() {
  return {spins("legacy", true), spins("legacy", false), spins("per-thread", false), spins("per-thread", true)};
}

}  // namespace

TEST_CASE("section 3: serialised, concurrent and partly overlapped kernels are told apart") {
  const ch04::DefaultStreamRun serial_run = spins("legacy", true);
  CHECK(ch04::serialised(serial_run));
  CHECK_FALSE(ch04::concurrent(serial_run));
  ch04::DefaultStreamRun partly = serial_run;
  partly.begin_ms[1] = 5;  // the middle starts before A ends, but B starts after A ends
  partly.end_ms[1] = 15;
  CHECK_FALSE(ch04::serialised(partly));
  CHECK_FALSE(ch04::concurrent(partly));
  const lab::ResultTable table = ch04::default_stream_table({serial_run, partly, serial_run, serial_run});
  CHECK(table.id() == "default_stream");
  CHECK(table.rows()[1].get("ran").text() == "partly overlapped");
  CHECK(cell(table, ch04::case_name(serial_run), "b_begin_ms") == doctest::Approx(20.0));
}

TEST_CASE("section 3: the legacy stream serialised and the others ran at once") {
  const std::vector<lab::Finding> findings = ch04::default_stream_checks(as_documented());
  CHECK(by_id(findings, "spins_ran").passed);
  CHECK(by_id(findings, "legacy_serialised").passed);
  CHECK(by_id(findings, "legacy_serialised").kind == lab::Finding::Kind::timing);
  CHECK(value(findings, "legacy_serialised", "legacy_wall_ms") == doctest::Approx(30.0));
  CHECK(findings.size() == 2);  // what the other two cases did is in the table
  CHECK(ch04::default_stream_table(as_documented()).rows()[1].get("ran").text() == "at once");
}

TEST_CASE("section 3: a kernel cut short, the legacy stream overlapping, the others serialised") {
  ch04::DefaultStreamCases cases = as_documented();
  cases.legacy = spins("legacy", false);
  cases.non_blocking = spins("legacy", true);
  cases.per_thread = spins("per-thread", true);
  cases.per_thread.all_ran = false;
  const std::vector<lab::Finding> findings = ch04::default_stream_checks(cases);
  CHECK_FALSE(by_id(findings, "spins_ran").passed);
  CHECK(value(findings, "spins_ran", "short_cases_count") == 1);
  CHECK(value(findings, "spins_ran", "spin_ms") == doctest::Approx(10.0));
  CHECK_FALSE(by_id(findings, "legacy_serialised").passed);
  CHECK(ch04::default_stream_table(cases).rows()[1].get("ran").text() == "one after another");
}

// --- 4 ------------------------------------------------------------------------

TEST_CASE("section 4: the race showed and the event fixed it; or the race hid and the fix failed") {
  ch04::RaceRun run;
  run.n = 1024;
  run.delay_ms = 5;
  run.runs = 20;
  run.raced_wrong = 20;
  run.raced_last = wrong();
  run.fixed_last = correct();
  std::vector<lab::Finding> findings = ch04::race_checks(run);
  CHECK(by_id(findings, "fix_correct").passed);
  CHECK(findings.size() == 1);  // whether the race showed is in the table
  const lab::ResultTable table = ch04::race_table(run);
  CHECK(table.id() == "race");
  CHECK(cell(table, "none", "wrong_values_last") == doctest::Approx(3));
  CHECK(cell(table, "cudaEventRecord + cudaStreamWaitEvent", "wrong_runs") == 0);
  CHECK(cell(table, "none", "wrong_runs") == 20);

  run.raced_wrong = 0;
  run.fixed_wrong = 1;
  run.fixed_last = wrong();
  findings = ch04::race_checks(run);
  CHECK_FALSE(by_id(findings, "fix_correct").passed);
  CHECK(value(findings, "fix_correct", "wrong_runs_count") == 1);
  CHECK(cell(ch04::race_table(run), "none", "wrong_runs") == 0);
}

// --- 5 ------------------------------------------------------------------------

namespace {

ch04::MemoryRun memory_as_expected() {
  ch04::MemoryRun run;
  run.cuda_malloc = {"cudaMalloc / cudaFree", 20.0, 20.5, good_check()};
  run.stream_ordered = {"cudaMallocAsync / cudaFreeAsync", 20.0, 0.05, good_check()};
  ch04::AllocationTimes& t = run.calls;
  t.bytes = 2048;
  t.queued_ms = 20.0;
  t.malloc_idle_us = around(3.0);
  t.free_idle_us = around(4.0);
  t.malloc_async_idle_us = around(0.5);
  t.free_async_idle_us = around(0.5);
  t.malloc_queued_us = around(3.0, 3);
  t.free_queued_us = around(19'900.0, 3);
  t.malloc_async_queued_us = around(0.6, 3);
  t.free_async_queued_us = around(0.6, 3);
  run.threshold.bytes = std::size_t{256} << 20;
  run.threshold.restored = true;
  run.threshold.release_all = {0, 0, around(300.0)};
  run.threshold.keep_all = {std::numeric_limits<std::uint64_t>::max(), std::uint64_t{256} << 20, around(2.0)};
  ch04::ReuseRun& r = run.reuse;
  r.bytes = 2048;
  r.follow_event_dependencies = r.allow_opportunistic = r.allow_internal_dependencies = 1;
  r.restored = true;
  r.same_stream = {"the freeing stream", true, true, false, false};
  r.other_stream = {"another stream, no event", true, true, true, true};
  r.other_stream_no_internal = {"another stream, no event, internal dependencies off", true, false, true, false};
  r.other_stream_event = {"another stream, after an event", true, true, false, false};
  return run;
}

}  // namespace

TEST_CASE("section 5: both kinds of temporaries correct, the pool restored; each call against the queued work") {
  const ch04::MemoryRun run = memory_as_expected();
  const std::vector<lab::Finding> findings = ch04::memory_checks(run);
  REQUIRE(findings.size() == 3);
  CHECK(by_id(findings, "cuda_malloc_correct").passed);
  CHECK(by_id(findings, "stream_ordered_correct").passed);
  CHECK(value(findings, "stream_ordered_correct", "max_relative_error") == doctest::Approx(1.2e-7));
  CHECK(by_id(findings, "pool_restored").passed);

  const lab::ResultTable temporaries = ch04::temporaries_table(run);
  CHECK(temporaries.id() == "temporaries");
  CHECK(temporaries.row("cudaMalloc / cudaFree").get("result").text() == "correct");
  CHECK(cell(temporaries, "cudaMalloc / cudaFree", "call_percent_of_queued") == doctest::Approx(102.5));
  CHECK(cell(temporaries, "cudaMallocAsync / cudaFreeAsync", "call_percent_of_queued") == doctest::Approx(0.25));
  const lab::ResultTable calls = ch04::allocation_table(run);
  CHECK(calls.id() == "allocation_calls");
  CHECK(cell(calls, "cudaFree, idle GPU", "median") == doctest::Approx(4.0));
  CHECK(calls.row("cudaFree, idle GPU").get("percent_of_queued").is_none());
  CHECK(cell(calls, "cudaFree, behind 20.0 ms of queued work", "percent_of_queued") == doctest::Approx(99.5));
  CHECK(cell(calls, "cudaMalloc, behind 20.0 ms of queued work", "percent_of_queued") == doctest::Approx(0.015));
  CHECK(calls.rows().size() == 8);
  const lab::ResultTable threshold = ch04::threshold_table(run);
  CHECK(threshold.id() == "release_threshold");
  CHECK(cell(threshold, "UINT64_MAX", "reserved_after_sync_mib") == doctest::Approx(256.0));
  CHECK(cell(threshold, "0 (the default)", "x_kept") == doctest::Approx(150.0));
  CHECK(cell(threshold, "UINT64_MAX", "x_kept") == doctest::Approx(1.0));
  const lab::ResultTable reuse = ch04::reuse_table(run);
  CHECK(reuse.id() == "reuse");
  CHECK(reuse.row("the freeing stream").get("measured").boolean());
  CHECK(reuse.row("the freeing stream").get("same_address").boolean());
  CHECK(reuse.row("the freeing stream").get("allocator_waited").is_none());
  CHECK(reuse.row("another stream, no event").get("allocator_waited").boolean());
  CHECK_FALSE(reuse.row("another stream, no event, internal dependencies off").get("same_address").boolean());
}

TEST_CASE("section 5: a wrong result with either kind, an attribute not restored, an unmeasured case, no samples") {
  ch04::MemoryRun run = memory_as_expected();
  run.stream_ordered.result.elements = wrong();
  run.cuda_malloc.result.sum = 1.0 + 2 * ch04::kNormalizeTolerance;
  run.reuse.restored = false;
  run.reuse.same_stream.measured = false;
  std::vector<lab::Finding> findings = ch04::memory_checks(run);
  CHECK_FALSE(by_id(findings, "stream_ordered_correct").passed);
  CHECK_FALSE(by_id(findings, "cuda_malloc_correct").passed);
  CHECK(value(findings, "cuda_malloc_correct", "sum") == doctest::Approx(1.0 + 2 * ch04::kNormalizeTolerance));
  CHECK_FALSE(by_id(findings, "pool_restored").passed);
  CHECK_FALSE(by_id(findings, "pool_restored").value("reuse_restored").boolean());
  run.reuse.restored = true;
  run.threshold.restored = false;
  CHECK_FALSE(by_id(ch04::memory_checks(run), "pool_restored").passed);
  const lab::ResultTable reuse = ch04::reuse_table(run);
  CHECK_FALSE(reuse.row("the freeing stream").get("measured").boolean());
  CHECK(reuse.row("the freeing stream").get("same_address").is_none());

  run.calls.malloc_queued_us.clear();  // a call not sampled has no row
  CHECK(ch04::allocation_table(run).rows().size() == 7);
  run.threshold.keep_all.malloc_after_sync_us.clear();  // nothing to divide by
  const lab::ResultTable threshold = ch04::threshold_table(run);
  CHECK(threshold.row("0 (the default)").get("x_kept").is_none());
  CHECK(threshold.row("UINT64_MAX").get("median").is_none());
}
