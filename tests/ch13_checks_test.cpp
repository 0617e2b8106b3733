// Chapter 13's checks on hand-made data: every branch of every function in
// chapters/13_trustworthy_timer/checks.hpp (its id, verdict and numbers), its tables, and
// the options' memory need. No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "checks.hpp"
#include "options.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::value;

// @p calls reference calls of @p window_us each, CUPTI reading @p cupti_us, the host @p host_us in the call.
std::vector<ch13::ReferenceCall> calls(double window_us, double cupti_us, double host_us = 3.0, int count = 3) {
  std::vector<ch13::ReferenceCall> out;
  for (int i = 0; i < count; ++i) {
    ch13::ReferenceCall c;
    c.window_us = window_us;
    c.cupti_span_us = cupti_us;
    c.cupti = true;
    c.host_us = host_us;
    out.push_back(c);
  }
  return out;
}

// A workload whose naive pair read @p naive_us and CUPTI @p truth_us, three calls each, all matched.
ch13::WorkloadRun workload(const std::string& id, bool honest, double naive_us, double truth_us) {
  ch13::WorkloadRun w;
  w.id = id;
  w.name = id + " workload";
  w.honest = honest;
  w.naive_us = {naive_us, naive_us, naive_us};
  w.naive_cupti_span_us = {truth_us, truth_us, truth_us};
  w.naive_cupti_busy_us = {truth_us, truth_us, truth_us};
  w.naive_matched = 3;
  return w;
}

// The empty pair: 1 us.
const std::vector<double> kEmpty = {1.0, 1.0, 1.0};

}  // namespace

TEST_CASE("reference_verdict: each refusal, a CPU-bound call, and a measurement") {
  ch13::WorkloadRun w = workload("w", true, 8.0, 3.0);
  CHECK(ch13::reference_verdict(w).branch == "refused.not_held");  // no call at all
  w.reference = calls(4.0, 3.0);
  CHECK(ch13::reference_verdict(w).branch == "measured");
  CHECK_FALSE(ch13::reference_verdict(w).refused());
  w.reference[1].queued_after_stop = true;
  CHECK(ch13::reference_verdict(w).branch == "refused.queued");
  w.reference[2].output = ch13::OutputAtStop::stale;
  CHECK(ch13::reference_verdict(w).branch == "refused.stale");
  w.reference[0].output = ch13::OutputAtStop::unwritten;
  CHECK(ch13::reference_verdict(w).branch == "refused.unwritten");
  CHECK(ch13::reference_verdict(w).refused());
  w.reference[0].held = false;
  CHECK(ch13::reference_verdict(w).branch == "refused.not_held");

  // Host time over 10x the window and over 100 us: CPU-bound; either alone is not.
  w.reference = calls(4.0, 3.0, 2000.0);
  CHECK(ch13::reference_verdict(w).branch == "host_bound");
  w.reference = calls(4.0, 3.0, 90.0);  // 22x the window, but under 100 us
  CHECK(ch13::reference_verdict(w).branch == "measured");
  w.reference = calls(1000.0, 1000.0, 2000.0);  // over 100 us, but 2x the window
  CHECK(ch13::reference_verdict(w).branch == "measured");
}

TEST_CASE("readings: the reference less the empty pair, the truth and the naive reading") {
  ch13::WorkloadRun w = workload("w", true, 8.0, 3.0);
  CHECK(std::isnan(ch13::reference_reading_us(w, kEmpty)));
  CHECK(std::isnan(ch13::reference_cupti_us(w)));
  w.reference = calls(4.5, 3.0);
  CHECK(ch13::reference_reading_us(w, kEmpty) == doctest::Approx(3.5));
  CHECK(ch13::reference_reading_us(w, {}) == doctest::Approx(4.5));
  CHECK(ch13::reference_cupti_us(w) == doctest::Approx(3.0));

  w.naive_us = {300.0, 8.0, 8.0};
  w.naive_cupti_span_us = {1000.0, 5.0, 5.0};
  CHECK(ch13::truth_us(w) == doctest::Approx(5.0));
  CHECK(ch13::naive_reading_us(w) == doctest::Approx(8.0));
  w.truth_from_first_call = true;
  w.naive_reads_first = true;
  CHECK(ch13::truth_us(w) == doctest::Approx(1000.0));
  CHECK(ch13::naive_reading_us(w) == doctest::Approx(300.0));
  w.naive_cupti_span_us.clear();
  w.naive_us.clear();
  CHECK(std::isnan(ch13::truth_us(w)));
  CHECK(std::isnan(ch13::naive_reading_us(w)));

  CHECK(ch13::tolerance_us(3.0) == doctest::Approx(1.3));
  CHECK(ch13::tolerance_us(1000.0) == doctest::Approx(101.0));
}

TEST_CASE("naive_checks: results when idle, and a naive reading that agrees, is off, or has no CUPTI") {
  ch13::GalleryRun run;
  run.workloads.push_back(workload("long", true, 1010.0, 1000.0));    // within 101 us
  run.workloads.push_back(workload("late_copy", false, 30.0, 40.0));  // 0.75x: outside 5 us
  run.workloads.push_back(workload("side_stream", false, 4.0, 1000.0));
  run.workloads.push_back(workload("cpu_bound", false, 2000.0, 3.0));
  run.workloads.push_back(workload("no_cupti", false, 4.0, 3.0));
  run.workloads.back().cupti_missing = "a profiler holds CUPTI";
  const std::vector<lab::Finding> f = ch13::naive_checks(run);
  CHECK(by_id(f, "results_when_idle").passed);
  CHECK(value(f, "results_when_idle", "calls") == 15);
  CHECK(by_id(f, "naive.long").id == "naive.long.agrees");
  CHECK(value(f, "naive.long", "ratio") == doctest::Approx(1.01));
  CHECK(by_id(f, "naive.late_copy").id == "naive.late_copy.off");
  CHECK(by_id(f, "naive.side_stream").id == "naive.side_stream.off");
  CHECK(value(f, "naive.side_stream", "ratio") == doctest::Approx(0.004));
  CHECK(by_id(f, "naive.cpu_bound").id == "naive.cpu_bound.off");
  CHECK(by_id(f, "naive.no_cupti").id == "naive.no_cupti.skipped");

  run.workloads[2].naive_matched = 2;
  const std::vector<lab::Finding> wrong = ch13::naive_checks(run);
  CHECK_FALSE(by_id(wrong, "results_when_idle").passed);
  CHECK(value(wrong, "results_when_idle", "matched") == 14);
  CHECK(lab_test::contains(by_id(wrong, "results_when_idle").text, "side_stream workload"));

  const ch13::GalleryRun empty;
  CHECK_FALSE(by_id(ch13::naive_checks(empty), "results_when_idle").passed);

  const lab::ResultTable table = ch13::naive_table(run);
  CHECK(lab_test::cell(table, "side_stream workload", "naive_over_truth") == doctest::Approx(0.004));
  CHECK(lab_test::cell(table, "long workload", "truth_us") == doctest::Approx(1000.0));
}

TEST_CASE("reference_checks: honest workloads within tolerance or not, adversaries caught or not") {
  ch13::GalleryRun run;
  run.empty_pair_us = kEmpty;
  ch13::WorkloadRun within = workload("short", true, 8.0, 3.0);
  within.reference = calls(4.2, 3.0);  // 3.2 us against 3.0 +- 1.3
  ch13::WorkloadRun outside = workload("long", true, 1000.0, 1000.0);
  outside.reference = calls(1200.0, 1000.0);  // 1199 against 1000 +- 101
  ch13::WorkloadRun refused = workload("first_launch", true, 8.0, 3.0);
  refused.reference = calls(4.0, 3.0);
  refused.reference[0].held = false;
  ch13::WorkloadRun no_cupti = workload("l2_resident", true, 8.0, 3.0);
  no_cupti.reference = calls(4.0, 3.0);
  for (ch13::ReferenceCall& c : no_cupti.reference) c.cupti = false;
  run.workloads = {within, outside, refused, no_cupti};
  std::vector<lab::Finding> f = ch13::reference_checks(run);
  CHECK(by_id(f, "reference_results").passed);
  CHECK(by_id(f, "honest_holds.short").passed);
  CHECK(value(f, "honest_holds.short", "reading_us") == doctest::Approx(3.2));
  CHECK(by_id(f, "honest_goal.short").id == "honest_goal.short.met");
  CHECK(value(f, "honest_goal.short", "tolerance_us") == doctest::Approx(1.3));
  CHECK(by_id(f, "honest_holds.long").passed);                          // 1199 us holds the 1000 us kernel
  CHECK(by_id(f, "honest_goal.long").id == "honest_goal.long.missed");  // 1199 against 1000 +- 101
  CHECK_FALSE(by_id(f, "honest_holds.first_launch").passed);            // refused
  CHECK(by_id(f, "honest_holds.l2_resident").id == "honest_holds.l2_resident.skipped");

  ch13::GalleryRun under;  // a reading under CUPTI's time less 1 us: the window missed part of the kernel
  under.empty_pair_us = kEmpty;
  ch13::WorkloadRun short_read = workload("short", true, 8.0, 3.0);
  short_read.reference = calls(2.5, 3.0);  // 1.5 us against 3.0
  under.workloads = {short_read};
  CHECK_FALSE(by_id(ch13::reference_checks(under), "honest_holds.short").passed);

  run.workloads[0].reference[1].output = ch13::OutputAtStop::stale;  // an honest call with a wrong output
  f = ch13::reference_checks(run);
  CHECK_FALSE(by_id(f, "reference_results").passed);
  CHECK(value(f, "reference_results", "matched") == 11);

  ch13::GalleryRun adversaries;
  adversaries.empty_pair_us = kEmpty;
  ch13::WorkloadRun stale = workload("cached", false, 4.0, 1000.0);
  stale.reference = calls(4.0, 3.0);
  for (ch13::ReferenceCall& c : stale.reference) c.output = ch13::OutputAtStop::stale;
  ch13::WorkloadRun cpu = workload("cpu_bound", false, 2000.0, 3.0);
  cpu.reference = calls(4.0, 3.0, 2000.0);
  ch13::WorkloadRun true_time = workload("side_stream", false, 4.0, 1000.0);
  true_time.reference = calls(1005.0, 1000.0);
  ch13::WorkloadRun fooled = workload("wrong_stream", false, 4.0, 1000.0);
  fooled.reference = calls(5.0, 1000.0);
  ch13::WorkloadRun no_truth = workload("late_copy", false, 4.0, 1000.0);
  no_truth.naive_cupti_span_us.clear();
  no_truth.reference = calls(50.0, 50.0);
  adversaries.workloads = {stale, cpu, true_time, fooled, no_truth};
  f = ch13::reference_checks(adversaries);
  CHECK_FALSE(by_id(f, "reference_results").passed);  // no honest call at all
  CHECK(by_id(f, "adversary_caught.cached").id == "adversary_caught.cached.refused.stale");
  CHECK(by_id(f, "adversary_caught.cached").kind == lab::Finding::Kind::correctness);
  CHECK(by_id(f, "adversary_caught.cpu_bound").id == "adversary_caught.cpu_bound.host_bound");
  CHECK(by_id(f, "adversary_caught.side_stream").id == "adversary_caught.side_stream.measured");
  CHECK(by_id(f, "adversary_caught.side_stream").passed);
  CHECK(value(f, "adversary_caught.side_stream", "reading_us") == doctest::Approx(1004.0));
  CHECK(by_id(f, "adversary_caught.wrong_stream").kind == lab::Finding::Kind::timing);
  CHECK_FALSE(by_id(f, "adversary_caught.wrong_stream").passed);
  CHECK(by_id(f, "adversary_caught.late_copy").id == "adversary_caught.late_copy.skipped");

  const lab::ResultTable table = ch13::reference_table(adversaries);
  CHECK(std::isnan(lab_test::cell(table, "cached workload", "reading_us")));
  CHECK(lab_test::cell(table, "side_stream workload", "reading_us") == doctest::Approx(1004.0));
  CHECK(table.row("cached workload").get("branch").text() == "refused.stale");
}

TEST_CASE("sequence_checks: both outputs checked, and the two quantities") {
  ch13::SequenceRun run;
  run.workload = "short";
  run.kernels = 100;
  run.lone_us = 3.0;
  run.lone_cupti_us = 3.0;
  run.stream_us = {4.8, 4.9, 5.0};
  run.graph_us = {2.0, 2.1, 2.2};
  run.stream_result = lab_test::correct();
  run.graph_result = lab_test::correct();
  std::vector<lab::Finding> f = ch13::sequence_checks(run);
  CHECK(by_id(f, "sequence_results").passed);
  CHECK(value(f, "two_quantities", "stream_us") == doctest::Approx(4.9));
  CHECK(value(f, "two_quantities", "graph_us") == doctest::Approx(2.1));
  CHECK(value(f, "two_quantities", "lone_us") == doctest::Approx(3.0));

  run.graph_result = lab_test::wrong();
  f = ch13::sequence_checks(run);
  CHECK_FALSE(by_id(f, "sequence_results").passed);
  CHECK(lab_test::contains(by_id(f, "sequence_results").text, "graph"));
  run.graph_result = lab_test::correct();
  run.stream_result = lab_test::wrong();
  f = ch13::sequence_checks(run);
  CHECK_FALSE(by_id(f, "sequence_results").passed);
  CHECK(lab_test::contains(by_id(f, "sequence_results").text, "stream"));

  const lab::ResultTable table = ch13::sequence_table(run);
  CHECK(lab_test::cell(table, "graph of K / K", "median") == doctest::Approx(2.1));
}

TEST_CASE("memory_need: ten workloads, the scratch, the cache and the L2 flush buffer") {
  ch13::Options o;
  o.sizes.n = 1000;
  o.sizes.n_large = 10000;
  const lab::MemoryNeed need = ch13::memory_need(o, 50);
  CHECK(need.device_bytes == doctest::Approx(4.0 * (27000 + 30000 + 10000 + 1000) + 100));
  CHECK(need.host_bytes == doctest::Approx(4.0 * (9000 + 20000)));
  CHECK(lab_test::contains(need.what, "--n-large"));
}
