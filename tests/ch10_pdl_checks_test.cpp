// Chapter 10, sections 1 and 2 (programmatic dependent launch) on hand-made
// data: the stamps' reading, every branch of every finding in
// chapters/10_dependent_launch/checks.hpp (id, verdict, numbers) and the
// tables' cells. No GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::has_id;
using lab_test::value;

constexpr int kKernels = 4;
constexpr int kBlocks = 3;

// Stamps of kKernels kernels of kBlocks blocks: kernel k starts at k * period_ns,
// block i 32 ns after block i - 1, each block runs 2000 ns and waits until 500 ns after its start.
std::vector<ch10::BlockStamps> stamps(unsigned long long period_ns) {
  std::vector<ch10::BlockStamps> s;
  const unsigned long long origin = 1'700'000'000'000'000'000ull;  // a globaltimer reading: ns since 1970
  for (int k = 0; k < kKernels; ++k)
    for (int i = 0; i < kBlocks; ++i) {
      const unsigned long long start = origin + k * period_ns + 32ull * i;
      s.push_back({start, start + 500, start + 2000});
    }
  return s;
}

// Overlap of a pair for stamps(period_ns): last end of k less first start of k+1, in us.
double overlap_us(unsigned long long period_ns) {
  return (2000.0 + 32.0 * (kBlocks - 1) - static_cast<double>(period_ns)) * 1e-3;
}

ch10::ChainVariant variant(const std::string& name, double per_kernel_us, unsigned long long period_ns) {
  ch10::ChainVariant v;
  v.name = name;
  v.per_kernel_us = {per_kernel_us, per_kernel_us + 0.1, per_kernel_us - 0.1};
  v.stamps = stamps(period_ns);
  v.results_checked = 3;
  return v;
}

// Plain: a 1 us gap between kernels; pdl: 0.2 us; early trigger: 0.7 us overlap.
ch10::ChainRun stream_run(double plain_us, double pdl_us, double early_us) {
  ch10::ChainRun run;
  run.n = 4096;
  run.kernels = kKernels;
  run.blocks = kBlocks;
  run.preamble_us = 0.5;
  run.variants = {variant("plain", plain_us, 3064), variant("pdl", pdl_us, 2264),
                  variant("pdl_early_trigger", early_us, 1364)};
  return run;
}

ch10::ChainRun graph_run(double plain_us, double pdl_us, int pdl_edges, int edges_built) {
  ch10::ChainRun run = stream_run(plain_us, pdl_us, pdl_us + 0.5);
  run.variants[0].name = "graph_plain";
  run.variants[1].name = "graph_pdl";
  run.variants[2].name = "graph_pdl_early_trigger";
  run.variants.push_back(variant("graph_pdl_edges", pdl_us + 0.3, 2264));
  for (ch10::ChainVariant& v : run.variants) v.edges = kKernels - 1;
  run.variants[0].programmatic_edges = 0;
  run.variants[1].programmatic_edges = pdl_edges;
  run.variants[2].programmatic_edges = pdl_edges;
  run.variants[3].programmatic_edges = edges_built;
  return run;
}

// @p lead_us: how long before the primary's stores the secondaries began (< 0: after).
ch10::MisuseRun misuse(std::size_t before_wrong, std::size_t after_wrong, double lead_us = 95.0,
                       std::size_t never_wrong = 0) {
  ch10::MisuseRun run;
  run.delay_us = 100;
  lab::Comparison before = lab_test::correct(), after = lab_test::correct(), never = lab_test::correct();
  before.mismatches = before_wrong;
  if (before_wrong > 0) before.first.push_back({5, 1.0, 2.0});
  never.mismatches = never_wrong;
  after.mismatches = after_wrong;
  run.cases = {
      {"read_before_wait", before, lead_us}, {"never_waits", never, lead_us}, {"read_after_wait", after, lead_us}};
  return run;
}

// misuse(...) with the held rows: @p held_wrong values wrong with the read before the wait, @p held_lead_us.
ch10::MisuseRun with_held(ch10::MisuseRun run, std::size_t held_wrong, double held_lead_us) {
  const std::vector<ch10::MisuseCase> unheld = run.cases;
  for (ch10::MisuseCase c : unheld) {
    c.name += "_held";
    c.lead_us = held_lead_us;
    c.result.mismatches = c.name == "read_before_wait_held" ? held_wrong : 0;
    run.cases.push_back(c);
  }
  return run;
}

}  // namespace

TEST_CASE("pdl stamps: overlap per pair, the wait, the timer's step") {
  const ch10::StampSummary gap = ch10::summarize_stamps(stamps(3064), kKernels, kBlocks);
  REQUIRE(gap.overlap_us.size() == kKernels - 1);
  for (double o : gap.overlap_us) CHECK(o == doctest::Approx(overlap_us(3064)));  // -1 us: a gap
  CHECK(gap.pairs_overlapped == 0);
  CHECK(gap.waited_us == doctest::Approx(0.5));
  CHECK(gap.step_us == doctest::Approx(0.032));  // ns survive: the origin is taken out before the doubles

  const ch10::StampSummary overlap = ch10::summarize_stamps(stamps(1364), kKernels, kBlocks);
  CHECK(overlap.overlap_us.front() == doctest::Approx(0.7));
  CHECK(overlap.pairs_overlapped == kKernels - 1);

  CHECK(ch10::summarize_stamps(stamps(1364), kKernels + 1, kBlocks).overlap_us.empty());  // sizes disagree
  CHECK(ch10::summarize_stamps({}, kKernels, kBlocks).overlap_us.empty());
}

TEST_CASE("pdl stream: correct, blocks started early (an observation), the benchmark met") {
  const std::vector<lab::Finding> f = ch10::pdl_stream_checks(stream_run(2.0, 1.9, 1.7));
  CHECK(by_id(f, "chain_correct").passed);
  CHECK(value(f, "chain_correct", "results_count") == 9);
  const lab::Finding& early = by_id(f, "blocks_started_early");
  CHECK(early.id == "blocks_started_early.overlapped");
  CHECK(early.kind == lab::Finding::Kind::observation);  // not guaranteed by the documentation: never judged
  CHECK(value(f, "blocks_started_early", "early_overlap_us") == doctest::Approx(0.7));
  CHECK(value(f, "blocks_started_early", "plain_overlap_us") == doctest::Approx(-1.0));
  CHECK(value(f, "blocks_started_early", "pairs_overlapped") == kKernels - 1);
  CHECK(by_id(f, "pdl_benchmark").id == "pdl_benchmark.met");
  CHECK(by_id(f, "pdl_benchmark").kind == lab::Finding::Kind::observation);
  CHECK(value(f, "pdl_benchmark", "pdl_us") == doctest::Approx(1.7));  // the faster PDL way
  CHECK(value(f, "pdl_benchmark", "lower_percent") == doctest::Approx(15.0));
  CHECK(by_id(f, "pdl_benchmark").value("pdl_variant").text() == "pdl_early_trigger");
  CHECK(f.size() == 3);
}

TEST_CASE("pdl stream: the benchmark not met, PDL slower") {
  const std::vector<lab::Finding> same = ch10::pdl_stream_checks(stream_run(2.0, 1.98, 2.1));
  CHECK(by_id(same, "pdl_benchmark").id == "pdl_benchmark.not_met");
  CHECK(by_id(same, "pdl_benchmark").value("pdl_variant").text() == "pdl");
  const std::vector<lab::Finding> slower = ch10::pdl_stream_checks(stream_run(2.0, 2.2, 2.3));
  CHECK(by_id(slower, "pdl_benchmark").id == "pdl_benchmark.not_met");
  CHECK(value(slower, "pdl_benchmark", "lower_percent") == doctest::Approx(-10.0));
}

TEST_CASE("pdl stream: serialized, plain overlapped, not measured, wrong results, skipped") {
  ch10::ChainRun serial = stream_run(2.0, 1.9, 1.7);
  serial.variants[2].stamps = stamps(3064);  // the early trigger left a gap too
  const std::vector<lab::Finding> s = ch10::pdl_stream_checks(serial);
  CHECK(by_id(s, "blocks_started_early").id == "blocks_started_early.serialized");
  CHECK(by_id(s, "blocks_started_early").passed);  // an observation: a serialized chain is allowed

  ch10::ChainRun plain_overlaps = stream_run(2.0, 1.9, 1.7);
  plain_overlaps.variants[0].stamps = stamps(1364);  // plain overlapping would mean its stamps are wrong
  CHECK(by_id(ch10::pdl_stream_checks(plain_overlaps), "blocks_started_early").id ==
        "blocks_started_early.plain_overlapped");
  plain_overlaps.variants[2].stamps = stamps(3064);  // said whatever the early trigger did
  CHECK(by_id(ch10::pdl_stream_checks(plain_overlaps), "blocks_started_early").id ==
        "blocks_started_early.plain_overlapped");

  ch10::ChainRun no_stamps = stream_run(2.0, 1.9, 1.7);
  no_stamps.variants[2].stamps.clear();
  CHECK(by_id(ch10::pdl_stream_checks(no_stamps), "blocks_started_early").id == "blocks_started_early.not_measured");

  ch10::ChainRun wrong = stream_run(2.0, 1.9, 1.7);
  wrong.variants[1].mismatches = 7;
  wrong.variants[1].wrong = "7 of 4096 values differ";
  const std::vector<lab::Finding> w = ch10::pdl_stream_checks(wrong);
  CHECK_FALSE(by_id(w, "chain_correct").passed);
  CHECK(value(w, "chain_correct", "mismatches_count") == 7);

  ch10::ChainRun skipped;
  skipped.skipped = true;
  skipped.skip_reason = "compute capability 8.0";
  const std::vector<lab::Finding> k = ch10::pdl_stream_checks(skipped);
  REQUIRE(k.size() == 1);
  CHECK(k[0].id == "pdl_stream.skipped");
  CHECK(k[0].kind == lab::Finding::Kind::observation);
}

TEST_CASE("pdl stream: the tables") {
  const ch10::ChainRun run = stream_run(2.0, 1.9, 1.7);
  const lab::ResultTable t = ch10::pdl_stream_table(run);
  CHECK(t.id() == "pdl_stream");
  CHECK(lab_test::cell(t, "plain", "median") == doctest::Approx(2.0));
  CHECK(lab_test::cell(t, "plain", "to_plain") == doctest::Approx(1.0));
  CHECK(lab_test::cell(t, "pdl_early_trigger", "to_plain") == doctest::Approx(0.85));
  CHECK(lab_test::cell(t, "pdl_early_trigger", "overlap_us") == doctest::Approx(0.7));
  CHECK(lab_test::cell(t, "pdl_early_trigger", "pairs_overlapped") == kKernels - 1);
  CHECK(lab_test::cell(t, "plain", "waited_us") == doctest::Approx(0.5));
  CHECK(lab_test::cell(t, "pdl", "mismatches") == 0);
  const lab::ResultTable o = ch10::overlap_table("pdl_stream_overlap", run);
  CHECK(o.id() == "pdl_stream_overlap");
  CHECK(lab_test::cell(o, "plain", "count") == kKernels - 1);  // every pair kept as a sample
  CHECK(lab_test::cell(o, "plain", "median") == doctest::Approx(-1.0));
  CHECK(lab_test::cell(o, "pdl", "step_us") == doctest::Approx(0.032));
}

TEST_CASE("pdl misuse: the fix checked, warm and held; the wrong reads are the table's rows") {
  const std::vector<lab::Finding> f = ch10::pdl_misuse_checks(with_held(misuse(40, 0), 7, 60.0));
  REQUIRE(f.size() == 2);
  CHECK(by_id(f, "pdl_fix_correct").passed);
  CHECK(by_id(f, "pdl_fix_correct").kind == lab::Finding::Kind::correctness);
  CHECK(by_id(f, "pdl_fix_correct_held").passed);
  CHECK(value(f, "pdl_fix_correct", "mismatches_count") == 0);

  const std::vector<lab::Finding> fix_broken = ch10::pdl_misuse_checks(misuse(40, 2));
  CHECK_FALSE(by_id(fix_broken, "pdl_fix_correct").passed);
  CHECK(value(fix_broken, "pdl_fix_correct", "mismatches_count") == 2);

  ch10::MisuseRun broken_held = with_held(misuse(0, 0), 0, 60.0);
  broken_held.cases.back().result.mismatches = 3;  // read_after_wait_held
  CHECK_FALSE(by_id(ch10::pdl_misuse_checks(broken_held), "pdl_fix_correct_held").passed);
  CHECK(by_id(ch10::pdl_misuse_checks(broken_held), "pdl_fix_correct").passed);

  const lab::ResultTable t = ch10::pdl_misuse_table(with_held(misuse(40, 0), 7, 60.0));
  CHECK(t.id() == "pdl_misuse");
  CHECK(t.rows().size() == 6);
  CHECK(lab_test::cell(t, "read_before_wait_held", "mismatches") == 7);
  CHECK(lab_test::cell(t, "never_waits_held", "lead_us") == doctest::Approx(60.0));
  CHECK(lab_test::cell(t, "read_before_wait", "mismatches") == 40);
  CHECK(lab_test::cell(t, "read_before_wait", "first_bad_index") == 5);
  CHECK(lab_test::cell(t, "read_after_wait", "mismatches") == 0);
  CHECK(lab_test::cell(t, "never_waits", "lead_us") == doctest::Approx(95.0));
}

TEST_CASE("pdl misuse: rows missing, skipped") {
  const std::vector<lab::Finding> no_held = ch10::pdl_misuse_checks(misuse(0, 0));
  CHECK(by_id(no_held, "pdl_fix_correct").passed);
  CHECK(by_id(no_held, "pdl_misuse_held").id == "pdl_misuse_held.skipped");  // rows missing: not judged
  CHECK_FALSE(has_id(no_held, "pdl_fix_correct_held"));

  ch10::MisuseRun timed_out = misuse(0, 0);
  timed_out.held_why_not = "the held stream timed out";
  CHECK(lab_test::contains(by_id(ch10::pdl_misuse_checks(timed_out), "pdl_misuse_held").text, "timed out"));

  ch10::MisuseRun no_fix = misuse(40, 0);
  no_fix.cases.pop_back();  // read_after_wait did not run
  CHECK(ch10::pdl_misuse_checks(no_fix)[0].id == "pdl_misuse.skipped");

  ch10::MisuseRun skipped;
  skipped.skipped = true;
  skipped.skip_reason = "instrumented";
  const std::vector<lab::Finding> s = ch10::pdl_misuse_checks(skipped);
  REQUIRE(s.size() == 1);
  CHECK(s[0].id == "pdl_misuse.skipped");
  CHECK_FALSE(has_id(s, "pdl_fix_correct"));
}

TEST_CASE("pdl graph: edges all programmatic, correct, benchmark met") {
  const std::vector<lab::Finding> f = ch10::pdl_graph_checks(graph_run(2.0, 1.7, kKernels - 1, kKernels - 1));
  REQUIRE(f.size() == 3);
  CHECK(by_id(f, "graph_chain_correct").passed);
  const lab::Finding& edges = by_id(f, "captured_edges_programmatic");
  CHECK(edges.id == "captured_edges_programmatic.all");
  CHECK(edges.kind == lab::Finding::Kind::correctness);
  CHECK(edges.passed);
  CHECK(value(f, "captured_edges_programmatic", "graphs_count") == 2);  // the captured ones only
  CHECK(value(f, "captured_edges_programmatic", "expected_count") == kKernels - 1);
  CHECK(by_id(f, "pdl_graph_benchmark").id == "pdl_graph_benchmark.met");
  CHECK(by_id(f, "pdl_graph_benchmark").value("pdl_variant").text() == "graph_pdl");
  CHECK(value(f, "pdl_graph_benchmark", "pdl_us") == doctest::Approx(1.7));
}

TEST_CASE("pdl graph: no programmatic edges, some, not met, skipped; the table") {
  const std::vector<lab::Finding> none = ch10::pdl_graph_checks(graph_run(2.0, 2.1, 0, 0));
  CHECK(by_id(none, "captured_edges_programmatic").id == "captured_edges_programmatic.none");
  CHECK_FALSE(by_id(none, "captured_edges_programmatic").passed);
  CHECK(by_id(none, "pdl_graph_benchmark").id == "pdl_graph_benchmark.not_met");

  // The hand-built graph's edges do not count for the captured ones.
  const std::vector<lab::Finding> built_only = ch10::pdl_graph_checks(graph_run(2.0, 1.7, 0, kKernels - 1));
  CHECK(by_id(built_only, "captured_edges_programmatic").id == "captured_edges_programmatic.none");
  const std::vector<lab::Finding> captured_only = ch10::pdl_graph_checks(graph_run(2.0, 1.7, kKernels - 1, 1));
  CHECK(by_id(captured_only, "captured_edges_programmatic").id == "captured_edges_programmatic.all");

  ch10::ChainRun one = graph_run(2.0, 1.7, kKernels - 1, kKernels - 1);
  one.variants[2].programmatic_edges = 0;  // the early-trigger capture lost its edges
  const std::vector<lab::Finding> some = ch10::pdl_graph_checks(one);
  CHECK(by_id(some, "captured_edges_programmatic").id == "captured_edges_programmatic.some");
  CHECK_FALSE(by_id(some, "captured_edges_programmatic").passed);
  CHECK(value(some, "captured_edges_programmatic", "fewest_count") == 0);

  ch10::ChainRun skipped;
  skipped.skipped = true;
  skipped.skip_reason = "compute capability 8.0";
  const std::vector<lab::Finding> s = ch10::pdl_graph_checks(skipped);
  REQUIRE(s.size() == 1);
  CHECK(s[0].id == "pdl_graph.skipped");

  const lab::ResultTable t = ch10::pdl_graph_table(graph_run(2.0, 1.7, kKernels - 1, kKernels - 1));
  CHECK(t.id() == "pdl_graph");
  CHECK(lab_test::cell(t, "graph_pdl", "programmatic_edges") == kKernels - 1);
  CHECK(lab_test::cell(t, "graph_plain", "programmatic_edges") == 0);
  CHECK(lab_test::cell(t, "graph_pdl_edges", "programmatic_edges") == kKernels - 1);
  CHECK(lab_test::cell(t, "graph_pdl_edges", "edges") == kKernels - 1);
  CHECK(lab_test::cell(t, "graph_pdl", "to_plain") == doctest::Approx(0.85));
  CHECK(lab_test::cell(t, "graph_plain", "overlap_us") == doctest::Approx(-1.0));
}
