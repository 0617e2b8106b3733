// Chapter 03's checks replayed on the kept runs: the numbers the H200 (2026-12-02e) and the H100
// (run 5 of 2026-11-25) measured, rebuilt into the chapter's run structs and fed to the same
// functions the chapter calls, so each verdict, each branch and each computed column is pinned on
// both GPUs. Run 5 is of older code: its tables carry the same ids and the numbers these functions
// need, but it printed observations the code no longer makes (pair_floor, default_event, ...); only
// the ids both share are compared.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"
#include "tables.hpp"

namespace {

const char* const kH200 = lab_test::kH200Run;
const char* const kH100 = lab_test::kH100Run;
const char* const kChapter = "ch03_events";

// The number of values a correctness check's printed detail names ("1048576 values, max |error| 0").
std::size_t values_in(const std::string& detail) {
  std::smatch m;
  REQUIRE(std::regex_search(detail, m, std::regex("([0-9]+) values")));
  return static_cast<std::size_t>(std::stoull(m[1]));
}

// A comparison of @p count values, all equal to the CPU's when @p passed. The JSON keeps the
// verdict and the count, not the elements: this replays the check's logic, not the data.
lab::Comparison comparison(std::size_t count, bool passed) {
  lab::Comparison c;
  c.count = count;
  c.mismatches = passed ? 0 : 1;
  return c;
}

// A correctness check's comparison, from its verdict and the count its detail names.
lab::Comparison recorded_comparison(const lab_test::KeptRun& run, const std::string& id) {
  return comparison(values_in(run.finding(id).at("detail").get<std::string>()), run.passed(id));
}

double number(const nlohmann::json& row, const char* key) { return row.at(key).get<double>(); }

// --- the run structs, from the tables ------------------------------------------

ch03::StopwatchRun stopwatch_run(const lab_test::KeptRun& run) {
  ch03::StopwatchRun r;
  r.kernel_ms = run.options().at("kernel-ms").get<double>();
  r.event_ms = lab_test::samples(run.row("stopwatch", "events (cudaEventElapsedTime)"));
  r.host_ms = lab_test::samples(run.row("stopwatch", "host timer, synchronised"));
  return r;
}

ch03::EventCostRun event_cost_run(const lab_test::KeptRun& run) {
  ch03::EventCostRun r;
  r.empty_pair_us = lab_test::samples(run.row("event_costs", "empty event pair (GPU time)"));
  r.record_default_us = lab_test::samples(run.row("event_costs", "cudaEventRecord, default event (host time)"));
  r.record_disable_timing_us =
      lab_test::samples(run.row("event_costs", "cudaEventRecord, cudaEventDisableTiming (host time)"));
  return r;
}

// One wait row. The flag comes from the "scheduling flag" column both runs have ("Auto", "BlockingSync").
ch03::WaitCase wait_case(const lab_test::KeptRun& run, const std::string& name) {
  const nlohmann::json row = run.row("waits", name);
  ch03::WaitCase c;
  const std::string call = row.at("wait_call").get<std::string>();
  c.call = call == "cudaEventSynchronize"    ? ch03::WaitCall::event_synchronize
           : call == "cudaStreamSynchronize" ? ch03::WaitCall::stream_synchronize
                                             : ch03::WaitCall::device_synchronize;
  c.device_flag = "cudaDeviceSchedule" + row.at("schedule").get<std::string>();
  if (row.contains("set_flags") && row.at("set_flags").is_string())
    c.set_flags_result = row.at("set_flags").get<std::string>();
  c.measured = row.contains("wall_ms") && row.at("wall_ms").is_number();
  if (c.measured) c.cost = {number(row, "wall_ms"), number(row, "cpu_ms")};
  return c;
}

ch03::WaitRun wait_run(const lab_test::KeptRun& run) {
  ch03::WaitRun r;
  r.kernel_ms = run.options().at("kernel-ms").get<double>();
  r.logical_cores = 16;  // both machines' table notes: "16 logical cores"
  r.default_event = wait_case(run, "default event");
  r.blocking_event = wait_case(run, "cudaEventBlockingSync event");
  r.stream_sync = wait_case(run, "the stream");
  r.device_sync = wait_case(run, "the device");
  r.flag_before_context = wait_case(run, "default event, flag set before the context");
  r.flag_before_stream_sync = wait_case(run, "the stream, flag set before the context");
  r.flag_before_device_sync = wait_case(run, "the device, flag set before the context");
  r.flag_after_context = wait_case(run, "default event, flag set after the context");
  r.flag_after_stream_sync = wait_case(run, "the stream, flag set after the context");
  return r;
}

ch03::FreeHostRun free_host_run(const lab_test::KeptRun& run) {
  const nlohmann::json row = run.row("free_host", "poll, then a slice of CPU work");
  ch03::FreeHostRun r;
  r.kernel_ms = number(row, "kernel_ms");
  r.host_ms = number(row, "host_ms");
  r.polls = row.at("polls").get<std::uint64_t>();
  r.work_iterations = row.at("work_iterations").get<std::uint64_t>();
  return r;
}

ch03::BracketingRun bracketing_run(const lab_test::KeptRun& run) {
  ch03::BracketingRun r;
  r.copy_mib = 4.0 * static_cast<double>(run.options().at("n").get<std::int64_t>()) / (1024.0 * 1024.0);
  r.copy_and_kernel_us = lab_test::samples(run.row("bracketing", "start; copy; kernel; stop"));
  r.after_copy_us = lab_test::samples(run.row("bracketing", "copy; start; kernel; stop"));
  r.copy_only_us = lab_test::samples(run.row("bracketing", "start; copy; stop"));
  r.result = recorded_comparison(run, "bracketing_result");
  return r;
}

ch03::GapMethod gap_method(const nlohmann::json& row) {
  ch03::GapMethod m;
  m.events_us = lab_test::samples(row);
  if (row.contains("cupti_samples_us")) m.cupti_us = row.at("cupti_samples_us").get<std::vector<double>>();
  if (m.cupti_us.empty()) m.cupti_missing = "no records";
  m.result = comparison(static_cast<std::size_t>(row.at("n").get<std::int64_t>()),
                        row.at("result").get<std::string>() == "correct");
  return m;
}

ch03::LaunchGapSize launch_gap_size(const lab_test::KeptRun& run, const std::string& option) {
  const std::string table = "launch_gap_" + option;
  ch03::LaunchGapSize s;
  s.option = option;
  s.n = run.row(table, "back to back").at("n").get<std::int64_t>();
  s.empty_pair_us = number(run.row(table, "blocked stream - empty pair"), "empty_pair_us");
  s.l2_flush_bytes = 2 * run.device().at("l2_bytes").get<std::uint64_t>();  // lab::L2Flusher: twice the L2
  s.back_to_back = gap_method(run.row(table, "back to back"));
  s.isolated = gap_method(run.row(table, "isolated"));
  s.blocked = gap_method(run.row(table, "blocked stream"));
  s.blocked_flushed = gap_method(run.row(table, "blocked stream, L2 flushed"));
  return s;
}

ch03::ManyStreamsRun many_streams_run(const lab_test::KeptRun& run) {
  ch03::ManyStreamsRun r;
  const int streams = run.options().at("streams").get<int>();
  for (int i = 0; i < streams; ++i)
    r.per_stream_ms.push_back(number(run.row("many_streams", "stream " + std::to_string(i) + ": its own pair"), "ms"));
  r.earliest_begin_to_latest_end_ms = number(run.row("many_streams", "whole: earliest begin to latest end"), "ms");
  r.host_ms = number(run.row("many_streams", "whole: host timer, synchronised"), "ms");
  r.one_kernel_ms = number(run.row("many_streams", "one kernel alone (median, back to back)"), "ms");
  const auto n = static_cast<std::size_t>(run.options().at("stream-n").get<std::int64_t>());
  for (int i = 0; i < streams; ++i) r.results.push_back(comparison(n, run.passed("many_streams_results")));
  return r;
}

ch03::WrongStreamRun wrong_stream_run(const lab_test::KeptRun& run) {
  ch03::WrongStreamRun r;
  r.n = run.options().at("n-large").get<std::int64_t>();
  r.own_stream_us = lab_test::samples(run.row("wrong_stream", "events on the work's stream"));
  const nlohmann::json other = run.row("wrong_stream", "events on another stream");
  r.other_stream_us = lab_test::samples(other);
  r.joined_us = lab_test::samples(run.row("wrong_stream", "another stream, fork and join (cudaStreamWaitEvent)"));
  r.host_us = lab_test::samples(run.row("wrong_stream", "host timer, to cudaStreamSynchronize(work)"));
  // The H200's table has the column; run 5 printed the count in its "trust" observation.
  r.unfinished = other.contains("unfinished")
                     ? other.at("unfinished").get<std::size_t>()
                     : static_cast<std::size_t>(run.finding("trust").at("values").at("unfinished").get<double>());
  r.result = recorded_comparison(run, "wrong_stream_result");
  return r;
}

// Every check and finding the chapter makes from a run, in the order main.cu prints them.
std::vector<lab::Finding> replay(const lab_test::KeptRun& run) {
  std::vector<lab::Finding> all;
  const auto add = [&all](std::vector<lab::Finding> more) { all.insert(all.end(), more.begin(), more.end()); };
  add(ch03::stopwatch_checks(stopwatch_run(run)));
  add(ch03::wait_checks(wait_run(run)));
  add(ch03::free_host_checks(free_host_run(run)));
  add(ch03::bracketing_checks(bracketing_run(run)));
  add(ch03::launch_gap_checks({launch_gap_size(run, "n"), launch_gap_size(run, "n_large")}));
  add(ch03::many_streams_checks(many_streams_run(run)));
  add(ch03::wrong_stream_checks(wrong_stream_run(run)));
  return all;
}

// The recorded finding whose id is @p id exactly (branch included), or null.
const nlohmann::json* recorded(const lab_test::KeptRun& run, const std::string& id) {
  for (const char* list : {"checks", "findings"})
    for (const nlohmann::json& f : run.json().at(list))
      if (f.value("finding_id", "") == id) return &f;
  return nullptr;
}

// Each replayed finding that the run also printed: same id and branch, same verdict, and every
// number the run recorded for it recomputed to within rounding.
void check_against_run(const lab_test::KeptRun& run, const std::vector<lab::Finding>& replayed) {
  for (const lab::Finding& f : replayed) {
    CAPTURE(f.id);
    const nlohmann::json* r = recorded(run, f.id);
    REQUIRE(r != nullptr);
    if (r->contains("passed")) CHECK(f.passed == r->at("passed").get<bool>());  // observations carry no verdict
    for (const auto& [key, value] : r->at("values").items()) {
      CAPTURE(key);
      if (value.is_number()) CHECK(f.value(key).number() == doctest::Approx(value.get<double>()).epsilon(1e-6));
    }
  }
}

// A computed numeric column against the run's, row by row.
void check_column(const lab::ResultTable& table, const lab_test::KeptRun& run, const std::string& key) {
  for (const nlohmann::json& row : run.rows(table.id())) {
    if (!row.contains(key) || !row.at(key).is_number()) continue;
    const std::string name = row.at("name").get<std::string>();
    CAPTURE(name);
    CAPTURE(key);
    CHECK(lab_test::cell(table, name, key) == doctest::Approx(row.at(key).get<double>()).epsilon(1e-6));
  }
}

}  // namespace

// --- H200, 2026-12-02e (the day's fifth run): code at 37ba1db ---------------

TEST_CASE("ch03 replay, H200: every check and finding the run printed, with its branch, verdict and numbers") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> replayed = replay(run);
  check_against_run(run, replayed);
  // And nothing the run printed is missing from the replay.
  for (const char* list : {"checks", "findings"})
    for (const nlohmann::json& f : run.json().at(list)) {
      CAPTURE(f.at("finding_id").get<std::string>());
      CHECK(lab_test::has_id(replayed, f.at("finding_id").get<std::string>()));
    }
}

TEST_CASE("ch03 replay, H200: the verdicts, one by one") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> f = replay(run);
  for (const char* id : {"events_vs_host", "blocking_event", "host_worked", "bracketing_result", "pair_contains_copy",
                         "launch_gap_results", "gap_n", "many_streams_results", "wrong_stream_result",
                         "own_pair_vs_host", "ordered_pair_vs_host"}) {
    CAPTURE(id);
    CHECK(lab_test::by_id(f, id).passed == run.passed(id));
    CHECK(lab_test::by_id(f, id).passed);
  }
  // The benchmark of section 6: not met at 1Mi floats (+33.3 %), met at 32Mi (+1.2 %).
  CHECK(lab_test::by_id(f, "closest_to_cupti_n").id == "closest_to_cupti_n.outside_benchmark");
  CHECK(lab_test::by_id(f, "closest_to_cupti_n_large").id == "closest_to_cupti_n_large.within_benchmark");
  CHECK(lab_test::value(f, "closest_to_cupti_n", "events_us") == doctest::Approx(4.096).epsilon(1e-3));
  CHECK(lab_test::value(f, "closest_to_cupti_n", "cupti_us") == doctest::Approx(3.072).epsilon(1e-3));
  CHECK(lab_test::value(f, "closest_to_cupti_n_large", "events_us") == doctest::Approx(112.544).epsilon(1e-3));
  CHECK(lab_test::value(f, "closest_to_cupti_n_large", "cupti_us") == doctest::Approx(111.232).epsilon(1e-3));
  // Section 8: the pair on another stream held none of the work in any of the 20 samples.
  CHECK(run.row("wrong_stream", "events on another stream").at("unfinished").get<int>() == 20);
}

TEST_CASE("ch03 replay, H200: the tables' computed columns") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH200, kChapter);
  check_column(ch03::stopwatch_table(stopwatch_run(run)), run, "vs_events_percent");
  check_column(ch03::event_cost_table(event_cost_run(run)), run, "smallest_difference_us");
  const lab::ResultTable waits = ch03::wait_table(wait_run(run));
  check_column(waits, run, "cpu_percent");
  for (const nlohmann::json& row : run.rows("waits")) {
    const std::string name = row.at("name").get<std::string>();
    CAPTURE(name);
    CHECK(waits.row(name).get("thread").text() == row.at("thread").get<std::string>());
  }
  for (const char* option : {"n", "n_large"}) {
    const lab::ResultTable gap = ch03::launch_gap_table(launch_gap_size(run, option));
    check_column(gap, run, "cupti_median_us");
    check_column(gap, run, "vs_cupti_percent");
    check_column(gap, run, "cupti_x_warm");
  }
  check_column(ch03::many_streams_table(many_streams_run(run)), run, "x_one_kernel");
  check_column(ch03::wrong_stream_table(wrong_stream_run(run)), run, "vs_host");
}

// --- H100, run 5 of 2026-11-25: older code, the same tables -------------------

TEST_CASE("ch03 replay, H100 run 5: the new code gives the verdicts run 5 printed") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH100, kChapter);
  const std::vector<lab::Finding> replayed = replay(run);
  // Every id the new code makes, run 5 printed with the same branch (its other observations are gone).
  check_against_run(run, replayed);
  const std::vector<lab::Finding>& f = replayed;
  for (const char* id : {"events_vs_host", "blocking_event", "host_worked", "bracketing_result", "pair_contains_copy",
                         "launch_gap_results", "gap_n", "many_streams_results", "wrong_stream_result",
                         "own_pair_vs_host", "ordered_pair_vs_host"}) {
    CAPTURE(id);
    CHECK(lab_test::by_id(f, id).passed);
  }
  // The same branches as on the H200: +27.9 % at 1Mi floats, +0.9 % at 32Mi.
  CHECK(lab_test::by_id(f, "closest_to_cupti_n").id == "closest_to_cupti_n.outside_benchmark");
  CHECK(lab_test::by_id(f, "closest_to_cupti_n_large").id == "closest_to_cupti_n_large.within_benchmark");
  CHECK(lab_test::value(f, "closest_to_cupti_n", "events_us") == doctest::Approx(4.256).epsilon(1e-3));
  CHECK(lab_test::value(f, "closest_to_cupti_n", "cupti_us") == doctest::Approx(3.328).epsilon(1e-3));
}

TEST_CASE("ch03 replay, H100 run 5: the columns run 5 did not print, computed on its numbers") {
  const lab_test::KeptRun run = lab_test::KeptRun::load(kH100, kChapter);
  // The empty pair's readings are graded at 32 ns, as on the H200 (page, section 2).
  const lab::ResultTable costs = ch03::event_cost_table(event_cost_run(run));
  CHECK(lab_test::cell(costs, "empty event pair (GPU time)", "smallest_difference_us") ==
        doctest::Approx(0.032).epsilon(1e-3));
  // Which waiting thread spun and which slept: the same rows as the H200's (page, section 3).
  const lab::ResultTable waits = ch03::wait_table(wait_run(run));
  const lab_test::KeptRun h200 = lab_test::KeptRun::load(kH200, kChapter);
  for (const nlohmann::json& row : h200.rows("waits")) {
    const std::string name = row.at("name").get<std::string>();
    CAPTURE(name);
    CHECK(waits.row(name).get("thread").text() == row.at("thread").get<std::string>());
  }
  check_column(waits, run, "cpu_percent");
  check_column(ch03::many_streams_table(many_streams_run(run)), run, "x_one_kernel");
  check_column(ch03::wrong_stream_table(wrong_stream_run(run)), run, "vs_host");
  // The other stream's stop had completed before the work in 20 of 20 samples, on both GPUs.
  CHECK(wrong_stream_run(run).unfinished == 20);
  CHECK(wrong_stream_run(h200).unfinished == 20);
}
