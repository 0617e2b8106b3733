// Chapter 04's findings on hand-made data: every branch of every function in
// chapters/04_streams/findings.hpp, and the memory check. No GPU.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "findings.hpp"
#include "support/findings_support.hpp"

namespace {

using namespace lab_test;  // contains, finding, cell, correct, wrong

// Each finding named (by its start) in the first of a pair says the second.
void expect_texts(const std::vector<lab::Finding>& findings,
                  const std::vector<std::pair<std::string, std::string>>& expected) {
  for (const auto& [name, part] : expected) {
    CAPTURE(name);
    CHECK(contains(finding(findings, name).text, part));
  }
}

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
                                   work('K', 1.01, 1.02, "_Z12sum_partialsPKfiPf"), work('K', 1.02, 1.04, "_Z6dividePfmPKf"),
                                   work('D', 1.04, 2, "copy")});
  run.lots_recorded = recording(10, std::move(lots_work));
  return run;
}

}  // namespace

// --- 1 ------------------------------------------------------------------------

TEST_CASE("section 1: a correct normalisation passes and reports its relative error") {
  ch04::FirstRun run;
  run.n = 1024;
  run.result = good_check();
  const lab::ResultTable table = ch04::first_table(run);
  CHECK(cell(table, "array 0", "max_relative_error_ppm") == doctest::Approx(0.12));
  CHECK(cell(table, "array 0", "tolerance_ppm") == doctest::Approx(10.0));
  CHECK(table.row("array 0").get("result").text() == "correct");
  const lab::Finding f = ch04::first_findings(run).front();
  CHECK(f.passed);
  CHECK(f.kind == lab::Finding::Kind::correctness);
  CHECK(contains(f.text, "largest relative error 1.20e-07"));
}

TEST_CASE("section 1: a wrong element or a sum off by more than the tolerance fails") {
  ch04::FirstRun run;
  run.n = 1024;
  run.result = good_check();
  run.result.elements = wrong();
  CHECK_FALSE(ch04::first_findings(run).front().passed);
  run.result = good_check();
  run.result.sum = 1.0 + 2 * ch04::kNormalizeTolerance;
  CHECK_FALSE(run.result.passed());
  CHECK(ch04::first_table(run).row("array 0").get("result").text() == "WRONG");
}

TEST_CASE("the memory check: fits, or names what does not") {
  CHECK(ch04::check_memory(1000, 10, 256, std::size_t{8} << 30, std::size_t{8} << 30).empty());
  const std::string message = ch04::check_memory(std::int64_t{1} << 30, 64, 256, std::size_t{8} << 30, std::size_t{1} << 40);
  CHECK(contains(message, "GiB of device memory"));
  CHECK(contains(message, "--pool-mib 256"));
}

// --- 2 ------------------------------------------------------------------------

TEST_CASE("section 2: ten streams faster, copies overlapping, kernels hidden, the copies bound the time") {
  const ch04::StreamsComparison run = comparison(15.0, 9.0, overlapping());
  const lab::ResultTable table = ch04::streams_table(run);
  CHECK(cell(table, "1 stream", "median") == doctest::Approx(15.01));
  CHECK(cell(table, "10 streams", "speedup") == doctest::Approx(15.01 / 9.01));
  CHECK(cell(table, "10 streams", "per_array_ms") == doctest::Approx(9.01 * 0.15));  // median of 0.901 and 1.802
  const lab::ResultTable recorded = ch04::recorded_table(run);
  CHECK(cell(recorded, "10 streams", "copy_in_busy_ms") == doctest::Approx(5.0));
  CHECK(cell(recorded, "10 streams", "span_ms") == doctest::Approx(5.0));
  CHECK(cell(recorded, "10 streams", "in_with_out_ms") == doctest::Approx(3.6));
  CHECK(cell(recorded, "10 streams", "copies_with_kernels_ms") == doctest::Approx(0.4));
  CHECK(cell(recorded, "1 stream", "in_with_out_ms") == doctest::Approx(0.0));
  CHECK(cell(recorded, "1 stream", "copy_in_gbps") == doctest::Approx(4.0 * 2000 / 1e-3 / 1e9));
  const lab::ResultTable kernels = ch04::kernel_table(run);
  CHECK(cell(kernels, "partial_sums", "median") == doctest::Approx(10.0));
  CHECK(cell(kernels, "divide", "gbps") == doctest::Approx(8.0 * 1000 / 20e-6 / 1e9));
  CHECK(kernels.row("sum_partials").get("gbps").is_none());

  const std::vector<lab::Finding> findings = ch04::streams_findings(run);
  CHECK(finding(findings, "every array").passed);
  expect_texts(findings, {{"10 streams against 1", "x faster"},
                          {"copies in both directions", "a copy host to device ran beside"},
                          {"copies in both directions", "asyncEngineCount = 3"},
                          {"copies in one direction", "no two copies"},
                          {"the kernels", "hid inside the copies"}});
  CHECK(contains(finding(findings, "what bounds the time").text, "the copies bound it"));
}

TEST_CASE("section 2: ten streams slower, nothing overlapping, the kernels alone") {
  const ch04::StreamsComparison run = comparison(9.0, 15.0, serial());
  const std::vector<lab::Finding> findings = ch04::streams_findings(run);
  expect_texts(findings, {{"10 streams against 1", "x slower"},
                          {"copies in both directions", "only"},
                          {"copies in one direction", "overlapped each other for 0.500 ms"},
                          {"the kernels", "for only 0 %"}});
  CHECK(contains(finding(findings, "what bounds the time").text, "something other than the copies"));
}

TEST_CASE("section 2: no real difference; not recorded; a recording with dropped records") {
  ch04::StreamsComparison run = comparison(10.0, 10.1, overlapping());
  CHECK(contains(finding(ch04::streams_findings(run), "10 streams against 1").text, "no real difference"));
  run.lots_recorded = ch04::ArraysRecording{};
  run.lots_recorded.streams = 10;
  run.lots_recorded.why_not = "this build has no CUPTI";
  std::vector<lab::Finding> findings = ch04::streams_findings(run);
  CHECK(contains(finding(findings, "what overlapped").text, "not recorded (this build has no CUPTI)"));
  CHECK(finding(findings, "what overlapped").kind == lab::Finding::Kind::observation);
  CHECK(ch04::recorded_table(run).row("10 streams").get("span_ms").is_none());
  run.lots_recorded = recording(10, overlapping());
  run.lots_recorded.dropped = 4;
  CHECK(contains(finding(ch04::streams_findings(run), "what overlapped").text, "CUPTI dropped 4 records"));
  run.one_recorded = ch04::ArraysRecording{};
  run.one_recorded.why_not = "a tool holds CUPTI";
  CHECK(ch04::kernel_table(run).rows().empty());
}

TEST_CASE("section 2: a wrong array in a timed or in a recorded run fails the correctness check") {
  ch04::StreamsComparison run = comparison(15.0, 9.0, overlapping());
  run.lots[1].results[1].elements = wrong();
  const lab::Finding timed = finding(ch04::streams_findings(run), "every array");
  CHECK_FALSE(timed.passed);
  CHECK(contains(timed.text, "1 of 8 runs"));
  run = comparison(15.0, 9.0, overlapping());
  run.one_recorded.all_correct = false;
  CHECK_FALSE(finding(ch04::streams_findings(run), "every array").passed);
  CHECK_FALSE(arrays_run(1, 1.0).results.empty());
  CHECK_FALSE(ch04::ArraysRun{}.all_correct());
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
  CHECK(serial_run.serialised());
  CHECK_FALSE(serial_run.concurrent());
  ch04::DefaultStreamRun partly = serial_run;
  partly.begin_ms[1] = 5;  // the middle starts before A ends, but B starts after A ends
  partly.end_ms[1] = 15;
  CHECK_FALSE(partly.serialised());
  CHECK_FALSE(partly.concurrent());
  const lab::ResultTable table = ch04::default_stream_table({serial_run, partly, serial_run, serial_run});
  CHECK(table.rows()[1].get("ran").text() == "partly overlapped");
  CHECK(cell(table, serial_run.description(), "b_begin_ms") == doctest::Approx(20.0));
}

TEST_CASE("section 3: the legacy stream serialised and the others ran at once") {
  const std::vector<lab::Finding> findings = ch04::default_stream_findings(as_documented());
  CHECK(finding(findings, "every spin kernel").passed);
  const lab::Finding legacy = finding(findings, "the legacy default stream serialised");
  CHECK(legacy.passed);
  CHECK(legacy.kind == lab::Finding::Kind::timing);
  CHECK(contains(finding(findings, "non-blocking A/B").text, "it happened here"));
  CHECK(contains(finding(findings, "per-thread stream 0").text, "it happened here"));
}

TEST_CASE("section 3: a kernel cut short, the legacy stream overlapping, the others serialised") {
  ch04::DefaultStreamCases cases = as_documented();
  cases.per_thread.all_ran = false;
  cases.legacy = spins("legacy", false);
  cases.non_blocking = spins("legacy", true);
  cases.per_thread = spins("per-thread", true);
  cases.per_thread.all_ran = false;
  const std::vector<lab::Finding> findings = ch04::default_stream_findings(cases);
  CHECK_FALSE(finding(findings, "every spin kernel").passed);
  CHECK_FALSE(finding(findings, "the legacy default stream serialised").passed);
  CHECK(contains(finding(findings, "non-blocking A/B").text, "but they did not here"));
  CHECK(contains(finding(findings, "per-thread stream 0").text, "ran one after another"));
  CHECK_FALSE(ch04::default_stream_background().empty());
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
  std::vector<lab::Finding> findings = ch04::race_findings(run);
  CHECK(finding(findings, "the consumer that waits").passed);
  CHECK(contains(finding(findings, "without an ordering").text, "in 20 of 20 runs"));
  CHECK(cell(ch04::race_table(run), "none", "wrong_values_last") == doctest::Approx(3));

  run.raced_wrong = 0;
  run.fixed_wrong = 1;
  run.fixed_last = wrong();
  findings = ch04::race_findings(run);
  CHECK_FALSE(finding(findings, "the consumer that waits").passed);
  CHECK(contains(finding(findings, "without an ordering").text, "the timing hid it"));
  CHECK(ch04::race_background().size() == 2);
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

TEST_CASE("section 5: cudaFree waits, the stream-ordered calls do not, the pool behaves as set") {
  const ch04::MemoryRun run = memory_as_expected();
  const std::vector<lab::Finding> findings = ch04::memory_findings(run);
  CHECK(finding(findings, "normalisation correct with cudaMalloc").passed);
  CHECK(finding(findings, "normalisation correct with cudaMallocAsync").passed);
  CHECK(finding(findings, "the pool's attributes were restored").passed);
  expect_texts(findings, {{"the call with cudaMalloc / cudaFree", "it waited for the queued work"},
                            {"the call with cudaMallocAsync", "it did not wait for the queued work"},
                            {"the calls alone, idle", "7.0x cheaper"},
                            {"cudaFree behind", ": it waited for the queued work"},
                            {"cudaMalloc behind", "did not wait"},
                            {"cudaFreeAsync behind", "did not wait"},
                            {"the release threshold", "150.0x more to allocate again"},
                            {"the default pool's reuse attributes", "cudaMemPoolReuseAllowInternalDependencies = 1"},
                            {"the freeing stream", "got the freed block's address back"},
                            {"another stream, no event", "later work waited for the held free"},
                            {"another stream, no event, internal", "a different address"},
                            {"another stream, no event, internal", "did not wait"}});

  const lab::ResultTable calls = ch04::allocation_table(run);
  CHECK(cell(calls, "cudaFree, idle GPU", "median") == doctest::Approx(4.0));
  CHECK(calls.rows().size() == 8);
  const lab::ResultTable threshold = ch04::threshold_table(run);
  CHECK(cell(threshold, "UINT64_MAX", "reserved_after_sync_mib") == doctest::Approx(256.0));
  const lab::ResultTable reuse = ch04::reuse_table(run);
  CHECK(reuse.row("the freeing stream").get("allocator_waited").is_none());
  CHECK(reuse.row("another stream, no event").get("allocator_waited").boolean());
  CHECK(ch04::temporaries_table(run).row("cudaMalloc / cudaFree").get("result").text() == "correct");
  CHECK(ch04::memory_background().size() == 4);
}

TEST_CASE("section 5: every other branch") {
  ch04::MemoryRun run = memory_as_expected();
  run.stream_ordered.result.elements = wrong();
  run.reuse.restored = false;
  run.cuda_malloc.call_ms = 0.2;
  run.stream_ordered.call_ms = 19.0;
  run.calls.malloc_async_idle_us = around(10.0);
  run.calls.free_queued_us = around(5.0, 3);
  run.calls.malloc_queued_us = around(19'000.0, 3);
  run.threshold.keep_all.malloc_after_sync_us = around(290.0);
  run.reuse.same_stream.measured = false;
  run.reuse.other_stream.same_address = false;
  run.reuse.other_stream.allocator_waited = false;
  std::vector<lab::Finding> findings = ch04::memory_findings(run);
  CHECK_FALSE(finding(findings, "normalisation correct with cudaMallocAsync").passed);
  CHECK_FALSE(finding(findings, "the pool's attributes were restored").passed);
  expect_texts(findings, {{"the call with cudaMalloc / cudaFree", "it did not wait for it"},
                            {"the call with cudaMallocAsync", "it waited for the queued work"},
                            {"the calls alone, idle", "was not cheaper"},
                            {"cudaFree behind", "did not wait"},
                            {"cudaMalloc behind", ": it waited for the queued work"},
                            {"the release threshold", "about the same either way"},
                            {"the freeing stream", "not measured"},
                            {"another stream, no event", "a different address"},
                            {"another stream, no event", "did not wait"}});
  CHECK(ch04::reuse_table(run).row("the freeing stream").get("same_address").is_none());
  // The cudaMalloc call did not wait here: the stream-ordered one waited, but not "too".
  CHECK_FALSE(contains(finding(findings, "the call with cudaMallocAsync").text, "too"));

  run.cuda_malloc.call_ms = 20.5;  // both calls waited: now "too" is true
  findings = ch04::memory_findings(run);
  CHECK(contains(finding(findings, "the call with cudaMallocAsync").text, "it waited for the queued work too"));

  run.threshold.release_all.reserved_after_sync = std::uint64_t{256} << 20;  // nothing released at the sync
  findings = ch04::memory_findings(run);
  CHECK(contains(finding(findings, "the release threshold").text, "did not follow the threshold"));
}
