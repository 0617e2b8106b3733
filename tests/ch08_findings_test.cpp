// Chapter 08's findings on hand-made data: every branch of every function in
// chapters/08_launch_and_graphs/findings.hpp, and the options' graph sizes. No GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "findings.hpp"
#include "graph_options.hpp"
#include "support/findings_support.hpp"

namespace {

using lab_test::contains;
constexpr auto& find = lab_test::finding;  // the finding whose name starts with the given text

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

}  // namespace

// --- 1 ---------------------------------------------------------------------------

TEST_CASE("section 1: the host is slower than the GPU's pace, CUPTI recorded") {
  ch08::LaunchCostRun run;
  run.launch_call_us = repeat(4.0, 10);
  run.back_to_back_kernels = 100;
  run.back_to_back_us = repeat(1.5, 10);
  run.round_trip_us = repeat(9.0, 10);
  run.cupti_kernel_us = repeat(1.0, 1000);
  const auto findings = ch08::launch_cost_findings(run);
  CHECK(find(findings, "a launch call returns").passed);
  CHECK(find(findings, "a launch call returns").kind == lab::Finding::Kind::timing);
  CHECK(contains(find(findings, "who sets the pace").text, "keeps the GPU waiting 2.50 us"));
  CHECK(contains(find(findings, "who sets the pace").text, "x the GPU's time per kernel"));
  CHECK(contains(find(findings, "the kernel itself").text, "0.50 us lie between one kernel's end and the next one's"));
  const lab::ResultTable table = ch08::launch_cost_table(run);
  CHECK(table.rows().size() == 4);
  CHECK(table.row("the kernel itself (CUPTI)").get("median").number() == doctest::Approx(1.0));
}

TEST_CASE("section 1: the GPU slower than the host, round trip not longer, no CUPTI") {
  ch08::LaunchCostRun run;
  run.launch_call_us = repeat(4.0, 10);
  run.back_to_back_kernels = 100;
  run.back_to_back_us = repeat(6.0, 10);
  run.round_trip_us = repeat(3.0, 10);
  run.cupti_missing = "no CUPTI in this build";
  const auto findings = ch08::launch_cost_findings(run);
  CHECK_FALSE(find(findings, "a launch call returns").passed);
  CHECK(contains(find(findings, "who sets the pace").text, "the host kept up"));
  CHECK(contains(find(findings, "the kernel itself").text, "no CUPTI in this build"));
  CHECK(contains(ch08::launch_cost_table(run).render(), "not recorded (no CUPTI in this build)"));
}

// --- 2 ---------------------------------------------------------------------------

namespace {

ch08::QueueFillRun blocked_after(int depth, int calls) {
  ch08::QueueFillRun run;
  run.max_launches = calls;
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

TEST_CASE("section 2: calls block past the depth") {
  const ch08::QueueFillRun fill = blocked_after(1024, 8192);
  CHECK(ch08::queue_depth(fill) == 1024);
  const auto findings = ch08::queue_findings(fill, pace(0.05, 140.0, 305.0));
  CHECK(contains(find(findings, "the launch queue's depth").text, "after 1024 launches"));
  CHECK(contains(find(findings, "the launch queue's depth").text, "call 1025 took 150.0 ms"));
  const lab::Finding& wait = find(findings, "past the queue's depth");
  CHECK(wait.kind == lab::Finding::Kind::timing);
  CHECK(wait.passed);
  CHECK(contains(find(findings, "the host timer around").text, "the timer followed the GPU's work"));
  CHECK(contains(find(findings, "CPU work placed after").text, "shared 14 %"));
  const lab::ResultTable table = ch08::queue_fill_table(fill);
  CHECK(table.row("call 1").get("count").integer() == 1);
  CHECK(table.row("calls 2 to 8").get("count").integer() == 7);
  CHECK(table.row("calls 513 to 1024").get("count").integer() == 512);
  CHECK(table.row("call 1025: blocked until the stream was released").get("max").number() == doctest::Approx(150000.0));
  CHECK(table.row("calls 1026 to 8192, after the release").get("count").integer() == 8192 - 1025);
}

TEST_CASE("section 2: past the depth, but the calls did not wait") {
  const auto findings = ch08::queue_findings(blocked_after(1024, 8192), pace(0.05, 30.0, 170.0));
  CHECK_FALSE(find(findings, "past the queue's depth").passed);
  CHECK(contains(find(findings, "the host timer around").text, "it timed the launch calls"));
}

TEST_CASE("section 2: nothing blocked up to the cap") {
  ch08::QueueFillRun fill;
  fill.max_launches = 256;
  fill.stall_ms = 100;
  fill.call_us = repeat(2.0, 256);
  CHECK(ch08::queue_depth(fill) == -1);
  const auto findings = ch08::queue_findings(fill, pace(0.05, 0.6, 6.0));
  CHECK(contains(find(findings, "the launch queue's depth").text, "did not block up to 256 launches"));
  CHECK(contains(find(findings, "launches below the depth").text, "every launch fitted"));
  const lab::ResultTable table = ch08::queue_fill_table(fill);
  CHECK(table.row("calls 65 to 256").get("count").integer() == 192);
  CHECK(table.rows().size() == 4);
  CHECK(ch08::queue_pace_table(pace(0.05, 0.6, 6.0)).row("8192").get("per_launch_us").number() ==
        doctest::Approx(0.6e3 / 8192));
}

TEST_CASE("section 2: the holding kernel gave up") {
  ch08::QueueFillRun fill = blocked_after(10, 100);
  fill.holding_kernel_timed_out = true;
  const auto findings = ch08::queue_findings(fill, pace(0.05, 140.0, 305.0));
  CHECK(contains(find(findings, "the launch queue's depth").text, "not measured"));
  CHECK(contains(find(findings, "launches below the depth").text, "16 launches"));
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

TEST_CASE("section 3: the graph wins from K = 10, the update is cheaper") {
  const ch08::GraphRun run = graphs();
  const auto findings = ch08::graph_findings(run);
  CHECK(find(findings, "every replay").passed);
  CHECK(contains(find(findings, "every replay").text, "27 results"));
  const lab::Finding& timing = find(findings, "a graph of 1000 kernels costs less");
  CHECK(timing.kind == lab::Finding::Kind::timing);
  CHECK(timing.passed);
  CHECK(contains(find(findings, "where a graph starts to pay").text, "from K = 10"));
  CHECK(contains(find(findings, "what a graph costs to make").text, "pays for itself after 3 replays"));
  CHECK(contains(find(findings, "updating a graph").text, "10.0x less"));
  CHECK(contains(find(findings, "benchmark").text, "ratio 3.00"));
  const lab::ResultTable table = ch08::graph_table(run);
  CHECK(table.row("100").get("stream_per_kernel_us").number() == doctest::Approx(4.5));
  CHECK(table.row("100").get("graph_per_kernel_us").number() == doctest::Approx(1.5));
  CHECK(ch08::graph_update_table(run).rows().size() == 3);
}

TEST_CASE("section 3: a wrong replay, the graph never wins, the update is not cheaper") {
  ch08::GraphRun run = graphs();
  for (ch08::GraphSize& s : run.sizes) s.graph_us = repeat(s.stream_us.front() * 2, 3);
  run.sizes[2].wrong = "1 of 65536 values differ";
  run.update.update_us = repeat(4000, 3);
  const auto findings = ch08::graph_findings(run);
  CHECK_FALSE(find(findings, "every replay").passed);
  CHECK(contains(find(findings, "every replay").text, "K = 100: 1 of 65536"));
  CHECK_FALSE(find(findings, "a graph of 1000 kernels").passed);
  CHECK(contains(find(findings, "where a graph starts to pay").text, "at no K"));
  CHECK(contains(find(findings, "what a graph costs to make").text, "never pays"));
  CHECK(contains(find(findings, "updating a graph").text, "not less than"));
}

TEST_CASE("section 3: the graph wins at K = 10 and 100 but not at 1000: no 'from K'") {
  ch08::GraphRun run = graphs();
  run.sizes[3].graph_us = repeat(5000, 3);
  const auto findings = ch08::graph_findings(run);
  const std::string text = find(findings, "where a graph starts to pay").text;
  CHECK_FALSE(contains(text, "from K ="));
  CHECK(contains(text, "finished sooner at K = 10, 100, not at K = 1, 1000"));
  CHECK_FALSE(find(findings, "a graph of 1000 kernels").passed);
}

TEST_CASE("section 3: a small run (no K = 100), an update refused, a wrong update") {
  ch08::GraphRun run;
  run.n = 4096;
  run.sizes = {graph_size(1, 10, 12), graph_size(5, 30, 20)};
  run.update.kernels = 5;
  run.update.update_failure = "cudaErrorGraphExecUpdateFailure, result 2";
  run.update.wrong = "c[0] is NaN";
  run.update.results_checked = 1;
  const auto findings = ch08::graph_findings(run);
  CHECK(contains(find(findings, "every replay").text, "after cudaGraphExecUpdate: c[0] is NaN"));
  CHECK(contains(find(findings, "graph against stream").text, "no graph of 10 kernels"));
  CHECK(contains(find(findings, "updating a graph").text, "refused: cudaErrorGraphExecUpdateFailure"));
  CHECK(contains(find(findings, "benchmark").text, "not measured"));
  CHECK(ch08::kernel_counts(5) == std::vector<int>{1, 5});
  CHECK(ch08::kernel_counts(1000) == std::vector<int>{1, 10, 100, 1000});
  CHECK(ch08::kernel_counts(1) == std::vector<int>{1});
  CHECK(ch08::kernel_counts(300) == std::vector<int>{1, 10, 100, 300});
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

TEST_CASE("section 4: the graph closest, all correct") {
  const auto findings = ch08::honest_timing_findings(honest());
  CHECK(find(findings, "c = a + b correct").passed);
  CHECK(find(findings, "a graph of K launches").passed);
  CHECK(contains(find(findings, "the four against each other").text, "Closest: graph of K launches, events / K"));
  CHECK(contains(find(findings, "the four against each other").text, "event pair per launch +140 %"));
  CHECK(ch08::honest_timing_table(honest()).row("blocked stream (chapter 03)").get("vs_cupti").text() == "+28 %");
}

TEST_CASE("section 4: a wrong result, the graph not below the pair, no CUPTI") {
  ch08::HonestTimingRun run = honest();
  run.results[1] = wrong(65536);
  run.graph_us = repeat(7.0, 5);
  run.cupti_us.clear();
  run.cupti_missing = "CUPTI refused";
  const auto findings = ch08::honest_timing_findings(run);
  CHECK_FALSE(find(findings, "c = a + b correct").passed);
  CHECK(contains(find(findings, "c = a + b correct").text, "blocked stream (chapter 03)"));
  CHECK_FALSE(find(findings, "a graph of K launches").passed);
  CHECK(contains(find(findings, "the four against each other").text, "CUPTI refused"));
  CHECK(contains(ch08::honest_timing_table(run).render(), "not recorded (CUPTI refused)"));
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
  const auto findings = ch08::fault_findings(run);
  CHECK(find(findings, "a kernel's fault is reported").passed);
  CHECK(find(findings, "a kernel's fault is reported").kind == lab::Finding::Kind::correctness);
  CHECK(find(findings, "cudaErrorIllegalAddress is sticky").passed);
  CHECK(contains(find(findings, "CUDA_LAUNCH_BLOCKING=1").text, "the launch itself reported"));
  CHECK(find(findings, "CUDA_LAUNCH_BLOCKING=1 makes").passed);
  CHECK(contains(find(findings, "CUDA_LAUNCH_BLOCKING=1 makes").text, "(2.2x)"));
  CHECK(ch08::fault_table(run).row("1").get("launch").text() == "cudaErrorIllegalAddress");
}

TEST_CASE("section 5: reported at the launch, not sticky, blocking changed nothing") {
  ch08::FaultRun run;
  run.normal = report(false, "cudaErrorIllegalAddress", "cudaErrorIllegalAddress", "cudaSuccess", 4.0);
  run.blocking = report(true, "cudaSuccess", "cudaErrorIllegalAddress", "cudaErrorIllegalAddress", 3.0);
  const auto findings = ch08::fault_findings(run);
  CHECK_FALSE(find(findings, "a kernel's fault is reported").passed);
  CHECK_FALSE(find(findings, "cudaErrorIllegalAddress is sticky").passed);
  CHECK(contains(find(findings, "CUDA_LAUNCH_BLOCKING=1").text, "still returned cudaSuccess"));
  CHECK_FALSE(find(findings, "CUDA_LAUNCH_BLOCKING=1 makes").passed);
}

TEST_CASE("section 5: another error code, a child that did not run, a skipped run") {
  ch08::FaultRun run;
  run.normal = report(false, "cudaSuccess", "cudaErrorLaunchFailure", "cudaErrorLaunchFailure", 4.0);
  run.blocking.why_not = "ch08_fault_child exited with code 1";
  auto findings = ch08::fault_findings(run);
  CHECK(find(findings, "a kernel's fault is reported").passed);
  CHECK(contains(find(findings, "what came after").text, "not cudaErrorIllegalAddress"));
  CHECK(contains(find(findings, "CUDA_LAUNCH_BLOCKING=1").text, "not measured: ch08_fault_child exited"));
  CHECK(ch08::fault_table(run).row("1").get("launch").text() == "not measured");

  ch08::FaultRun missing;
  missing.normal.why_not = "no executable at x";
  missing.blocking.why_not = "no executable at x";
  findings = ch08::fault_findings(missing);
  CHECK(contains(find(findings, "where a kernel's error is reported").text, "no executable at x"));

  ch08::FaultRun skipped;
  skipped.skipped = true;
  skipped.skip_reason = "instrumented";
  findings = ch08::fault_findings(skipped);
  REQUIRE(findings.size() == 1);
  CHECK(contains(findings[0].text, "skipped: instrumented"));
  CHECK(ch08::fault_table(skipped).row("0").get("launch").text() == "skipped");
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
  CHECK_FALSE(ch08::read_fault_line("ch08_fault_child blocking=0 launch=cudaSuccess\n", untouched));
  CHECK_FALSE(ch08::read_fault_line(
      "ch08_fault_child blocking=0 launch=a sync=b last_error=c malloc=d kernel=e launch_call_us=x\n", untouched));
  CHECK_FALSE(untouched.measured);
}
