// Chapter 10, sections 3 and 4, on hand-made data: every branch of every
// function in chapters/10_dependent_launch/checks.hpp (sections 3 and 4; its id, verdict
// and numbers), pinned by id and values. No GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::value;

// A way whose solves took @p ms each over @p sweeps sweeps, @p kernel_us of kernels per sweep (0: not recorded).
ch10::JacobiWay way(const std::string& name, double ms, std::int64_t sweeps, double kernel_us, double call_ms,
                    std::int64_t calls) {
  ch10::JacobiWay w;
  w.name = name;
  w.total_ms = {ms, ms, ms};
  w.host_call_ms = {call_ms, call_ms, call_ms};
  w.iterations = {sweeps, sweeps, sweeps, sweeps};
  w.host_calls = calls;
  w.results_checked = 4;
  if (kernel_us > 0)
    w.cupti_kernel_us = std::vector<double>(static_cast<std::size_t>(sweeps), kernel_us);
  else
    w.cupti_missing = "CUPTI recorded 0 of the solve's 880 kernels (0 records dropped)";
  return w;
}

// 440 sweeps; kernels 3 us per sweep. Host loop 14 us per sweep (rest 11), per step 10 (rest 7), WHILE 4 (rest 1).
ch10::JacobiRun jacobi(bool cupti = true) {
  ch10::JacobiRun run;
  run.n = 4096;
  run.tolerance = 1e-5;
  run.max_iterations = 10000;
  run.cpu_iterations = 440;
  const double k = cupti ? 3.0 : 0.0;
  run.ways = {way("host_loop", 440 * 14e-3, 440, k, 5.0, 1 + 4 * 440),
              way("graph_per_step", 440 * 10e-3, 440, k, 3.0, 1 + 2 * 440),
              way("while_node", 440 * 4e-3, 440, k, 0.01, 3)};
  return run;
}

ch10::GraphTimingRun graph_timing(double event_us, double cupti_us, double floor_us) {
  ch10::GraphTimingRun run;
  run.n = 65536;
  run.external_returned = "cudaSuccess";
  run.external_us = {event_us, event_us, event_us};
  run.floor_returned = "cudaSuccess";
  run.floor_us = {floor_us, floor_us, floor_us};
  if (cupti_us > 0)
    run.cupti_us = {cupti_us, cupti_us, cupti_us};
  else
    run.cupti_missing = "CUPTI recorded 0 timed_add kernels for 3 replays (0 records dropped)";
  run.default_returned = "cudaErrorInvalidResourceHandle";
  run.results_checked = 8;
  return run;
}

}  // namespace

// --- 3. A graph that decides ---------------------------------------------------

TEST_CASE("jacobi: the table per way, with the kernels' share and the rest") {
  const lab::ResultTable table = ch10::jacobi_table(jacobi());
  CHECK(table.id() == "jacobi");
  REQUIRE(table.rows().size() == 3);
  CHECK(lab_test::cell(table, "host_loop", "iterations") == 440);
  CHECK(lab_test::cell(table, "host_loop", "per_iteration_us") == doctest::Approx(14.0));
  CHECK(lab_test::cell(table, "while_node", "kernel_us_per_iteration") == doctest::Approx(3.0));
  CHECK(lab_test::cell(table, "while_node", "overhead_us_per_iteration") == doctest::Approx(1.0));
  CHECK(lab_test::cell(table, "while_node", "host_calls") == 3);
  CHECK(table.row("while_node").get("bitwise_equal_cpu").boolean());
  CHECK(table.row("host_loop").sample_values().size() == 3);  // every sample kept

  const lab::ResultTable none = ch10::jacobi_table(jacobi(false));
  CHECK(none.row("while_node").get("kernel_us_per_iteration").text() == "not recorded");
}

TEST_CASE("jacobi_identical: passes when every way equals the CPU after as many sweeps") {
  const std::vector<lab::Finding> good = ch10::jacobi_checks(jacobi());
  CHECK(by_id(good, "jacobi_identical").passed);
  CHECK(by_id(good, "jacobi_identical").kind == lab::Finding::Kind::correctness);
  CHECK(value(good, "jacobi_identical", "iterations_cpu") == 440);
  CHECK(value(good, "jacobi_identical", "solves_count") == 12);

  ch10::JacobiRun other_sweeps = jacobi();
  other_sweeps.ways[2].iterations.back() = 439;
  CHECK_FALSE(by_id(ch10::jacobi_checks(other_sweeps), "jacobi_identical").passed);
  CHECK_FALSE(ch10::jacobi_table(other_sweeps).row("while_node").get("bitwise_equal_cpu").boolean());

  ch10::JacobiRun wrong = jacobi();
  wrong.ways[1].wrong = "3 of 4096 values differ";
  CHECK_FALSE(by_id(ch10::jacobi_checks(wrong), "jacobi_identical").passed);

  ch10::JacobiRun unchecked = jacobi();
  unchecked.ways[0].results_checked = 0;
  CHECK_FALSE(by_id(ch10::jacobi_checks(unchecked), "jacobi_identical").passed);

  ch10::JacobiRun missing = jacobi();
  missing.ways.pop_back();
  CHECK_FALSE(by_id(ch10::jacobi_checks(missing), "jacobi_identical").passed);
}

TEST_CASE("while_overhead: lower (the target met or not), not lower, not measured") {
  const std::vector<lab::Finding> lower = ch10::jacobi_checks(jacobi());
  REQUIRE(lower.size() == 2);
  CHECK(by_id(lower, "while_overhead").id == "while_overhead.lower");
  CHECK(by_id(lower, "while_overhead").passed);
  CHECK(by_id(lower, "while_overhead").kind == lab::Finding::Kind::timing);
  CHECK(value(lower, "while_overhead", "host_loop_overhead_us") == doctest::Approx(11.0));
  CHECK(value(lower, "while_overhead", "while_overhead_us") == doctest::Approx(1.0));
  CHECK(value(lower, "while_overhead", "ratio") == doctest::Approx(11.0));
  CHECK(lab_test::contains(by_id(lower, "while_overhead").text, "3x: met"));

  ch10::JacobiRun close = jacobi();
  close.ways[2].total_ms = {440 * 7e-3};  // rest 4 us against 11: 2.75x, lower but short of the target
  const std::vector<lab::Finding> short_of = ch10::jacobi_checks(close);
  CHECK(by_id(short_of, "while_overhead").id == "while_overhead.lower");
  CHECK(value(short_of, "while_overhead", "ratio") == doctest::Approx(2.75));
  CHECK(lab_test::contains(by_id(short_of, "while_overhead").text, "3x: not met"));

  ch10::JacobiRun slower = jacobi();
  slower.ways[2].total_ms = {440 * 20e-3};  // 20 us per sweep: rest 17
  const std::vector<lab::Finding> not_lower = ch10::jacobi_checks(slower);
  CHECK(by_id(not_lower, "while_overhead").id == "while_overhead.not_lower");
  CHECK_FALSE(by_id(not_lower, "while_overhead").passed);
  CHECK(value(not_lower, "while_overhead", "while_overhead_us") == doctest::Approx(17.0));

  // CUPTI saw 2 kernels of the WHILE body (kineto #1062): not measured, the whole time's ratio kept.
  ch10::JacobiRun partly = jacobi();
  partly.ways[2].cupti_kernel_us.clear();
  partly.ways[2].cupti_missing = "CUPTI recorded 2 of the solve's 880 kernels";
  const std::vector<lab::Finding> partly_findings = ch10::jacobi_checks(partly);
  const lab::Finding& unmeasured = by_id(partly_findings, "while_overhead");
  CHECK(unmeasured.id == "while_overhead.not_measured");
  CHECK(unmeasured.kind == lab::Finding::Kind::observation);
  CHECK(unmeasured.value("whole_time_ratio").number() == doctest::Approx(3.5));  // 14 us against 4 us per sweep
  CHECK(lab_test::contains(unmeasured.text, "while_node's solve (CUPTI recorded 2"));
  ch10::JacobiRun host_only = jacobi();
  host_only.ways[0].cupti_kernel_us.clear();
  CHECK(lab_test::contains(by_id(ch10::jacobi_checks(host_only), "while_overhead").text, "host_loop's solve"));
  ch10::JacobiRun missing = jacobi();
  missing.ways.pop_back();
  const std::vector<lab::Finding> missing_findings = ch10::jacobi_checks(missing);
  const lab::Finding& gone = by_id(missing_findings, "while_overhead");
  CHECK(gone.id == "while_overhead.not_measured");
  CHECK(lab_test::contains(gone.text, "a way did not run"));
}

// --- 4. Timing inside a graph --------------------------------------------------

TEST_CASE("graph_timing: four rows, every sample kept, CUPTI's absence said") {
  const lab::ResultTable table = ch10::graph_timing_table(graph_timing(2.1, 1.8, 0.5));
  CHECK(table.id() == "graph_timing");
  REQUIRE(table.rows().size() == 4);
  CHECK(lab_test::cell(table, "external_pair", "median") == doctest::Approx(2.1));
  CHECK(lab_test::cell(table, "cupti_node", "median") == doctest::Approx(1.8));
  CHECK(table.row("external_floor").sample_values().size() == 3);
  CHECK(table.row("default_pair").get("returned").text() == "cudaErrorInvalidResourceHandle");
  ch10::GraphTimingRun floor_refused = graph_timing(2.1, 1.8, 0.5);  // each pair's return code its own
  floor_refused.floor_returned = "cudaErrorInvalidValue";
  const lab::ResultTable own = ch10::graph_timing_table(floor_refused);
  CHECK(own.row("external_floor").get("returned").text() == "cudaErrorInvalidValue");
  CHECK(own.row("external_pair").get("returned").text() == "cudaSuccess");
  const lab::ResultTable none = ch10::graph_timing_table(graph_timing(2.1, 0, 0.5));
  CHECK(lab_test::contains(none.row("cupti_node").get("returned").text(), "not recorded"));
}

TEST_CASE("graph_timing_correct: every replay right, or the first wrong one") {
  CHECK(by_id(ch10::graph_timing_checks(graph_timing(2.1, 1.8, 0.5)), "graph_timing_correct").passed);
  ch10::GraphTimingRun wrong = graph_timing(2.1, 1.8, 0.5);
  wrong.wrong = "1 of 65536 values differ";
  CHECK_FALSE(by_id(ch10::graph_timing_checks(wrong), "graph_timing_correct").passed);
  ch10::GraphTimingRun none = graph_timing(2.1, 1.8, 0.5);
  none.results_checked = 0;
  CHECK_FALSE(by_id(ch10::graph_timing_checks(none), "graph_timing_correct").passed);
}

TEST_CASE("the external pair's benchmark: met, not met, not measured") {
  const std::vector<lab::Finding> within = ch10::graph_timing_checks(graph_timing(2.1, 1.8, 0.5));
  REQUIRE(within.size() == 3);
  CHECK(by_id(within, "graph_timing_benchmark").id == "graph_timing_benchmark.met");
  CHECK(by_id(within, "graph_timing_benchmark").kind == lab::Finding::Kind::observation);
  CHECK(value(within, "graph_timing_benchmark", "event_us") == doctest::Approx(2.1));
  CHECK(value(within, "graph_timing_benchmark", "difference_us") == doctest::Approx(0.3));
  CHECK(value(within, "graph_timing_benchmark", "allowance_us") == doctest::Approx(1.0));  // 1 us: above the floor

  // 2.5 us apart: outside 1 us, and outside a floor of 2 us; inside a floor of 3 us.
  const std::vector<lab::Finding> outside = ch10::graph_timing_checks(graph_timing(4.3, 1.8, 2.0));
  CHECK(by_id(outside, "graph_timing_benchmark").id == "graph_timing_benchmark.not_met");
  CHECK(
      lab_test::contains(by_id(outside, "graph_timing_benchmark").text, "2.500 us apart (allowed: 2.000 us): not met"));
  CHECK(value(outside, "graph_timing_benchmark", "allowance_us") == doctest::Approx(2.0));
  CHECK(by_id(ch10::graph_timing_checks(graph_timing(4.3, 1.8, 3.0)), "graph_timing_benchmark").id ==
        "graph_timing_benchmark.met");

  const std::vector<lab::Finding> no_cupti = ch10::graph_timing_checks(graph_timing(2.1, 0, 0.5));
  REQUIRE(no_cupti.size() == 2);  // no CUPTI: no bracket check either
  CHECK(by_id(no_cupti, "graph_timing_benchmark").id == "graph_timing_benchmark.not_measured");
  ch10::GraphTimingRun refused = graph_timing(2.1, 1.8, 0.5);
  refused.external_us.clear();
  refused.external_returned = "cudaErrorInvalidResourceHandle";
  const std::vector<lab::Finding> refused_findings = ch10::graph_timing_checks(refused);
  const lab::Finding& r = by_id(refused_findings, "graph_timing_benchmark");
  CHECK(r.id == "graph_timing_benchmark.not_measured");
  CHECK(lab_test::contains(r.text, "cudaErrorInvalidResourceHandle"));
}

TEST_CASE("external_pair_brackets: less the floor, at least CUPTI's duration less the events' 0.5 us") {
  // The H100 run of 2026-11-25: 4.064 us, floor 1.248, CUPTI 1.536: far from CUPTI, yet it contains the node.
  const std::vector<lab::Finding> h100 = ch10::graph_timing_checks(graph_timing(4.064, 1.536, 1.248));
  CHECK(by_id(h100, "external_pair_brackets").id == "external_pair_brackets.yes");
  CHECK(by_id(h100, "external_pair_brackets").kind == lab::Finding::Kind::timing);
  CHECK(by_id(h100, "graph_timing_benchmark").id == "graph_timing_benchmark.not_met");
  // The H200 run of 2026-12-01: 3.968 us, floor 1.248, CUPTI 1.280.
  CHECK(by_id(ch10::graph_timing_checks(graph_timing(3.968, 1.280, 1.248)), "external_pair_brackets").passed);
  // A pair that misses the node reads about the floor: 0.05 us above it, against 1.036 us asked.
  const std::vector<lab::Finding> missed = ch10::graph_timing_checks(graph_timing(1.3, 1.536, 1.25));
  CHECK(by_id(missed, "external_pair_brackets").id == "external_pair_brackets.no");
  CHECK_FALSE(by_id(missed, "external_pair_brackets").passed);
  CHECK(value(missed, "external_pair_brackets", "cupti_us") == doctest::Approx(1.536));
  // Exactly at the line passes: 2.0 - 0.5 = 1.5 = 2.0 - 0.5.
  CHECK(by_id(ch10::graph_timing_checks(graph_timing(2.0, 2.0, 0.5)), "external_pair_brackets").passed);
  // No floor recorded: the pair alone.
  ch10::GraphTimingRun no_floor = graph_timing(1.2, 1.536, 0.5);
  no_floor.floor_us.clear();
  CHECK(by_id(ch10::graph_timing_checks(no_floor), "external_pair_brackets").passed);  // 1.2 >= 1.036
}
