// Chapter 09's checks replayed on the kept runs: the one-GPU runs of the H200 (h200-2026-12-02e, code
// 37ba1db) and the H100 (run 5 of 2026-11-25), and the two-GPU run on two H200s (run 3 of 2026-11-22),
// rebuilt into the chapter's run structs and fed to the same functions the chapter calls. The two-GPU
// run is of an older code whose JSON has no table or finding ids: its rows and checks are found by their
// names. Its results carry no per-run stale counts, and none of the JSON files carries the compared
// arrays: the correctness checks are rebuilt from what each printed ("67108864 values, max |error| 0",
// "0 stale elements in 5 runs"), so they replay the checks' logic, not the data.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"
#include "tables.hpp"

namespace {

using lab_test::KeptRun;
using lab_test::samples;

const KeptRun& h200() {
  static const KeptRun run = KeptRun::load(lab_test::kH200Run, "ch09_multi_gpu");
  return run;
}

const KeptRun& h100() {
  static const KeptRun run = KeptRun::load(lab_test::kH100Run, "ch09_multi_gpu");
  return run;
}

const KeptRun& two_h200() {
  static const KeptRun run = KeptRun::load("h200x2-2026-11-22/run3", "ch09_multi_gpu");
  return run;
}

const char kOneGpu[] = "needs 2 GPUs; this machine shows 1";

double number(const nlohmann::json& row, const char* key) { return row.at(key).get<double>(); }

std::int64_t floats(const KeptRun& run) { return run.options().at("n").get<std::int64_t>(); }

// --- the one-GPU runs (schema with ids) ------------------------------------------------

ch09::OwnershipRun one_gpu_ownership(const KeptRun& run) {
  ch09::OwnershipRun o;
  o.skipped = kOneGpu;
  o.visible = 1;
  o.set_invalid_device =
      run.row("ownership", "cudaSetDevice(1), one past the last device").at("returned").get<std::string>();
  return o;
}

ch09::PipelineRun one_gpu_pipeline(const KeptRun& run) {
  ch09::PipelineRun p;
  p.skipped = kOneGpu;
  p.n = floats(run);
  p.chunks = run.options().at("chunks").get<int>();
  const nlohmann::json link = run.row("host_link", "GPU 0 alone");
  p.link.bytes = static_cast<double>(p.n) * sizeof(float);
  p.link.h2d_alone_gbps = {number(link, "h2d_gbps")};
  p.link.d2h_alone_gbps = {number(link, "d2h_gbps")};
  const nlohmann::json one = run.row("pipeline", "1 GPU");
  p.kernel_ms = number(one, "bound_ms");  // on one GPU the bound is the kernel's time (checked below)
  ch09::PipelineVariant v;
  v.devices = 1;
  v.ms = samples(one);
  v.bound_ms = number(one, "bound_ms");
  v.result = lab_test::correct(static_cast<std::size_t>(p.n));  // printed: "33554432 values, max |error| 2.58e-05"
  p.variants.push_back(v);
  return p;
}

void check_one_gpu_run(const KeptRun& run) {
  const std::vector<lab::Finding> ownership = ch09::ownership_checks(one_gpu_ownership(run));
  CHECK(lab_test::by_id(ownership, "invalid_device_fails").passed == run.passed("invalid_device_fails"));
  CHECK(lab_test::by_id(ownership, "ownership").id == "ownership.skipped");

  ch09::PeerMatrix matrix;  // one GPU: the one-by-one matrix its table printed ("itself")
  matrix.devices = 1;
  matrix.can_access = {1};
  CHECK(lab_test::by_id(ch09::peer_matrix_checks(matrix), "peer_access").id == "peer_access.skipped");
  CHECK(run.finding("peer_access").at("finding_id").get<std::string>() == "peer_access.skipped");

  ch09::PipelineRun pipeline = one_gpu_pipeline(run);
  const std::vector<lab::Finding> findings = ch09::pipeline_checks(pipeline);
  CHECK(lab_test::by_id(findings, "pipeline_output").passed == run.passed("pipeline_output"));
  CHECK(lab_test::by_id(findings, "split").id == "split.skipped");
  // The bound on one GPU is the kernel's: the copies alone bound it at about a quarter of it.
  const double bound = pipeline.kernel_ms;
  pipeline.kernel_ms = 0;
  CHECK(ch09::pipeline_bound_ms(pipeline, 1) < 0.3 * bound);

  ch09::PeerCopyRun copies;
  copies.skipped = kOneGpu;
  ch09::OrderingRun ordering;
  ordering.skipped = kOneGpu;
  const std::vector<lab::Finding> summary =
      ch09::summary_checks(one_gpu_ownership(run), copies, ordering, one_gpu_pipeline(run));
  CHECK(lab_test::by_id(summary, "summary").id == "summary.partly_skipped");
  CHECK(lab_test::value(summary, "summary", "skipped_count") ==
        run.finding("summary").at("values").at("skipped_count").get<double>());
}

// --- the two-GPU run (older schema: names, no ids) -------------------------------------

nlohmann::json old_row(const std::string& name) {
  for (const nlohmann::json& row : two_h200().json().at("results"))
    if (row.at("name").get<std::string>() == name) return row;
  FAIL("run 3 has no row " << name);
  return {};
}

bool old_passed(const std::string& check_name) {
  for (const nlohmann::json& check : two_h200().json().at("checks"))
    if (check.at("name").get<std::string>() == check_name) return check.at("passed").get<bool>();
  FAIL("run 3 has no check " << check_name);
  return false;
}

const char* const kCalls[] = {
    "kernel launch into a stream of GPU 1",
    "cudaMemcpyAsync GPU 0 -> GPU 1 on a stream of GPU 1",
    "cudaEventRecord(event of GPU 1, stream of GPU 0)",
    "cudaEventSynchronize(event of GPU 1)",
    "cudaEventQuery(event of GPU 1)",
    "cudaEventElapsedTime(event of GPU 0, event of GPU 1)",
    "cudaStreamWaitEvent(stream of GPU 0, event of GPU 1)",
};

ch09::OwnershipRun two_gpu_ownership() {
  ch09::OwnershipRun o;
  o.visible = 2;
  o.set_invalid_device = old_row("cudaSetDevice(2), one past the last device").at("returned").get<std::string>();
  o.main_thread_device = 1;  // run 3 printed these as findings ("the current device is per host thread", ...)
  o.new_thread_device = 0;
  o.buffer_device = 1;
  for (const char* call : kCalls) {
    const nlohmann::json row = old_row(call);
    o.calls.push_back({call, row.at("situation").get<std::string>(),
                       row.at("guide_says").get<std::string>() == "succeeds", row.at("returned").get<std::string>()});
  }
  o.devices_usable_after = true;              // printed: "cudaDeviceSynchronize returned cudaSuccess on every device"
  o.cross_copy = lab_test::correct(1048576);  // printed: "1048576 values, max |error| 0"
  return o;
}

ch09::PeerCopyRun two_gpu_copies() {
  ch09::PeerCopyRun c;
  c.bytes = two_h200().options().at("mib").get<double>() * 1024 * 1024;
  c.peer_on_ms = samples(old_row("cudaMemcpyPeerAsync, peer access on"));
  c.both_ways_ms = samples(old_row("both directions at once, peer access on"));
  c.peer_off_ms = samples(old_row("cudaMemcpyPeerAsync, peer access off"));
  c.staged_ms = samples(old_row("through pinned host memory (two copies)"));
  c.kernel_local_ms = samples(old_row("kernel on GPU 1 reads GPU 1's memory"));
  c.kernel_peer_ms = samples(old_row("kernel on GPU 1 reads GPU 0's memory"));
  c.copy_result = lab_test::correct(67108864);  // printed: "67108864 values, max |error| 0", both
  c.kernel_result = lab_test::correct(67108864);
  return c;
}

// Run 3 kept each consumer's totals: 5 runs, 4 with stale data, 4194304 stale elements of 5242880 read
// (every element of each stale run); the runs' order is not kept.
ch09::OrderingRun two_gpu_ordering() {
  ch09::OrderingRun o;
  o.n = 1048576;
  o.producer_ms = two_h200().options().at("producer-ms").get<double>();
  o.stale_without_event = {1048576, 1048576, 1048576, 1048576, 0};
  o.stale_with_event = {0, 0, 0, 0, 0};
  return o;
}

ch09::PipelineRun two_gpu_pipeline() {
  ch09::PipelineRun p;
  p.n = floats(two_h200());
  p.chunks = two_h200().options().at("chunks").get<int>();
  p.link.bytes = static_cast<double>(p.n) * sizeof(float);
  for (const char* gpu : {"GPU 0 alone", "GPU 1 alone"}) {
    p.link.h2d_alone_gbps.push_back(number(old_row(gpu), "h2d_gbps"));
    p.link.d2h_alone_gbps.push_back(number(old_row(gpu), "d2h_gbps"));
  }
  p.link.h2d_together_gbps = number(old_row("all 2 at once"), "h2d_gbps");
  p.link.d2h_together_gbps = number(old_row("all 2 at once"), "d2h_gbps");
  p.kernel_ms = number(old_row("1 GPU"), "bound_ms");  // one GPU's bound is its kernel's time
  for (int devices : {1, 2}) {
    ch09::PipelineVariant v;
    v.devices = devices;
    v.ms = samples(old_row(devices == 1 ? "1 GPU" : "2 GPUs"));
    v.bound_ms = ch09::pipeline_bound_ms(p, devices);
    v.result = lab_test::correct(static_cast<std::size_t>(p.n));
    p.variants.push_back(v);
  }
  return p;
}

}  // namespace

TEST_CASE("ch09 replay, H200 2026-12-02e (one GPU): the verdicts and the bound as the run printed them") {
  check_one_gpu_run(h200());
  const lab::ResultTable table = ch09::pipeline_table(one_gpu_pipeline(h200()));
  CHECK(lab_test::cell(table, "1 GPU", "min_vs_bound_percent") ==
        doctest::Approx(number(h200().row("pipeline", "1 GPU"), "min_vs_bound_percent")));
  // As printed: the fastest of 10 runs 8.921 ms, 1.6 % under the kernel's 9.065 ms.
  CHECK(lab_test::cell(table, "1 GPU", "min_vs_bound_percent") == doctest::Approx(-1.59).epsilon(0.01));
  CHECK(lab_test::cell(table, "1 GPU", "bound_ms") == doctest::Approx(9.065).epsilon(1e-4));
  const lab::ResultTable ownership = ch09::ownership_table(one_gpu_ownership(h200()));
  CHECK(ownership.row("cudaSetDevice(1), one past the last device").get("as_documented").text() == "yes");
}

TEST_CASE("ch09 replay, H100 run 5 of 2026-11-25 (one GPU): the new code's verdicts on its numbers") {
  check_one_gpu_run(h100());
  // Run 5 printed the fastest run's distance under the bound as a finding (under_bound); today it is
  // the table's "fastest vs bound" column.
  const lab::ResultTable table = ch09::pipeline_table(one_gpu_pipeline(h100()));
  CHECK(lab_test::cell(table, "1 GPU", "min_vs_bound_percent") ==
        doctest::Approx(-h100().finding("under_bound").at("values").at("most_under_percent").get<double>()));
}

TEST_CASE("ch09 replay, two H200s (run 3 of 2026-11-22): every check as that run printed it") {
  const std::vector<lab::Finding> ownership = ch09::ownership_checks(two_gpu_ownership());
  CHECK(lab_test::by_id(ownership, "invalid_device_fails").passed ==
        old_passed("cudaSetDevice of a device that is not there fails"));
  CHECK(lab_test::by_id(ownership, "cross_copy_arrives").passed ==
        old_passed("a copy queued on another device's stream arrives"));
  CHECK(lab_test::by_id(ownership, "devices_usable_after").passed ==
        old_passed("the failed calls left every device usable"));

  const std::vector<lab::Finding> copies = ch09::peer_copy_checks(two_gpu_copies());
  CHECK(lab_test::by_id(copies, "bytes_arrived").passed == old_passed("the bytes arrived on GPU 1"));
  CHECK(lab_test::by_id(copies, "peer_kernel_read").passed == old_passed("a kernel on GPU 1 read GPU 0's memory"));
  CHECK(lab_test::by_id(copies, "peer_beats_staging").passed ==
        old_passed("with peer access the copy beats staging through the host"));
  CHECK(lab_test::value(copies, "peer_beats_staging", "on_gbps") ==
        doctest::Approx(number(old_row("cudaMemcpyPeerAsync, peer access on"), "gbps")));
  CHECK(lab_test::value(copies, "peer_beats_staging", "staged_gbps") ==
        doctest::Approx(number(old_row("through pinned host memory (two copies)"), "gbps")));

  const std::vector<lab::Finding> ordering = ch09::ordering_checks(two_gpu_ordering());
  CHECK(lab_test::by_id(ordering, "event_orders").passed == old_passed("an event orders GPU 1 after GPU 0"));

  const std::vector<lab::Finding> pipeline = ch09::pipeline_checks(two_gpu_pipeline());
  CHECK(pipeline.size() == 2);  // one correctness check per variant, no skip
  for (const lab::Finding& f : pipeline) CHECK(f.passed == old_passed(f.name));

  const std::vector<lab::Finding> summary =
      ch09::summary_checks(two_gpu_ownership(), two_gpu_copies(), two_gpu_ordering(), two_gpu_pipeline());
  CHECK(lab_test::by_id(summary, "summary").id == "summary.all_ran");
}

TEST_CASE("ch09 replay, two H200s (run 3 of 2026-11-22): today's tables on its numbers") {
  // The bound of two GPUs, recomputed from the rates together and the kernel shared, is the one run 3
  // printed (the kernel's half: 4.520 ms), and two GPUs' 1.81x is against the 2.00x the bounds allow.
  const ch09::PipelineRun pipeline = two_gpu_pipeline();
  CHECK(pipeline.variants[1].bound_ms == doctest::Approx(number(old_row("2 GPUs"), "bound_ms")));
  const lab::ResultTable table = ch09::pipeline_table(pipeline);
  CHECK(lab_test::cell(table, "2 GPUs", "speedup") == doctest::Approx(number(old_row("2 GPUs"), "speedup")));
  CHECK(lab_test::cell(table, "2 GPUs", "allowed_speedup") == doctest::Approx(2.0));
  // Both GPUs copying at once kept 98.5 % (to device) and 94.5 % (to host) of the sum of their rates alone.
  const lab::ResultTable link = ch09::host_link_table(pipeline.link);
  CHECK(lab_test::cell(link, "all 2 at once", "h2d_sum_percent") == doctest::Approx(98.54).epsilon(0.001));
  CHECK(lab_test::cell(link, "all 2 at once", "d2h_sum_percent") == doctest::Approx(94.46).epsilon(0.001));
  // One cross-device call did not behave as the guide says: a kernel launched into another device's stream.
  const lab::ResultTable ownership = ch09::ownership_table(two_gpu_ownership());
  CHECK(ownership.row("kernel launch into a stream of GPU 1").get("as_documented").text() == "no");
  int as_documented = 0;
  for (const char* call : kCalls) as_documented += ownership.row(call).get("as_documented").text() == "yes";
  CHECK(as_documented == 6);
}
