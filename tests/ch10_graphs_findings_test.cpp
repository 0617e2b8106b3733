// Chapter 10, sections 3 and 4, on hand-made data: every branch of every
// function in chapters/10_dependent_launch/findings_graphs.hpp (its id, verdict
// and numbers), pinned by id and values. No GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "findings_graphs.hpp"
#include "support/findings_support.hpp"

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
  const std::vector<lab::Finding> good = ch10::jacobi_findings(jacobi());
  CHECK(by_id(good, "jacobi_identical").passed);
  CHECK(by_id(good, "jacobi_identical").kind == lab::Finding::Kind::correctness);
  CHECK(value(good, "jacobi_identical", "iterations_cpu") == 440);
  CHECK(value(good, "jacobi_identical", "solves_count") == 12);

  ch10::JacobiRun other_sweeps = jacobi();
  other_sweeps.ways[2].iterations.back() = 439;
  CHECK_FALSE(by_id(ch10::jacobi_findings(other_sweeps), "jacobi_identical").passed);
  CHECK_FALSE(ch10::jacobi_table(other_sweeps).row("while_node").get("bitwise_equal_cpu").boolean());

  ch10::JacobiRun wrong = jacobi();
  wrong.ways[1].wrong = "3 of 4096 values differ";
  CHECK_FALSE(by_id(ch10::jacobi_findings(wrong), "jacobi_identical").passed);

  ch10::JacobiRun unchecked = jacobi();
  unchecked.ways[0].results_checked = 0;
  CHECK_FALSE(by_id(ch10::jacobi_findings(unchecked), "jacobi_identical").passed);

  ch10::JacobiRun missing = jacobi();
  missing.ways.pop_back();
  CHECK_FALSE(by_id(ch10::jacobi_findings(missing), "jacobi_identical").passed);
}

TEST_CASE("while_overhead: lower, not lower, not measured") {
  const std::vector<lab::Finding> lower = ch10::jacobi_findings(jacobi());
  CHECK(by_id(lower, "while_overhead").id == "while_overhead.lower");
  CHECK(by_id(lower, "while_overhead").passed);
  CHECK(by_id(lower, "while_overhead").kind == lab::Finding::Kind::timing);
  CHECK(value(lower, "while_overhead", "host_loop_overhead_us") == doctest::Approx(11.0));
  CHECK(value(lower, "while_overhead", "while_overhead_us") == doctest::Approx(1.0));
  CHECK(value(lower, "while_overhead", "ratio") == doctest::Approx(11.0));

  ch10::JacobiRun slower = jacobi();
  slower.ways[2].total_ms = {440 * 20e-3};  // 20 us per sweep: rest 17
  const std::vector<lab::Finding> not_lower = ch10::jacobi_findings(slower);
  CHECK(by_id(not_lower, "while_overhead").id == "while_overhead.not_lower");
  CHECK_FALSE(by_id(not_lower, "while_overhead").passed);
  CHECK(value(not_lower, "while_overhead", "while_overhead_us") == doctest::Approx(17.0));

  ch10::JacobiRun partly = jacobi();
  partly.ways[2].cupti_kernel_us.clear();  // CUPTI saw nothing inside the WHILE body
  const std::vector<lab::Finding> unmeasured = ch10::jacobi_findings(partly);
  CHECK(by_id(unmeasured, "while_overhead").id == "while_overhead.not_measured");
  CHECK(by_id(unmeasured, "while_overhead").kind == lab::Finding::Kind::observation);
  // Only the way CUPTI missed is named.
  CHECK(by_id(unmeasured, "while_overhead").value("host_loop_recorded").boolean());
  CHECK_FALSE(by_id(unmeasured, "while_overhead").value("while_recorded").boolean());
  CHECK(lab_test::contains(by_id(unmeasured, "while_overhead").text, "of the WHILE node's solve"));
  CHECK(by_id(unmeasured, "while_overhead").text.find("host loop's solve") == std::string::npos);
  const std::vector<lab::Finding> neither = ch10::jacobi_findings(jacobi(false));
  CHECK(by_id(neither, "while_overhead").id == "while_overhead.not_measured");
  CHECK(lab_test::contains(by_id(neither, "while_overhead").text, "the host loop's solve"));
  CHECK(lab_test::contains(by_id(neither, "while_overhead").text, "and the WHILE node's solve"));
  ch10::JacobiRun host_only = jacobi();
  host_only.ways[0].cupti_kernel_us.clear();
  const std::vector<lab::Finding> host_missed = ch10::jacobi_findings(host_only);
  const lab::Finding& h = by_id(host_missed, "while_overhead");
  CHECK_FALSE(h.value("host_loop_recorded").boolean());
  CHECK(h.text.find("WHILE node's solve") == std::string::npos);
  ch10::JacobiRun missing = jacobi();
  missing.ways.pop_back();
  CHECK(lab_test::contains(by_id(ch10::jacobi_findings(missing), "while_overhead").text, "a way is missing"));
}

TEST_CASE("host_thread_freed: the calls and their time, per way") {
  const std::vector<lab::Finding> f = ch10::jacobi_findings(jacobi());
  CHECK(value(f, "host_thread_freed", "host_loop_calls") == 1761);
  CHECK(value(f, "host_thread_freed", "while_calls") == 3);
  CHECK(value(f, "host_thread_freed", "host_loop_call_ms") == doctest::Approx(5.0));
  CHECK(value(f, "host_thread_freed", "while_call_ms") == doctest::Approx(0.01));
}

TEST_CASE("while_benchmark: met on the overhead, not met, not measured without CUPTI or a way") {
  const std::vector<lab::Finding> met = ch10::jacobi_findings(jacobi());
  CHECK(by_id(met, "while_benchmark").id == "while_benchmark.met");
  CHECK(value(met, "while_benchmark", "ratio") == doctest::Approx(11.0));
  CHECK(met.size() == 4);

  ch10::JacobiRun close = jacobi();
  close.ways[2].total_ms = {440 * 7e-3};  // rest 4 us against 11: 2.75x
  const std::vector<lab::Finding> not_met = ch10::jacobi_findings(close);
  CHECK(by_id(not_met, "while_benchmark").id == "while_benchmark.not_met");
  CHECK(value(not_met, "while_benchmark", "ratio") == doctest::Approx(2.75));

  // Without CUPTI the benchmark (the cost besides the kernels) is not measured; the whole time's ratio is kept.
  const std::vector<lab::Finding> fallback = ch10::jacobi_findings(jacobi(false));  // 14 us against 4 us per sweep
  CHECK(by_id(fallback, "while_benchmark").id == "while_benchmark.not_measured");
  CHECK(value(fallback, "while_benchmark", "whole_time_ratio") == doctest::Approx(3.5));
  ch10::JacobiRun while_unrecorded = close;  // 2x on the whole time: not measured, not "not met"
  while_unrecorded.ways[2].cupti_kernel_us.clear();
  CHECK(by_id(ch10::jacobi_findings(while_unrecorded), "while_benchmark").id == "while_benchmark.not_measured");
  ch10::JacobiRun missing = jacobi();
  missing.ways.erase(missing.ways.begin());
  CHECK(by_id(ch10::jacobi_findings(missing), "while_benchmark").id == "while_benchmark.not_measured");
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
  CHECK(by_id(ch10::graph_timing_findings(graph_timing(2.1, 1.8, 0.5)), "graph_timing_correct").passed);
  ch10::GraphTimingRun wrong = graph_timing(2.1, 1.8, 0.5);
  wrong.wrong = "1 of 65536 values differ";
  CHECK_FALSE(by_id(ch10::graph_timing_findings(wrong), "graph_timing_correct").passed);
  ch10::GraphTimingRun none = graph_timing(2.1, 1.8, 0.5);
  none.results_checked = 0;
  CHECK_FALSE(by_id(ch10::graph_timing_findings(none), "graph_timing_correct").passed);
}

TEST_CASE("default_events: not timestamps when cudaEventElapsedTime refuses, timed when it does not") {
  const std::vector<lab::Finding> refused = ch10::graph_timing_findings(graph_timing(2.1, 1.8, 0.5));
  CHECK(by_id(refused, "default_events").id == "default_events.not_timestamps");
  CHECK(by_id(refused, "default_events").value("returned").text() == "cudaErrorInvalidResourceHandle");
  ch10::GraphTimingRun timed = graph_timing(2.1, 1.8, 0.5);
  timed.default_returned = "cudaSuccess";
  timed.default_us = {0.0, 0.0};
  const std::vector<lab::Finding> f = ch10::graph_timing_findings(timed);
  CHECK(by_id(f, "default_events").id == "default_events.timed");
  CHECK(value(f, "default_events", "median_us") == 0.0);
  // Some replays refused, some timed: not "every replay".
  ch10::GraphTimingRun some = graph_timing(2.1, 1.8, 0.5);
  some.default_us = {0.5, 0.7};
  const std::vector<lab::Finding> s = ch10::graph_timing_findings(some);
  CHECK(by_id(s, "default_events").id == "default_events.some_refused");
  CHECK(value(s, "default_events", "timed_count") == 2);
  CHECK(value(s, "default_events", "median_us") == doctest::Approx(0.6));
  CHECK(by_id(s, "default_events").text.find("every replay") == std::string::npos);
}

TEST_CASE("external_vs_cupti and its benchmark: within, outside, not recorded") {
  const std::vector<lab::Finding> within = ch10::graph_timing_findings(graph_timing(2.1, 1.8, 0.5));
  CHECK(by_id(within, "external_vs_cupti").id == "external_vs_cupti.within");
  CHECK(by_id(within, "external_vs_cupti").kind == lab::Finding::Kind::observation);
  CHECK(value(within, "external_vs_cupti", "event_us") == doctest::Approx(2.1));
  CHECK(value(within, "external_vs_cupti", "difference_us") == doctest::Approx(0.3));
  CHECK(value(within, "external_vs_cupti", "allowance_us") == doctest::Approx(1.0));  // 1 us: above the floor
  CHECK(by_id(within, "graph_timing_benchmark").id == "graph_timing_benchmark.met");

  // 2.5 us apart: outside 1 us, and outside a floor of 2 us; inside a floor of 3 us.
  const std::vector<lab::Finding> outside = ch10::graph_timing_findings(graph_timing(4.3, 1.8, 2.0));
  CHECK(by_id(outside, "external_vs_cupti").id == "external_vs_cupti.outside");
  CHECK(by_id(outside, "external_vs_cupti").name.find("reads the node's own time") == std::string::npos);
  CHECK(value(outside, "external_vs_cupti", "allowance_us") == doctest::Approx(2.0));
  CHECK(by_id(outside, "graph_timing_benchmark").id == "graph_timing_benchmark.not_met");
  const std::vector<lab::Finding> wide_floor = ch10::graph_timing_findings(graph_timing(4.3, 1.8, 3.0));
  CHECK(by_id(wide_floor, "external_vs_cupti").id == "external_vs_cupti.within");

  const std::vector<lab::Finding> no_cupti = ch10::graph_timing_findings(graph_timing(2.1, 0, 0.5));
  CHECK(by_id(no_cupti, "external_vs_cupti").id == "external_vs_cupti.not_recorded");
  CHECK(by_id(no_cupti, "external_vs_cupti").kind == lab::Finding::Kind::observation);
  CHECK(by_id(no_cupti, "graph_timing_benchmark").id == "graph_timing_benchmark.not_measured");

  ch10::GraphTimingRun refused = graph_timing(2.1, 1.8, 0.5);
  refused.external_us.clear();
  refused.external_returned = "cudaErrorInvalidResourceHandle";
  CHECK(by_id(ch10::graph_timing_findings(refused), "external_vs_cupti").id == "external_vs_cupti.not_recorded");
}

TEST_CASE("external_pair_brackets: a pair around the node reads at least 90 % of CUPTI's duration") {
  // The H100 run: 4.288 us against 1.536 us: far from CUPTI, yet it contains the node.
  const std::vector<lab::Finding> long_pair = ch10::graph_timing_findings(graph_timing(4.288, 1.536, 1.248));
  CHECK(by_id(long_pair, "external_pair_brackets").id == "external_pair_brackets.yes");
  CHECK(by_id(long_pair, "external_pair_brackets").passed);
  CHECK(by_id(long_pair, "external_pair_brackets").kind == lab::Finding::Kind::timing);
  CHECK(by_id(long_pair, "external_vs_cupti").id == "external_vs_cupti.outside");
  // A pair that misses the node reads about the floor: too short to contain it.
  const std::vector<lab::Finding> missed = ch10::graph_timing_findings(graph_timing(1.25, 1.536, 1.248));
  CHECK(by_id(missed, "external_pair_brackets").id == "external_pair_brackets.no");
  CHECK_FALSE(by_id(missed, "external_pair_brackets").passed);
  CHECK(value(missed, "external_pair_brackets", "cupti_us") == doctest::Approx(1.536));
  // Exactly 90 % passes.
  CHECK(by_id(ch10::graph_timing_findings(graph_timing(0.9, 1.0, 0.5)), "external_pair_brackets").passed);
  CHECK(ch10::graph_timing_findings(graph_timing(2.1, 0, 0.5)).size() == 4);  // no CUPTI: no bracket check
}

TEST_CASE("background: sections 3 and 4 name their sources") {
  for (const auto& lines : {ch10::jacobi_background(), ch10::graph_timing_background()}) {
    CHECK_FALSE(lines.empty());
    for (const lab::Background& line : lines) {
      CHECK_FALSE(line.text.empty());
      CHECK_MESSAGE(line.source.rfind("CUDA ", 0) == 0, line.source);  // the guide or the runtime API, by section
    }
  }
}
