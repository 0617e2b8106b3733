// Chapter 10's checks replayed on the kept runs: the structs of data.hpp
// rebuilt from each run's JSON
// (samples, table cells, options, device), fed to the chapter's functions, and
// each verdict (and branch) compared with the one the run printed.
// H200: docs/results/h200-2026-12-02e (code at 37ba1db). H100: run 5 of
// 2026-11-25 (older code, same table ids and columns). There blocks_started_early
// was a timing check (now an observation: same branch), invalidation an
// observation (now a check: same branch), and the row
// event_record_external_outside_capture "not stated" (now "prohibited": the new
// code counts 26 rows the documentation rules on where run 5 printed 25; same
// verdict). No GPU.
//
// Rebuilt, not kept: the per-block %globaltimer stamps. The JSON keeps what
// summarize_stamps made of them (every pair's overlap, the median wait, the timer
// step); stamps_from() writes stamps that give back exactly those, and the test
// checks that round trip before it uses them. The misuse rows keep their
// mismatches, not the element count: 256 threads per block, as many blocks as SMs
// (the page, section 1). The graphs' rows keep no wait per block (no graph
// finding reads it). The Jacobi table keeps the CUPTI kernels' mean per sweep, not
// each sweep's; the host's time in calls as a median, not per solve; one sweep
// count per way, which its "= CPU" column says every solve had.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::KeptRun;
using lab_test::samples;

constexpr const char* kH200 = lab_test::kH200Run;
constexpr const char* kH100 = lab_test::kH100Run;
constexpr const char* kChapter = "ch10_dependent_launch";
constexpr int kMisuseThreads = 256;  // one element per thread of 256-thread blocks, as many blocks as SMs

std::string name_of(const nlohmann::json& row) { return row.at("name").get<std::string>(); }

// The branch id the run printed for @p id ("blocks_started_early" -> "blocks_started_early.overlapped").
std::string printed_id(const KeptRun& run, const std::string& id) {
  return run.finding(id).at("finding_id").get<std::string>();
}

long long ns(double us) { return std::llround(us * 1e3); }

// Stamps of @p kernels kernels of @p blocks blocks whose summary is the kept one: pair k's overlap
// overlap_us[k], every block waiting waited_us after its start; block 0 of kernel k runs from its
// first start to its last end, block 1 starts one timer step later (so the step is the kept one, as
// long as every kept time is a whole number of steps: 0.032 us on both GPUs).
std::vector<ch10::BlockStamps> stamps_from(const std::vector<double>& overlap_us, double waited_us, double step_us,
                                           int kernels, int blocks) {
  const unsigned long long origin = 1'700'000'000'000'000'000ull;  // a globaltimer reading
  const long long wait = ns(waited_us), step = ns(step_us), length = wait + 32 * step;
  std::vector<ch10::BlockStamps> stamps;
  long long start = 0;
  for (int k = 0; k < kernels; ++k) {
    for (int i = 0; i < blocks; ++i) {
      const long long begin = start + (i == 0 ? 0 : step), end = start + length - (i == 0 ? 0 : step);
      stamps.push_back({origin + begin, origin + begin + wait, origin + end});
    }
    if (k + 1 < kernels) start = start + length - ns(overlap_us[k]);  // k+1's first start
  }
  return stamps;
}

// Sections 1 or 2's chain (@p table: pdl_stream or pdl_graph), every variant's stamps rebuilt.
ch10::ChainRun chain_of(const KeptRun& run, const std::string& table) {
  ch10::ChainRun chain;
  chain.n = run.options().at("n").get<std::int64_t>();
  chain.kernels = run.options().at("kernels").get<int>();
  chain.blocks = run.device().at("sm_count").get<int>();
  chain.preamble_us = run.options().at("preamble-us").get<double>();
  for (const nlohmann::json& row : run.rows(table)) {
    ch10::ChainVariant v;
    v.name = name_of(row);
    v.per_kernel_us = samples(row);
    v.results_checked = static_cast<int>(v.per_kernel_us.size());  // every sample compared with the CPU
    v.mismatches = row.at("mismatches").get<std::size_t>();
    if (v.mismatches > 0) v.wrong = std::to_string(v.mismatches) + " values differ";
    v.edges = row.value("edges", -1);
    v.programmatic_edges = row.value("programmatic_edges", -1);
    const nlohmann::json pairs = run.row(table + "_overlap", v.name);
    const double waited = table == "pdl_stream" ? row.at("waited_us").get<double>() : 0.512;  // graphs: not kept
    v.stamps = stamps_from(samples(pairs), waited, pairs.at("step_us").get<double>(), chain.kernels, chain.blocks);
    // The round trip: the rebuilt stamps give back the kept overlaps and timer step.
    const ch10::StampSummary s = ch10::summarize_stamps(v.stamps, chain.kernels, chain.blocks);
    const std::vector<double> kept = samples(pairs);
    REQUIRE(s.overlap_us.size() == kept.size());
    for (std::size_t k = 0; k < kept.size(); ++k) CHECK(s.overlap_us[k] == doctest::Approx(kept[k]).epsilon(1e-6));
    CHECK(s.step_us == doctest::Approx(pairs.at("step_us").get<double>()).epsilon(1e-6));
    chain.variants.push_back(v);
  }
  return chain;
}

ch10::MisuseRun misuse_of(const KeptRun& run) {
  ch10::MisuseRun misuse;
  misuse.delay_us = 100;  // the table's title: "writes 100 us later"
  const std::size_t values = run.device().at("sm_count").get<std::size_t>() * kMisuseThreads;
  for (const nlohmann::json& row : run.rows("pdl_misuse")) {
    ch10::MisuseCase c;
    c.name = name_of(row);
    c.result.count = values;
    c.result.mismatches = row.at("mismatches").get<std::size_t>();
    if (row.contains("first_bad_index"))
      c.result.first.push_back({row.at("first_bad_index").get<std::size_t>(), 0.0, 1.0});
    c.lead_us = row.at("lead_us").get<double>();
    misuse.cases.push_back(c);
  }
  return misuse;
}

ch10::JacobiRun jacobi_of(const KeptRun& run) {
  ch10::JacobiRun jacobi;
  jacobi.n = run.options().at("jacobi-n").get<std::int64_t>();
  jacobi.tolerance = run.options().at("tolerance").get<double>();
  jacobi.max_iterations = run.options().at("max-iterations").get<std::int64_t>();
  const nlohmann::json& identical = run.finding("jacobi_identical").at("values");
  jacobi.cpu_iterations = static_cast<std::int64_t>(identical.at("iterations_cpu").get<double>());
  const int solves = identical.at("solves_count").get<int>() / 3;  // each way: untimed, timed, CUPTI
  for (const nlohmann::json& row : run.rows("jacobi")) {
    ch10::JacobiWay w;
    w.name = name_of(row);
    w.total_ms = samples(row);
    const std::int64_t sweeps = row.at("iterations").get<std::int64_t>();
    const bool equal = row.at("bitwise_equal_cpu").get<bool>();
    w.iterations.assign(static_cast<std::size_t>(solves), equal ? sweeps : sweeps + 1);
    w.host_calls = row.at("host_calls").get<std::int64_t>();
    w.host_call_ms = {row.at("host_call_ms").get<double>()};
    if (row.at("kernel_us_per_iteration").is_number())
      w.cupti_kernel_us = {row.at("kernel_us_per_iteration").get<double>()};
    else
      w.cupti_missing = row.at("cupti_missing").get<std::string>();
    w.results_checked = solves;
    if (!equal) w.wrong = "not the CPU's x";
    jacobi.ways.push_back(w);
  }
  return jacobi;
}

ch10::GraphTimingRun graph_timing_of(const KeptRun& run) {
  ch10::GraphTimingRun timing;
  timing.n = run.options().at("n").get<std::int64_t>();
  const nlohmann::json pair = run.row("graph_timing", "external_pair"),
                       floor = run.row("graph_timing", "external_floor");
  timing.external_us = samples(pair);
  timing.external_returned = pair.at("returned").get<std::string>();
  timing.floor_us = samples(floor);
  timing.floor_returned = floor.at("returned").get<std::string>();
  timing.cupti_us = samples(run.row("graph_timing", "cupti_node"));
  timing.default_returned = run.row("graph_timing", "default_pair").at("returned").get<std::string>();
  timing.results_checked = run.finding("graph_timing_correct").at("values").at("results_count").get<int>();
  return timing;
}

ch10::CaptureRun capture_of(const KeptRun& run) {
  ch10::CaptureRun capture;
  for (const nlohmann::json& row : run.rows("capture_calls")) {
    const std::string name = name_of(row);  // "call / mode"
    ch10::CaptureProbe p;
    p.call = name.substr(0, name.find(" / "));
    p.mode = name.substr(name.find(" / ") + 3);
    p.returned = row.at("returned").get<std::string>();
    p.measured = p.returned != "not measured";
    p.status_after = row.value("status_after", "");
    p.end_capture = row.value("end_capture", "");
    p.graph_null = row.value("graph", "") == "NULL";
    p.context = row.value("context", "");
    capture.probes.push_back(p);
  }
  return capture;
}

ch10::QueueScaleRun queue_of(const KeptRun& run) {
  ch10::QueueScaleRun queue;
  for (const nlohmann::json& row : run.rows("queue_scale")) {
    ch10::QueueScaleProbe p;
    p.value = name_of(row) == "unset" ? "" : name_of(row);
    p.measured = true;
    p.seen = row.at("seen").get<std::string>() == "unset" ? "" : row.at("seen").get<std::string>();
    p.launches = run.options().at("queue-launches").get<std::int64_t>();
    p.depth = static_cast<std::int64_t>(row.at("depth").get<double>());
    p.median_call_us = row.at("median_call_us").get<double>();
    p.blocked_call_ms = row.at("blocked_call_ms").get<double>();
    queue.probes.push_back(p);
  }
  return queue;
}

}  // namespace

// --- The H200 run: each verdict and branch as it printed them ---------------------

TEST_CASE("ch10 replay, H200: PDL in a stream (section 1)") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> f = ch10::pdl_stream_checks(chain_of(run, "pdl_stream"));
  CHECK(by_id(f, "chain_correct").passed == run.passed("chain_correct"));
  CHECK(by_id(f, "blocks_started_early").id == printed_id(run, "blocks_started_early"));  // .overlapped
  CHECK(by_id(f, "pdl_benchmark").id == printed_id(run, "pdl_benchmark"));                // .met
  CHECK(lab_test::value(f, "pdl_benchmark", "lower_percent") ==
        doctest::Approx(run.finding("pdl_benchmark").at("values").at("lower_percent").get<double>()));
  CHECK(lab_test::value(f, "pdl_benchmark", "lower_percent") == doctest::Approx(35.58).epsilon(1e-3));  // printed
  const lab::ResultTable table = ch10::pdl_stream_table(chain_of(run, "pdl_stream"));
  for (const char* v : {"plain", "pdl", "pdl_early_trigger"})
    CHECK(lab_test::cell(table, v, "pairs_overlapped") == run.row("pdl_stream", v).at("pairs_overlapped").get<int>());
}

TEST_CASE("ch10 replay, H200: the read before the wait and its fix (section 1)") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> f = ch10::pdl_misuse_checks(misuse_of(run));
  CHECK(by_id(f, "pdl_fix_correct").passed == run.passed("pdl_fix_correct"));
  CHECK(by_id(f, "pdl_fix_correct_held").passed == run.passed("pdl_fix_correct_held"));
  // This run printed each check's own name (idle stream / queued behind a held stream).
  for (const char* id : {"pdl_fix_correct", "pdl_fix_correct_held"})
    CHECK(by_id(f, id).name == run.finding(id).at("name").get<std::string>());
}

TEST_CASE("ch10 replay, H200: PDL in a graph (section 2)") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> f = ch10::pdl_graph_checks(chain_of(run, "pdl_graph"));
  CHECK(by_id(f, "graph_chain_correct").passed == run.passed("graph_chain_correct"));
  CHECK(by_id(f, "captured_edges_programmatic").id == printed_id(run, "captured_edges_programmatic"));  // .all
  CHECK(by_id(f, "captured_edges_programmatic").passed == run.passed("captured_edges_programmatic"));
  CHECK(by_id(f, "pdl_graph_benchmark").id == printed_id(run, "pdl_graph_benchmark"));  // .met
  CHECK(by_id(f, "pdl_graph_benchmark").value("pdl_variant").text() == "graph_pdl_early_trigger");
  CHECK(lab_test::value(f, "pdl_graph_benchmark", "lower_percent") ==
        doctest::Approx(run.finding("pdl_graph_benchmark").at("values").at("lower_percent").get<double>()));
  CHECK(lab_test::value(f, "pdl_graph_benchmark", "lower_percent") == doctest::Approx(38.06).epsilon(1e-3));  // 38.1 %
}

TEST_CASE("ch10 replay, H200: a graph that decides (section 3)") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> f = ch10::jacobi_checks(jacobi_of(run));
  CHECK(by_id(f, "jacobi_identical").passed == run.passed("jacobi_identical"));
  CHECK(by_id(f, "while_overhead").id == printed_id(run, "while_overhead"));  // .not_measured
  CHECK(lab_test::value(f, "while_overhead", "whole_time_ratio") ==
        doctest::Approx(run.finding("while_overhead").at("values").at("whole_time_ratio").get<double>()));
  CHECK(lab_test::value(f, "while_overhead", "whole_time_ratio") == doctest::Approx(3.076).epsilon(1e-3));  // 3.1x
}

TEST_CASE("ch10 replay, H200: timing inside a graph (section 4)") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> f = ch10::graph_timing_checks(graph_timing_of(run));
  CHECK(by_id(f, "graph_timing_correct").passed == run.passed("graph_timing_correct"));
  CHECK(by_id(f, "external_pair_brackets").id == printed_id(run, "external_pair_brackets"));  // .yes
  CHECK(by_id(f, "external_pair_brackets").passed == run.passed("external_pair_brackets"));
  CHECK(by_id(f, "external_pair_brackets").name == run.finding("external_pair_brackets").at("name").get<std::string>());
  CHECK(by_id(f, "graph_timing_benchmark").id == printed_id(run, "graph_timing_benchmark"));  // .not_met
  CHECK(lab_test::value(f, "graph_timing_benchmark", "difference_us") ==
        doctest::Approx(3.296).epsilon(1e-3));  // printed
}

TEST_CASE("ch10 replay, H200: what stream capture forbids (section 5)") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const std::vector<lab::Finding> f = ch10::capture_checks(capture_of(run));
  for (const char* id : {"capture_as_documented", "context_survives", "invalidation"}) {
    CAPTURE(id);
    CHECK(by_id(f, id).id == printed_id(run, id));
    CHECK(by_id(f, id).passed == run.passed(id));
  }
  CHECK(lab_test::value(f, "capture_as_documented", "rows_stated") == 26);
  const lab::ResultTable table = ch10::capture_calls_table(capture_of(run));
  for (const nlohmann::json& row : run.rows("capture_calls"))
    CHECK(table.row(name_of(row)).get("documented").text() == row.at("documented").get<std::string>());
}

TEST_CASE("ch10 replay, H200: the launch queue's depth (section 6)") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const lab::ResultTable table = ch10::queue_scale_table(queue_of(run));
  for (const nlohmann::json& row : run.rows("queue_scale")) {
    CAPTURE(name_of(row));
    CHECK(table.row(name_of(row)).get("as_documented").boolean() == row.at("as_documented").get<bool>());
  }
  CHECK(ch10::queue_scale_checks(queue_of(run)).empty());
}

// --- The H100's run 5, judged by today's code -------------------------------------

TEST_CASE("ch10 replay, H100 run 5: sections 1 and 2 give the verdicts and branches run 5 printed") {
  const KeptRun run = KeptRun::load(kH100, kChapter);
  const std::vector<lab::Finding> stream = ch10::pdl_stream_checks(chain_of(run, "pdl_stream"));
  CHECK(by_id(stream, "chain_correct").passed == run.passed("chain_correct"));
  // Run 5 judged it (a timing check that passed); today it is an observation on the same branch.
  CHECK(by_id(stream, "blocks_started_early").id == printed_id(run, "blocks_started_early"));  // .overlapped
  CHECK(by_id(stream, "blocks_started_early").kind == lab::Finding::Kind::observation);
  CHECK(by_id(stream, "pdl_benchmark").id == printed_id(run, "pdl_benchmark"));  // .met, 41.2 %

  const std::vector<lab::Finding> misuse = ch10::pdl_misuse_checks(misuse_of(run));
  CHECK(by_id(misuse, "pdl_fix_correct").passed == run.passed("pdl_fix_correct"));
  CHECK(by_id(misuse, "pdl_fix_correct_held").passed == run.passed("pdl_fix_correct_held"));

  const std::vector<lab::Finding> graph = ch10::pdl_graph_checks(chain_of(run, "pdl_graph"));
  CHECK(by_id(graph, "graph_chain_correct").passed == run.passed("graph_chain_correct"));
  CHECK(by_id(graph, "captured_edges_programmatic").id == printed_id(run, "captured_edges_programmatic"));
  CHECK(by_id(graph, "pdl_graph_benchmark").id == printed_id(run, "pdl_graph_benchmark"));  // .met, 37.0 %
}

TEST_CASE("ch10 replay, H100 run 5: sections 3 and 4") {
  const KeptRun run = KeptRun::load(kH100, kChapter);
  const std::vector<lab::Finding> jacobi = ch10::jacobi_checks(jacobi_of(run));
  CHECK(by_id(jacobi, "jacobi_identical").passed == run.passed("jacobi_identical"));
  CHECK(by_id(jacobi, "while_overhead").id == printed_id(run, "while_overhead"));  // .not_measured
  // Run 5 printed the whole time's ratio in while_benchmark (2.7x); today's while_overhead carries it.
  CHECK(lab_test::value(jacobi, "while_overhead", "whole_time_ratio") ==
        doctest::Approx(run.finding("while_benchmark").at("values").at("whole_time_ratio").get<double>()));

  const std::vector<lab::Finding> timing = ch10::graph_timing_checks(graph_timing_of(run));
  CHECK(by_id(timing, "graph_timing_correct").passed == run.passed("graph_timing_correct"));
  CHECK(by_id(timing, "external_pair_brackets").id == printed_id(run, "external_pair_brackets"));  // .yes
  CHECK(by_id(timing, "external_pair_brackets").passed == run.passed("external_pair_brackets"));
  CHECK(by_id(timing, "graph_timing_benchmark").id == printed_id(run, "graph_timing_benchmark"));  // .not_met
}

TEST_CASE("ch10 replay, H100 run 5: sections 5 and 6") {
  const KeptRun run = KeptRun::load(kH100, kChapter);
  const std::vector<lab::Finding> capture = ch10::capture_checks(capture_of(run));
  CHECK(by_id(capture, "capture_as_documented").id == printed_id(run, "capture_as_documented"));  // .all
  CHECK(by_id(capture, "capture_as_documented").passed == run.passed("capture_as_documented"));
  // Run 5 ruled on 25 rows; today's code also rules on cudaEventRecordExternal outside a capture.
  CHECK(lab_test::value(capture, "capture_as_documented", "rows_stated") == 26);
  CHECK(lab_test::value(capture, "capture_as_documented", "rows_matching") == 26);
  CHECK(by_id(capture, "context_survives").id == printed_id(run, "context_survives"));  // .yes
  CHECK(by_id(capture, "invalidation").id == printed_id(run, "invalidation"));  // .every_refusal (then an observation)
  CHECK(by_id(capture, "invalidation").passed);

  // Run 5 had no "as documented" column; it printed queue_scale.honoured: 4 of 4 values other than 1x
  // gave the documented factor, and 3x read as 1x. Today's table says yes in every row.
  const lab::ResultTable table = ch10::queue_scale_table(queue_of(run));
  for (const nlohmann::json& row : run.rows("queue_scale")) {
    CAPTURE(name_of(row));
    CHECK(table.row(name_of(row)).get("as_documented").boolean());
  }
  CHECK(printed_id(run, "queue_scale") == "queue_scale.honoured");
}
