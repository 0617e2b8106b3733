// Chapter 08's tables and checks on hand-made data: every table of
// chapters/08_launch_and_graphs/tables.hpp, every branch of checks.hpp (its id,
// verdict and numbers), and
// the options (ranges, memory need, graph sizes). No GPU.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "../chapters/08_launch_and_graphs/options.hpp"  // both files are named options.hpp: by path
#include "checks.hpp"
#include "command_line.hpp"
#include "program.hpp"
#include "support/findings_support.hpp"
#include "support/options_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::has_id;
using lab_test::value;

std::vector<double> repeat(double value, int count) {
  return std::vector<double>(static_cast<std::size_t>(count), value);
}

lab::Comparison exact(std::size_t count) {
  lab::Comparison c;
  c.count = count;
  return c;
}

lab::Comparison wrong(std::size_t count) {
  lab::Comparison c = exact(count);
  c.mismatches = 1;
  c.first.push_back({0, 1.0, 2.0});
  return c;
}

// CUPTI's durations as the H100 gave them: multiples of 0.256 us, here 0.768 (6 times) and 1.024 (4 times),
// shuffled; median 0.768, mean 0.8704.
std::vector<double> graded_cupti() { return {1.024, 0.768, 0.768, 1.024, 0.768, 0.768, 1.024, 0.768, 1.024, 0.768}; }

}  // namespace

// --- options ---------------------------------------------------------------------

namespace {

// Parses @p args (after the program name) into a fresh ch08::Options.
ch08::Options parsed(std::vector<const char*> args) {
  return lab_test::parsed<ch08::Options>(ch08::add_options, std::move(args));
}

}  // namespace

TEST_CASE("options: defaults, ranges, the memory need and the derived settings") {
  const ch08::Options defaults = parsed({});
  CHECK(defaults.n == 65536);
  CHECK(defaults.queue_launches == 8192);
  CHECK(parsed({"--n", "16Mi", "--kernel-us", "5"}).n == 16 << 20);
  CHECK_THROWS_AS(parsed({"--n", "0"}), lab::UsageError);
  CHECK_THROWS_AS(parsed({"--queue-launches", "8"}), lab::UsageError);
  CHECK_THROWS_AS(parsed({"--kernel-us", "0.5"}), lab::UsageError);

  const lab::MemoryNeed need = ch08::memory_need(parsed({"--n", "16Mi"}));
  CHECK(need.device_bytes == doctest::Approx(6.0 * 4 * (16 << 20)));  // two chains of a, b, c
  CHECK(need.host_bytes == doctest::Approx(7.0 * 4 * (16 << 20)));
  CHECK(need.what == "--n 16Mi");

  CHECK(ch08::launch_cost_samples(defaults) == 100);  // --reps 20, raised to 100
  CHECK(ch08::launch_cost_samples(parsed({"--reps", "500"})) == 500);
  CHECK(ch08::kernel_counts(5) == std::vector<int>{1, 5});
  CHECK(ch08::kernel_counts(1000) == std::vector<int>{1, 10, 100, 1000});
  CHECK(ch08::kernel_counts(1) == std::vector<int>{1});
  CHECK(ch08::kernel_counts(300) == std::vector<int>{1, 10, 100, 300});
}

// --- 1 ---------------------------------------------------------------------------

TEST_CASE("section 1: each cost against the GPU's pace; CUPTI's row with its mean and its step") {
  ch08::LaunchCostRun run;
  run.launch_call_us = repeat(4.0, 10);
  run.back_to_back_kernels = 100;
  run.back_to_back_us = repeat(2.0, 10);
  run.round_trip_us = repeat(9.0, 10);
  run.cupti_kernel_us = graded_cupti();
  const lab::ResultTable table = ch08::launch_cost_table(run);
  CHECK(table.id() == "launch_cost");
  CHECK(table.rows().size() == 4);
  CHECK(lab_test::cell(table, "launch call (host)", "vs_pace") == doctest::Approx(2.0));
  CHECK(lab_test::cell(table, "back to back on the GPU, per kernel (events / 100)", "vs_pace") == doctest::Approx(1.0));
  CHECK(lab_test::cell(table, "launch + cudaStreamSynchronize (host)", "vs_pace") == doctest::Approx(4.5));
  // The median (0.768) is one of two graded values; the mean (0.8704) and the step (0.256) stand beside it.
  CHECK(lab_test::cell(table, "the kernel itself (CUPTI)", "median") == doctest::Approx(0.768));
  CHECK(lab_test::cell(table, "the kernel itself (CUPTI)", "mean") == doctest::Approx(0.8704));
  CHECK(lab_test::cell(table, "the kernel itself (CUPTI)", "step_us") == doctest::Approx(0.256));
  CHECK(table.row("launch call (host)").get("step_us").is_none());  // only CUPTI's row

  run.cupti_kernel_us = repeat(1.0, 1000);  // every duration equal: no step seen
  CHECK(ch08::launch_cost_table(run).row("the kernel itself (CUPTI)").get("step_us").number() == 0.0);
}

TEST_CASE("section 1: no CUPTI") {
  ch08::LaunchCostRun run;
  run.launch_call_us = repeat(4.0, 10);
  run.back_to_back_kernels = 100;
  run.back_to_back_us = repeat(6.0, 10);
  run.round_trip_us = repeat(3.0, 10);
  run.cupti_missing = "no CUPTI in this build";
  const lab::ResultTable table = ch08::launch_cost_table(run);
  CHECK(table.row("the kernel itself (CUPTI)").get("median").is_none());
  CHECK(table.row("the kernel itself (CUPTI)").get("vs_pace").is_none());
  CHECK(lab_test::cell(table, "launch call (host)", "vs_pace") == doctest::Approx(4.0 / 6.0));
}

// --- 2 ---------------------------------------------------------------------------

namespace {

ch08::QueueFillRun blocked_after(int depth, int calls) {
  ch08::QueueFillRun run;
  run.stall_ms = 100;
  run.call_us = repeat(2.0, calls);
  run.call_us[static_cast<std::size_t>(depth)] = 150000.0;
  run.stalled_call = depth;
  return run;
}

ch08::QueuePaceRun pace(double below_loop_ms, double past_loop_ms, double past_total_ms) {
  ch08::QueuePaceRun run;
  run.kernel_us = 20;
  run.below = {16, below_loop_ms, 0.32, 0.3, 0.7, 0.33};
  run.past = {8192, past_loop_ms, 164.0, 1.0, past_total_ms, 164.0};
  return run;
}

}  // namespace

TEST_CASE("section 2: calls block past the depth, and the loop lasts the GPU's time beyond it") {
  const ch08::QueueFillRun fill = blocked_after(1024, 8192);
  const auto findings = ch08::queue_checks(fill, pace(0.05, 140.0, 305.0));
  REQUIRE(findings.size() == 2);
  CHECK(by_id(findings, "queue_depth").id == "queue_depth.blocked");
  CHECK(value(findings, "queue_depth", "depth_count") == 1024);
  CHECK(value(findings, "queue_depth", "blocked_ms") == doctest::Approx(150.0));
  CHECK(value(findings, "queue_depth", "before_median_us") == doctest::Approx(2.0));
  const lab::Finding& wait = by_id(findings, "launch_pace");
  CHECK(wait.id == "launch_pace.past_depth");
  CHECK(wait.kind == lab::Finding::Kind::timing);
  CHECK(wait.passed);
  CHECK(value(findings, "launch_pace", "loop_ms") == doctest::Approx(140.0));
  // 8192 - 1024 of 8192 kernels beyond the depth, of 164 ms on the GPU.
  CHECK(value(findings, "launch_pace", "beyond_ms") == doctest::Approx(164.0 * 7168 / 8192));
  const lab::ResultTable table = ch08::queue_fill_table(fill);
  CHECK(table.id() == "queue_fill");
  CHECK(table.row("call 1").get("count").integer() == 1);
  CHECK(table.row("calls 2 to 8").get("count").integer() == 7);
  CHECK(table.row("calls 513 to 1024").get("count").integer() == 512);
  CHECK(table.row("call 1025: blocked until the stream was released").get("max").number() == doctest::Approx(150000.0));
  CHECK(table.row("calls 1026 to 8192, after the release").get("count").integer() == 8192 - 1025);
  const lab::ResultTable pace_table = ch08::queue_pace_table(pace(0.05, 140.0, 305.0));
  CHECK(lab_test::cell(pace_table, "8192", "loop_percent") == doctest::Approx(100.0 * 140 / 164));
  // 164 ms of CPU work and 164 ms of GPU work in 305 ms: 23 of 164 ms shared.
  CHECK(lab_test::cell(pace_table, "8192", "overlap_percent") == doctest::Approx(100.0 * 23 / 164));
  CHECK(lab_test::cell(pace_table, "16", "overlap_percent") == 0.0);  // 0.65 ms of work in 0.7 ms: none shared
}

TEST_CASE("section 2: past the depth, but the loop did not wait") {
  const auto findings = ch08::queue_checks(blocked_after(1024, 8192), pace(0.05, 30.0, 170.0));
  CHECK(by_id(findings, "launch_pace").id == "launch_pace.past_depth");
  CHECK_FALSE(by_id(findings, "launch_pace").passed);  // 30 ms, under half of 143.5
}

TEST_CASE("section 2: nothing blocked up to the cap, or fewer free-stream launches than the depth") {
  ch08::QueueFillRun fill;
  fill.stall_ms = 100;
  fill.call_us = repeat(2.0, 256);
  fill.call_us[7] = 9.0;
  auto findings = ch08::queue_checks(fill, pace(0.05, 0.6, 6.0));
  CHECK(by_id(findings, "queue_depth").id == "queue_depth.not_reached");
  CHECK(value(findings, "queue_depth", "calls_count") == 256);
  CHECK(value(findings, "queue_depth", "longest_us") == doctest::Approx(9.0));
  CHECK_FALSE(has_id(findings, "launch_pace"));  // no depth: nothing to judge
  const lab::ResultTable table = ch08::queue_fill_table(fill);
  CHECK(table.row("calls 65 to 256").get("count").integer() == 192);
  CHECK(table.rows().size() == 4);
  const lab::ResultTable pace_table = ch08::queue_pace_table(pace(0.05, 0.6, 6.0));
  CHECK(pace_table.id() == "queue_pace");
  CHECK(pace_table.row("8192").get("per_launch_us").number() == doctest::Approx(0.6e3 / 8192));

  ch08::QueuePaceRun few = pace(0.05, 140.0, 305.0);
  few.past.launches = 512;  // below the depth of 1024
  CHECK_FALSE(has_id(ch08::queue_checks(blocked_after(1024, 8192), few), "launch_pace"));
}

TEST_CASE("section 2: the holding kernel gave up") {
  ch08::QueueFillRun fill = blocked_after(10, 100);
  fill.holding_kernel_timed_out = true;
  const auto findings = ch08::queue_checks(fill, pace(0.05, 140.0, 305.0));
  CHECK(by_id(findings, "queue_depth").id == "queue_depth.skipped");
  CHECK_FALSE(has_id(findings, "launch_pace"));
}

// --- 3 ---------------------------------------------------------------------------

namespace {

ch08::GraphSize graph_size(int kernels, double stream_us, double graph_us) {
  ch08::GraphSize s;
  s.kernels = kernels;
  s.capture_us = repeat(2.0 * kernels, 3);
  s.instantiate_us = repeat(5.0 * kernels, 3);
  s.stream_us = repeat(stream_us, 3);
  s.graph_us = repeat(graph_us, 3);
  s.stream_gpu_us = repeat(stream_us * 0.8, 3);
  s.graph_gpu_us = repeat(graph_us * 0.8, 3);
  s.results_checked = 6;
  return s;
}

ch08::GraphRun graphs() {
  ch08::GraphRun run;
  run.n = 65536;
  run.sizes = {graph_size(1, 10, 12), graph_size(10, 50, 30), graph_size(100, 450, 150), graph_size(1000, 4500, 1200)};
  run.update.kernels = 1000;
  run.update.recapture_us = repeat(2000, 3);
  run.update.update_us = repeat(300, 3);
  run.update.instantiate_us = repeat(3000, 3);
  run.update.results_checked = 3;
  return run;
}

}  // namespace

TEST_CASE("section 3: the graph wins from K = 10 and pays for its making") {
  const ch08::GraphRun run = graphs();
  const auto findings = ch08::graph_checks(run);
  REQUIRE(findings.size() == 2);
  CHECK(by_id(findings, "replays_correct").passed);
  CHECK(value(findings, "replays_correct", "results_count") == 27);
  const lab::Finding& timing = by_id(findings, "graph_cheaper");
  CHECK(timing.id == "graph_cheaper");
  CHECK(timing.kind == lab::Finding::Kind::timing);
  CHECK(timing.passed);
  CHECK(value(findings, "graph_cheaper", "stream_us") == doctest::Approx(4.5));
  CHECK(value(findings, "graph_cheaper", "graph_us") == doctest::Approx(1.2));
  const lab::ResultTable table = ch08::graph_table(run);
  CHECK(table.id() == "graphs");
  CHECK(table.row("100").get("stream_per_kernel_us").number() == doctest::Approx(4.5));  // the page's benchmark
  CHECK(table.row("100").get("graph_per_kernel_us").number() == doctest::Approx(1.5));
  CHECK(table.row("100").get("stream_over_graph").number() == doctest::Approx(3.0));
  CHECK(table.row("1").get("stream_over_graph").number() == doctest::Approx(10.0 / 12.0));  // the graph lost at K = 1
  // K = 1000: 2000 us capture + 5000 us instantiation, 3300 us saved per replay: 3 replays.
  CHECK(lab_test::cell(table, "1000", "saved_us") == doctest::Approx(3300));
  CHECK(lab_test::cell(table, "1000", "payback_replays") == 3);
  CHECK(table.row("1").get("payback_replays").is_none());  // saved nothing at K = 1
  const lab::ResultTable update = ch08::graph_update_table(run);
  CHECK(update.id() == "graph_update");
  CHECK(update.rows().size() == 3);
  CHECK(update.row("cudaGraphExecUpdate").get("refused").is_none());
}

TEST_CASE("section 3: a wrong replay, the graph never wins") {
  ch08::GraphRun run = graphs();
  for (ch08::GraphSize& s : run.sizes) s.graph_us = repeat(s.stream_us.front() * 2, 3);
  run.sizes[2].wrong = "1 of 65536 values differ";
  const auto findings = ch08::graph_checks(run);
  CHECK_FALSE(by_id(findings, "replays_correct").passed);
  CHECK(by_id(findings, "replays_correct").text == "K = 100: 1 of 65536 values differ");  // the first wrong result
  CHECK_FALSE(by_id(findings, "graph_cheaper").passed);
  const lab::ResultTable table = ch08::graph_table(run);
  CHECK(lab_test::cell(table, "1000", "saved_us") == doctest::Approx(-4500));
  CHECK(table.row("1000").get("payback_replays").is_none());
}

TEST_CASE("section 3: a small run (no K >= 10), an update refused, a wrong update") {
  ch08::GraphRun run;
  run.n = 4096;
  run.sizes = {graph_size(1, 10, 12), graph_size(5, 30, 20)};
  run.update.kernels = 5;
  run.update.update_failure = "cudaErrorGraphExecUpdateFailure, result 2";
  run.update.wrong = "c[0] is NaN";
  run.update.results_checked = 1;
  const auto findings = ch08::graph_checks(run);
  CHECK_FALSE(by_id(findings, "replays_correct").passed);
  CHECK(by_id(findings, "replays_correct").text == "after cudaGraphExecUpdate: c[0] is NaN");
  CHECK(by_id(findings, "graph_cheaper").id == "graph_cheaper.skipped");
  CHECK(ch08::graph_update_table(run).row("cudaGraphExecUpdate").get("refused").text() ==
        "cudaErrorGraphExecUpdateFailure, result 2");

  ch08::GraphRun empty;
  const auto none = ch08::graph_checks(empty);
  CHECK_FALSE(by_id(none, "replays_correct").passed);  // nothing checked proves nothing
  CHECK(by_id(none, "graph_cheaper").id == "graph_cheaper.skipped");
}

// --- 4 ---------------------------------------------------------------------------

namespace {

ch08::HonestTimingRun honest() {
  ch08::HonestTimingRun run;
  run.n = 65536;
  run.graph_kernels = 100;
  run.event_pair_us = repeat(6.0, 5);
  run.blocked_us = repeat(3.2, 5);
  run.graph_us = repeat(2.6, 5);
  run.cupti_us = repeat(2.5, 510);
  run.results = {exact(65536), exact(65536), exact(65536)};
  return run;
}

}  // namespace

TEST_CASE("section 4: all correct, the graph below the event pair, each method against CUPTI") {
  const auto findings = ch08::honest_timing_checks(honest());
  REQUIRE(findings.size() == 2);
  CHECK(by_id(findings, "timing_loops_correct").passed);
  CHECK(by_id(findings, "graph_below_event_pair").passed);
  CHECK(value(findings, "graph_below_event_pair", "pair_us") == doctest::Approx(6.0));
  CHECK(value(findings, "graph_below_event_pair", "graph_us") == doctest::Approx(2.6));
  const lab::ResultTable table = ch08::honest_timing_table(honest());
  CHECK(table.id() == "honest_timing");
  CHECK(table.row("graph of K launches, events / K").get("vs_cupti").text() == "+4 %");
  CHECK(table.row("blocked stream (chapter 03)").get("vs_cupti").text() == "+28 %");
  CHECK(table.row("event pair per launch").get("vs_cupti").text() == "+140 %");
  CHECK(lab_test::cell(table, "CUPTI: the kernel itself, every timed launch", "step_us") == 0.0);

  ch08::HonestTimingRun graded = honest();
  graded.cupti_us = graded_cupti();
  const lab::ResultTable graded_table = ch08::honest_timing_table(graded);
  CHECK(lab_test::cell(graded_table, "CUPTI: the kernel itself, every timed launch", "step_us") ==
        doctest::Approx(0.256));
  CHECK(lab_test::cell(graded_table, "CUPTI: the kernel itself, every timed launch", "mean") ==
        doctest::Approx(0.8704));
}

TEST_CASE("section 4: a wrong result, the graph not below the pair, no CUPTI") {
  ch08::HonestTimingRun run = honest();
  run.results[1] = wrong(65536);
  run.graph_us = repeat(7.0, 5);
  run.cupti_us.clear();
  run.cupti_missing = "CUPTI refused";
  const auto findings = ch08::honest_timing_checks(run);
  CHECK_FALSE(by_id(findings, "timing_loops_correct").passed);
  CHECK_FALSE(by_id(findings, "graph_below_event_pair").passed);
  CHECK(ch08::honest_timing_table(run).row("event pair per launch").get("vs_cupti").is_none());
  run.results.pop_back();  // a loop that did not report
  run.results[1] = exact(65536);
  CHECK_FALSE(by_id(ch08::honest_timing_checks(run), "timing_loops_correct").passed);
}

// --- 5 ---------------------------------------------------------------------------

namespace {

ch08::FaultReport report(bool blocking, const std::string& launch, const std::string& sync, const std::string& later,
                         double call_us) {
  ch08::FaultReport r;
  r.measured = true;
  r.launch_blocking = blocking;
  r.launch_error = launch;
  r.sync_error = sync;
  r.later_last_error = later;
  r.later_malloc = later;
  r.later_kernel = later;
  r.launch_call_us = call_us;
  return r;
}

}  // namespace

TEST_CASE("section 5: reported late, sticky, moved to the launch at a cost") {
  ch08::FaultRun run;
  run.normal = report(false, "cudaSuccess", "cudaErrorIllegalAddress", "cudaErrorIllegalAddress", 4.0);
  run.blocking = report(true, "cudaErrorIllegalAddress", "cudaErrorIllegalAddress", "cudaErrorIllegalAddress", 9.0);
  const auto findings = ch08::fault_checks(run);
  CHECK(by_id(findings, "fault_reported_late").passed);
  CHECK(by_id(findings, "fault_reported_late").kind == lab::Finding::Kind::correctness);
  CHECK(by_id(findings, "fault_sticks").id == "fault_sticks");
  CHECK(by_id(findings, "fault_sticks").passed);
  CHECK(by_id(findings, "launch_blocking_cost").passed);
  CHECK(value(findings, "launch_blocking_cost", "with_us") == doctest::Approx(9.0));
  CHECK(value(findings, "launch_blocking_cost", "without_us") == doctest::Approx(4.0));
  const lab::ResultTable table = ch08::fault_table(run);
  CHECK(table.id() == "fault");
  CHECK(table.row("1").get("launch").text() == "cudaErrorIllegalAddress");
}

TEST_CASE("section 5: reported at the launch, not sticky, blocking changed nothing") {
  ch08::FaultRun run;
  run.normal = report(false, "cudaErrorIllegalAddress", "cudaErrorIllegalAddress", "cudaSuccess", 4.0);
  run.blocking = report(true, "cudaSuccess", "cudaErrorIllegalAddress", "cudaErrorIllegalAddress", 3.0);
  const auto findings = ch08::fault_checks(run);
  CHECK_FALSE(by_id(findings, "fault_reported_late").passed);
  CHECK(by_id(findings, "fault_sticks").id == "fault_sticks");
  CHECK_FALSE(by_id(findings, "fault_sticks").passed);
  CHECK_FALSE(by_id(findings, "launch_blocking_cost").passed);
}

TEST_CASE("section 5: another error code, a child that did not run, a skipped run") {
  ch08::FaultRun run;
  run.normal = report(false, "cudaSuccess", "cudaErrorLaunchFailure", "cudaErrorLaunchFailure", 4.0);
  run.blocking.why_not = "ch08_fault_child exited with code 1";
  auto findings = ch08::fault_checks(run);
  CHECK(by_id(findings, "fault_reported_late").passed);
  CHECK(by_id(findings, "fault_sticks").id == "fault_sticks.other_error");
  CHECK_FALSE(has_id(findings, "launch_blocking_cost"));
  CHECK(ch08::fault_table(run).row("1").get("launch").text() == "not measured");

  ch08::FaultRun missing;
  missing.normal.why_not = "no executable at x";
  missing.blocking.why_not = "no executable at x";
  findings = ch08::fault_checks(missing);
  CHECK(by_id(findings, "fault_reported_late").id == "fault_reported_late.skipped");
  CHECK_FALSE(has_id(findings, "fault_sticks"));

  ch08::FaultRun skipped;
  skipped.skip_reason = "instrumented";
  findings = ch08::fault_checks(skipped);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "kernel_errors.skipped");
  CHECK(ch08::fault_table(skipped).row("0").get("launch").text() == "skipped");
  CHECK(ch08::fault_table(skipped).row("0").get("why_not").text() == "instrumented");
}

TEST_CASE("section 5: the child's line reads back") {
  const ch08::FaultReport sent =
      report(true, "cudaSuccess", "cudaErrorIllegalAddress", "cudaErrorIllegalAddress", 8.765);
  ch08::FaultReport read;
  CHECK(ch08::read_fault_line("noise\n" + ch08::fault_line(sent) + "\n", read));
  CHECK(read.measured);
  CHECK(read.launch_blocking);
  CHECK(read.sync_error == "cudaErrorIllegalAddress");
  CHECK(read.later_malloc == "cudaErrorIllegalAddress");
  CHECK(read.launch_call_us == doctest::Approx(8.765));
  ch08::FaultReport untouched;
  CHECK_FALSE(ch08::read_fault_line("ch08_fault_child 0 cudaSuccess\n", untouched));  // incomplete
  CHECK_FALSE(ch08::read_fault_line("ch08_fault_child 0 a b c d e x\n", untouched));  // no time
  CHECK_FALSE(ch08::read_fault_line("another_child 0 a b c d e 1.5\n", untouched));   // not ours
  CHECK_FALSE(untouched.measured);
}
