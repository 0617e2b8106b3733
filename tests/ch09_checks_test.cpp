// Chapter 09's checks and tables on hand-made data: every branch of every function in
// chapters/09_multi_gpu/checks.hpp and tables.hpp (its id, verdict and numbers), and the
// options (rule, memory need). No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../chapters/09_multi_gpu/options.hpp"  // both files are named options.hpp: by path
#include "checks.hpp"
#include "command_line.hpp"
#include "program.hpp"
#include "support/findings_support.hpp"
#include "support/options_support.hpp"
#include "tables.hpp"

namespace {

using lab_test::by_id;
using lab_test::correct;
using lab_test::has_id;
using lab_test::value;

lab::Comparison wrong() {
  lab::Comparison c;
  c.count = 1024;
  c.mismatches = 3;
  c.first.push_back({7, 1.0, std::numeric_limits<double>::quiet_NaN()});
  return c;
}

ch09::DeviceSet machine(int visible, int used) {
  ch09::DeviceSet devices;
  devices.visible = visible;
  devices.used = used;
  return devices;
}

// Section 1 as the Programming Guide describes it, on two GPUs.
ch09::OwnershipRun two_gpu_ownership() {
  ch09::OwnershipRun run;
  run.visible = 2;
  run.set_invalid_device = "cudaErrorInvalidDevice";
  run.main_thread_device = 1;
  run.new_thread_device = 0;
  run.buffer_device = 1;
  run.calls = {{"kernel launch into a stream of GPU 1", "GPU 0 current", false, "cudaErrorInvalidResourceHandle"},
               {"cudaMemcpyAsync GPU 0 -> GPU 1 on a stream of GPU 1", "GPU 0 current", true, "cudaSuccess"}};
  run.devices_usable_after = true;
  run.cross_copy = correct();
  return run;
}

// Section 2's copies on a pair with NVLink: in milliseconds for 256 MiB.
ch09::PeerCopyRun nvlink_copies() {
  ch09::PeerCopyRun run;
  run.bytes = 256.0 * 1024 * 1024;
  run.peer_on_ms = {0.70, 0.71, 0.72};
  run.both_ways_ms = {0.75, 0.76};
  run.peer_off_ms = {10.0, 10.1};
  run.staged_ms = {10.5, 10.6};
  run.kernel_local_ms = {0.12, 0.13};
  run.kernel_peer_ms = {0.80, 0.81};
  run.copy_result = correct();
  run.kernel_result = correct();
  return run;
}

ch09::PipelineRun pipeline(double one_ms, double two_ms) {
  ch09::PipelineRun run;
  run.n = 32 << 20;
  run.chunks = 8;
  run.kernel_ms = 4.0;
  run.link.bytes = 128.0 * 1024 * 1024;
  run.link.h2d_alone_gbps = {50, 50};
  run.link.d2h_alone_gbps = {50, 50};
  run.link.h2d_together_gbps = 100;
  run.link.d2h_together_gbps = 100;
  ch09::PipelineVariant one;
  one.devices = 1;
  one.ms = {one_ms};
  one.bound_ms = ch09::pipeline_bound_ms(run, 1);
  one.result = correct();
  ch09::PipelineVariant two;
  two.devices = 2;
  two.ms = {two_ms};
  two.bound_ms = ch09::pipeline_bound_ms(run, 2);
  two.result = correct();
  run.variants = {one, two};
  return run;
}

}  // namespace

// --- options ------------------------------------------------------------------------

namespace {

// Parses @p args (after the program name) into a fresh ch09::Options.
ch09::Options parsed(std::vector<const char*> args) {
  return lab_test::parsed<ch09::Options>(ch09::add_options, std::move(args));
}

}  // namespace

TEST_CASE("options: defaults, the --chunks rule, the copy size and the memory need") {
  const ch09::Options defaults = parsed({});
  CHECK(defaults.mib == 256);
  CHECK(defaults.n == 32 << 20);
  CHECK(ch09::copy_bytes(defaults) == std::size_t{256} << 20);
  CHECK(parsed({"--n", "8", "--chunks", "8"}).chunks == 8);
  CHECK_THROWS_AS(parsed({"--n", "4", "--chunks", "8"}), lab::UsageError);
  CHECK_THROWS_AS(parsed({"--devices", "-1"}), lab::UsageError);

  // Defaults: section 2's three copies of 256 MiB on GPU 1 outweigh section 4's 2 x 128 MiB.
  lab::MemoryNeed need = ch09::memory_need(defaults);
  CHECK(need.device_bytes == doctest::Approx(3.0 * (256 << 20)));
  CHECK(need.host_bytes == doctest::Approx(4.0 * (256 << 20)));  // 4 x 256 MiB against 5 x 128 MiB
  CHECK(need.what == "--mib 256 --n 32Mi");
  need = ch09::memory_need(parsed({"--mib", "1", "--n", "1Gi"}));
  CHECK(need.device_bytes == doctest::Approx(2.0 * 4 * (1 << 30)));
  need = ch09::memory_need(parsed({"--mib", "8Ki", "--n", "1", "--chunks", "1"}));
  CHECK(need.host_bytes == doctest::Approx(4.0 * 8192 * (1 << 20)));
}

// --- which devices --------------------------------------------------------------------

TEST_CASE("two_gpu_reason: none with two, the machine's count with one, the option when it chose one") {
  CHECK(ch09::two_gpu_reason(machine(2, 2)).empty());
  CHECK(ch09::two_gpu_reason(machine(1, 1)) == "needs 2 GPUs; this machine shows 1");
  CHECK(ch09::two_gpu_reason(machine(4, 1)) == "needs 2 GPUs; --devices 1 of the 4 this machine shows");
}

TEST_CASE("devices table: one row per device in use") {
  ch09::DeviceSet devices = machine(4, 2);
  devices.names = {"NVIDIA H200", "NVIDIA H200"};
  const lab::ResultTable table = ch09::devices_table(devices);
  CHECK(table.id() == "devices");
  CHECK(table.rows().size() == 2);
  CHECK(table.row("GPU 1").get("name").text() == "NVIDIA H200");
}

// --- 1 --------------------------------------------------------------------------------

TEST_CASE("ownership: as the guide says, on two GPUs") {
  const ch09::OwnershipRun run = two_gpu_ownership();
  const auto findings = ch09::ownership_checks(run);
  REQUIRE(findings.size() == 3);
  CHECK(by_id(findings, "invalid_device_fails").passed);
  CHECK(by_id(findings, "cross_copy_arrives").passed);
  CHECK(by_id(findings, "devices_usable_after").passed);

  const lab::ResultTable table = ch09::ownership_table(run);
  CHECK(table.id() == "ownership");
  CHECK(table.rows().size() == 6);  // the invalid device, two current devices, the buffer's device, two calls
  CHECK(table.row("cudaSetDevice(2), one past the last device").get("as_documented").text() == "yes");
  CHECK(table.row("cudaGetDevice in the main thread").get("returned").text() == "device 1");
  CHECK(table.row("cudaGetDevice in a thread started then").get("returned").text() == "device 0");
  CHECK(table.row("cudaGetDevice in a thread started then").get("as_documented").text() == "yes");
  CHECK(table.row("cudaPointerGetAttributes of memory from cudaMalloc").get("as_documented").text() == "yes");
  CHECK(table.row("kernel launch into a stream of GPU 1").get("guide_says").text() == "fails");
  CHECK(table.row("kernel launch into a stream of GPU 1").get("returned").text() == "cudaErrorInvalidResourceHandle");
  CHECK(table.row("kernel launch into a stream of GPU 1").get("as_documented").text() == "yes");
  CHECK(table.row("cudaMemcpyAsync GPU 0 -> GPU 1 on a stream of GPU 1").get("as_documented").text() == "yes");
}

TEST_CASE("ownership: a call that differs from the guide, a shared current device, sticky errors, a lost copy") {
  ch09::OwnershipRun run = two_gpu_ownership();
  run.set_invalid_device = "cudaSuccess";
  run.new_thread_device = 1;
  run.buffer_device = 0;
  run.calls[0].returned = "cudaSuccess";  // the launch the guide says fails (two H200s: it returned cudaSuccess)
  run.calls[1].returned = "cudaErrorInvalidValue";
  run.devices_usable_after = false;
  run.cross_copy = wrong();
  const auto findings = ch09::ownership_checks(run);
  CHECK_FALSE(by_id(findings, "invalid_device_fails").passed);
  CHECK_FALSE(by_id(findings, "cross_copy_arrives").passed);
  CHECK_FALSE(by_id(findings, "devices_usable_after").passed);
  const lab::ResultTable table = ch09::ownership_table(run);
  CHECK(table.row("cudaSetDevice(2), one past the last device").get("as_documented").text() == "no");
  CHECK(table.row("cudaGetDevice in a thread started then").get("as_documented").text() == "no");
  CHECK(table.row("cudaPointerGetAttributes of memory from cudaMalloc").get("as_documented").text() == "no");
  CHECK(table.row("kernel launch into a stream of GPU 1").get("as_documented").text() == "no");
  CHECK(table.row("cudaMemcpyAsync GPU 0 -> GPU 1 on a stream of GPU 1").get("as_documented").text() == "no");
  CHECK(table.row("cudaGetDevice in the main thread").get("as_documented").text() == "yes");
}

TEST_CASE("ownership: one GPU runs the invalid-device probe and skips the rest") {
  ch09::OwnershipRun run;
  run.visible = 1;
  run.set_invalid_device = "cudaErrorInvalidDevice";
  run.skipped = "needs 2 GPUs; this machine shows 1";
  const auto findings = ch09::ownership_checks(run);
  CHECK(findings.size() == 2);
  CHECK(by_id(findings, "invalid_device_fails").passed);
  CHECK(by_id(findings, "ownership").id == "ownership.skipped");
  CHECK(ch09::ownership_table(run).rows().size() == 1);
}

// --- 2 --------------------------------------------------------------------------------

TEST_CASE("peer matrix: both ways, one way, none; NVML missing or answering") {
  ch09::PeerMatrix matrix;
  matrix.devices = 3;
  matrix.can_access = {1, 1, 0,   // GPU 0 reaches 1, not 2
                       1, 1, 1,   // GPU 1 reaches 0 and 2
                       0, 0, 1};  // GPU 2 reaches nobody
  matrix.nvml_missing = "libnvidia-ml.so.1 could not be opened";
  CHECK(ch09::peer_matrix_checks(matrix).empty());  // the matrix is the table
  auto tables = ch09::peer_matrix_tables(matrix);
  REQUIRE(tables.size() == 1);  // no pairs from NVML: no link table
  CHECK(tables[0].id() == "peer_matrix");
  CHECK(tables[0].row("GPU 0").get("to_1").text() == "yes");
  CHECK(tables[0].row("GPU 0").get("to_2").text() == "no");
  CHECK(tables[0].row("GPU 2").get("to_2").text() == "itself");

  matrix.nvml_missing.clear();
  matrix.links = {{0, 18, 4}, {1, 18, 4}, {2, 0, -1}};
  matrix.pairs = {{0, 1, "same board", "OK", "OK"}};
  tables = ch09::peer_matrix_tables(matrix);
  REQUIRE(tables.size() == 2);
  CHECK(tables[0].row("GPU 1").get("nvlinks_active").number() == 18);
  CHECK(tables[1].id() == "links");
  CHECK(tables[1].row("GPU 0 - GPU 1").get("p2p_nvlink").text() == "OK");
}

TEST_CASE("peer matrix: one GPU is skipped") {
  ch09::PeerMatrix matrix;
  matrix.devices = 1;
  matrix.can_access = {1};
  CHECK(by_id(ch09::peer_matrix_checks(matrix), "peer_access").id == "peer_access.skipped");
}

TEST_CASE("peer copies: peer access beats staging, each rate against peer access on") {
  const ch09::PeerCopyRun run = nvlink_copies();
  const auto findings = ch09::peer_copy_checks(run);
  REQUIRE(findings.size() == 3);
  CHECK(by_id(findings, "bytes_arrived").passed);
  CHECK(by_id(findings, "peer_kernel_read").passed);
  const lab::Finding& beats = by_id(findings, "peer_beats_staging");
  CHECK(beats.kind == lab::Finding::Kind::timing);
  CHECK(beats.passed);
  const double mib256 = 256.0 * 1024 * 1024;
  CHECK(value(findings, "peer_beats_staging", "on_gbps") == doctest::Approx(mib256 / 0.71e-3 / 1e9));
  CHECK(value(findings, "peer_beats_staging", "staged_gbps") == doctest::Approx(mib256 / 10.55e-3 / 1e9));
  const auto tables = ch09::peer_copy_tables(run);
  REQUIRE(tables.size() == 1);
  const lab::ResultTable& table = tables[0];
  CHECK(table.id() == "peer_copies");
  CHECK(table.rows().size() == 6);
  CHECK(lab_test::cell(table, "cudaMemcpyPeerAsync, peer access on", "gbps") ==
        doctest::Approx(mib256 / 0.71e-3 / 1e9));
  CHECK(lab_test::cell(table, "both directions at once, peer access on", "gbps") ==
        doctest::Approx(2 * mib256 / 0.755e-3 / 1e9));
  CHECK(lab_test::cell(table, "cudaMemcpyPeerAsync, peer access on", "vs_peer_on") == doctest::Approx(1.0));
  CHECK(lab_test::cell(table, "both directions at once, peer access on", "vs_peer_on") ==
        doctest::Approx(2 * 0.71 / 0.755));
  CHECK(lab_test::cell(table, "cudaMemcpyPeerAsync, peer access off", "vs_peer_on") == doctest::Approx(0.71 / 10.05));
  CHECK(lab_test::cell(table, "kernel on GPU 1 reads GPU 1's memory", "vs_peer_on") == doctest::Approx(0.71 / 0.125));
  CHECK(lab_test::cell(table, "kernel on GPU 1 reads GPU 0's memory", "vs_peer_on") == doctest::Approx(0.71 / 0.805));
}

TEST_CASE("peer copies: staging wins, wrong bytes, and no peer access") {
  ch09::PeerCopyRun run = nvlink_copies();
  run.staged_ms = {0.5, 0.5};
  run.copy_result = wrong();
  run.kernel_result = wrong();
  auto findings = ch09::peer_copy_checks(run);
  CHECK_FALSE(by_id(findings, "bytes_arrived").passed);
  CHECK_FALSE(by_id(findings, "peer_kernel_read").passed);
  CHECK_FALSE(by_id(findings, "peer_beats_staging").passed);

  run = nvlink_copies();
  run.peer_on_skipped = "cudaDeviceCanAccessPeer says no";
  run.peer_on_ms.clear();
  run.both_ways_ms.clear();
  run.kernel_local_ms.clear();
  run.kernel_peer_ms.clear();
  findings = ch09::peer_copy_checks(run);
  CHECK(by_id(findings, "peer_rows").id == "peer_rows.skipped");
  CHECK_FALSE(has_id(findings, "peer_beats_staging"));
  CHECK(ch09::peer_copy_tables(run).at(0).rows().size() == 2);
  CHECK(ch09::peer_copy_tables(run).at(0).row("cudaMemcpyPeerAsync, peer access off").get("vs_peer_on").is_none());

  ch09::PeerCopyRun one_gpu;
  one_gpu.skipped = "needs 2 GPUs; this machine shows 1";
  findings = ch09::peer_copy_checks(one_gpu);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "peer_copies.skipped");
  CHECK(ch09::peer_copy_tables(one_gpu).empty());
}

// --- 3 --------------------------------------------------------------------------------

TEST_CASE("ordering: the event orders; the race is the table's") {
  ch09::OrderingRun run;
  run.n = 1000;
  run.producer_ms = 20;
  run.stale_without_event = {1000, 0, 1000, 1000, 1000};  // the two H200s: 4 of 5 runs raced
  run.stale_with_event = {0, 0, 0, 0, 0};
  const auto findings = ch09::ordering_checks(run);
  REQUIRE(findings.size() == 1);
  CHECK(by_id(findings, "event_orders").passed);
  CHECK(value(findings, "event_orders", "stale_count") == 0);
  const auto tables = ch09::ordering_tables(run);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].id() == "ordering");
  CHECK(tables[0].row("queued right after the producer").get("runs_stale").number() == 4);
  CHECK(tables[0].row("queued right after the producer").get("stale_total").number() == 4000);
  CHECK(tables[0].row("queued right after the producer").get("elements").number() == 5000);
  CHECK(tables[0].row("after cudaStreamWaitEvent on the producer's event").get("stale_total").number() == 0);
}

TEST_CASE("ordering: stale data with the event fails, no run proves nothing; skipped on one GPU") {
  ch09::OrderingRun run;
  run.n = 1000;
  run.stale_without_event = {0, 0};
  run.stale_with_event = {0, 5};
  auto findings = ch09::ordering_checks(run);
  CHECK_FALSE(by_id(findings, "event_orders").passed);
  CHECK(value(findings, "event_orders", "stale_count") == 5);
  CHECK(ch09::ordering_tables(run)[0].row("queued right after the producer").get("runs_stale").number() == 0);

  run.stale_with_event.clear();  // no run at all proves nothing
  CHECK_FALSE(by_id(ch09::ordering_checks(run), "event_orders").passed);

  ch09::OrderingRun skipped;
  skipped.skipped = "GPU 1 cannot access GPU 0's memory (cudaDeviceCanAccessPeer)";
  findings = ch09::ordering_checks(skipped);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].id == "ordering.skipped");
  CHECK(ch09::ordering_tables(skipped).empty());
}

// --- 4 --------------------------------------------------------------------------------

TEST_CASE("pipeline bound: copies or kernel, whichever is slower; 0 without rates") {
  ch09::PipelineRun run = pipeline(10, 5);
  // 128 MiB at 50 GB/s = 2.684 ms; the kernel 4 ms on one GPU, 2 on two; together 100 GB/s: 1.342 ms.
  CHECK(ch09::pipeline_bound_ms(run, 1) == doctest::Approx(4.0));
  CHECK(ch09::pipeline_bound_ms(run, 2) == doctest::Approx(2.0));
  run.kernel_ms = 1.0;
  CHECK(ch09::pipeline_bound_ms(run, 1) == doctest::Approx(128.0 * 1024 * 1024 / 50e9 * 1e3));
  run.link.h2d_together_gbps = 50;  // shared link: two GPUs no faster on the copies
  CHECK(ch09::pipeline_bound_ms(run, 2) == doctest::Approx(128.0 * 1024 * 1024 / 50e9 * 1e3));
  run.link.h2d_together_gbps = 0;
  CHECK(ch09::pipeline_bound_ms(run, 2) == 0);
  run.link.h2d_alone_gbps.clear();
  CHECK(ch09::pipeline_bound_ms(run, 1) == 0);
}

TEST_CASE("host link: all at once against the sum of the rates alone; one GPU") {
  ch09::HostLinkRun link;
  link.bytes = 1 << 20;
  link.h2d_alone_gbps = {50, 50};
  link.d2h_alone_gbps = {50, 40};
  link.h2d_together_gbps = 95;
  link.d2h_together_gbps = 45;
  lab::ResultTable table = ch09::host_link_table(link);
  CHECK(table.id() == "host_link");
  CHECK(table.rows().size() == 3);
  CHECK(lab_test::cell(table, "all 2 at once", "h2d_gbps") == 95);
  CHECK(lab_test::cell(table, "all 2 at once", "h2d_sum_percent") == doctest::Approx(95.0));  // own links
  CHECK(lab_test::cell(table, "all 2 at once", "d2h_sum_percent") == doctest::Approx(50.0));  // one shared link
  CHECK(table.row("GPU 0 alone").get("h2d_sum_percent").is_none());
  link.h2d_alone_gbps = {50};
  link.d2h_alone_gbps = {50};
  link.h2d_together_gbps = 0;
  table = ch09::host_link_table(link);
  CHECK(table.rows().size() == 1);
}

TEST_CASE("pipeline: the speedup beside what the bounds allow; wrong output; one GPU") {
  ch09::PipelineRun run = pipeline(4.2, 2.2);  // bounds 4 and 2: allowed 2x, measured 1.9x
  auto findings = ch09::pipeline_checks(run);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].id == "pipeline_output");
  CHECK(findings[1].id == "pipeline_output");
  CHECK(findings[1].passed);
  CHECK(findings[1].value("devices_count").integer() == 2);
  lab::ResultTable table = ch09::pipeline_table(run);
  CHECK(table.id() == "pipeline");
  CHECK(lab_test::cell(table, "2 GPUs", "speedup") == doctest::Approx(4.2 / 2.2));
  CHECK(lab_test::cell(table, "2 GPUs", "allowed_speedup") == doctest::Approx(2.0));
  CHECK(lab_test::cell(table, "1 GPU", "allowed_speedup") == doctest::Approx(1.0));
  CHECK(lab_test::cell(table, "2 GPUs", "min_vs_bound_percent") == doctest::Approx(10.0));  // 2.2 against 2

  run = pipeline(4.2, 4.0);
  run.variants[1].result = wrong();
  findings = ch09::pipeline_checks(run);
  CHECK_FALSE(findings[1].passed);

  run = pipeline(4.2, 4.0);
  run.variants.pop_back();
  run.skipped = "needs 2 GPUs; this machine shows 1";
  findings = ch09::pipeline_checks(run);
  CHECK(by_id(findings, "split").id == "split.skipped");
  CHECK(ch09::pipeline_table(run).rows().size() == 1);
}

// --- 5 --------------------------------------------------------------------------------

TEST_CASE("summary: every section ran, or which were skipped and why") {
  const ch09::OwnershipRun ownership = two_gpu_ownership();
  const ch09::PeerCopyRun copies = nvlink_copies();
  ch09::OrderingRun ordering;
  const ch09::PipelineRun run = pipeline(4, 2);
  auto findings = ch09::summary_checks(ownership, copies, ordering, run);
  CHECK(by_id(findings, "summary").id == "summary.all_ran");

  ch09::OwnershipRun one_ownership;
  one_ownership.skipped = "needs 2 GPUs; this machine shows 1";
  ch09::PeerCopyRun one_copies;
  one_copies.skipped = one_ownership.skipped;
  one_copies.peer_on_skipped = "never looked at";  // not listed: the whole section was skipped
  ordering.skipped = one_ownership.skipped;
  ch09::PipelineRun one_pipeline;
  one_pipeline.skipped = one_ownership.skipped;
  findings = ch09::summary_checks(one_ownership, one_copies, ordering, one_pipeline);
  const lab::Finding& partly = by_id(findings, "summary");
  CHECK(partly.id == "summary.partly_skipped");
  CHECK(partly.name == ch09::partly_skipped_name());  // the tour finds it by this name
  CHECK(partly.kind == lab::Finding::Kind::observation);
  CHECK(value(findings, "summary", "skipped_count") == 4);  // "never looked at" is not listed

  ch09::PeerCopyRun no_peer = nvlink_copies();
  no_peer.peer_on_skipped = "cudaDeviceCanAccessPeer says no";
  ordering.skipped.clear();
  findings = ch09::summary_checks(ownership, no_peer, ordering, run);
  CHECK(by_id(findings, "summary").id == "summary.partly_skipped");
  CHECK(value(findings, "summary", "skipped_count") == 1);  // the peer-access rows
}

TEST_CASE("NVML's NVLink version values read as versions") {
  CHECK(ch09::nvlink_version_text(6) == "4.0");  // the H200 pair's value
  CHECK(ch09::nvlink_version_text(3) == "2.2");
  CHECK(ch09::nvlink_version_text(7) == "5.0");
  CHECK(ch09::nvlink_version_text(0) == "invalid");
  CHECK(ch09::nvlink_version_text(42) == "NVML value 42");
}

TEST_CASE("pipeline: a run faster than its bound shows a negative 'fastest vs bound'") {
  ch09::PipelineRun run = pipeline(3.9, 2.2);  // the H200 pair's one-GPU run: 8.898 ms against a bound of 9.043
  CHECK(lab_test::cell(ch09::pipeline_table(run), "1 GPU", "min_vs_bound_percent") == doctest::Approx(-2.5));
  // On one GPU too (the H100 and --devices 1 runs: 8.911 ms against 9.050, 8.901 against 9.051).
  run.variants.pop_back();
  run.skipped = "needs 2 GPUs; this machine shows 1";
  CHECK(lab_test::cell(ch09::pipeline_table(run), "1 GPU", "min_vs_bound_percent") == doctest::Approx(-2.5));
  run.variants.front().bound_ms = 0;  // no rates: no bound to compare with
  CHECK(ch09::pipeline_table(run).row("1 GPU").get("min_vs_bound_percent").is_none());
}
