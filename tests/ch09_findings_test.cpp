// Chapter 09's findings on hand-made data: every branch of every function in
// chapters/09_multi_gpu/findings.hpp. No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "findings.hpp"
#include "support/findings_support.hpp"

namespace {

using lab_test::contains;
using lab_test::correct;
using lab_test::finding;

bool has_finding(const std::vector<lab::Finding>& findings, const std::string& name) {
  for (const lab::Finding& f : findings) {
    if (f.name.rfind(name, 0) == 0) return true;
  }
  return false;
}

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

// --- which devices --------------------------------------------------------------------

TEST_CASE("two_gpu_reason: none with two, the machine's count with one, the option when it chose one") {
  CHECK(ch09::two_gpu_reason(machine(2, 2)).empty());
  CHECK(ch09::two_gpu_reason(machine(1, 1)) == "needs 2 GPUs; this machine shows 1");
  CHECK(contains(ch09::two_gpu_reason(machine(4, 1)), "--devices 1 of the 4"));
}

TEST_CASE("devices table: one row per device in use") {
  ch09::DeviceSet devices = machine(4, 2);
  devices.names = {"NVIDIA H200", "NVIDIA H200"};
  const lab::ResultTable table = ch09::devices_table(devices);
  CHECK(table.rows().size() == 2);
  CHECK(table.row("GPU 1").get("name").text() == "NVIDIA H200");
  CHECK(contains(table.title(), "2 of the 4"));
}

// --- 1 --------------------------------------------------------------------------------

TEST_CASE("ownership: as the guide says, on two GPUs") {
  const ch09::OwnershipRun run = two_gpu_ownership();
  const auto findings = ch09::ownership_findings(run);
  CHECK(finding(findings, "cudaSetDevice of a device that is not there fails").passed);
  CHECK(has_finding(findings, "the current device is per host thread"));
  CHECK(contains(finding(findings, "memory belongs").text, "reports device 1"));
  CHECK(!has_finding(findings, "unlike the guide"));
  CHECK(contains(finding(findings, "calls across devices").text, "2 of 2 calls"));
  CHECK(finding(findings, "a copy queued on another device's stream arrives").passed);
  CHECK(finding(findings, "the failed calls left every device usable").passed);

  const lab::ResultTable table = ch09::ownership_table(run);
  CHECK(table.rows().size() == 3);
  CHECK(table.row("kernel launch into a stream of GPU 1").get("guide_says").text() == "fails");
  CHECK(table.row("kernel launch into a stream of GPU 1").get("returned").text() == "cudaErrorInvalidResourceHandle");
}

TEST_CASE("ownership: a call that differs from the guide, a shared current device, sticky errors, a lost copy") {
  ch09::OwnershipRun run = two_gpu_ownership();
  run.set_invalid_device = "cudaSuccess";
  run.new_thread_device = 1;
  run.calls[0].returned = "cudaSuccess";
  run.devices_usable_after = false;
  run.cross_copy = wrong();
  const auto findings = ch09::ownership_findings(run);
  CHECK(!finding(findings, "cudaSetDevice of a device that is not there fails").passed);
  CHECK(contains(finding(findings, "the current device").text, "not the per-thread behaviour"));
  const lab::Finding& unlike = finding(findings, "unlike the guide");
  CHECK(contains(unlike.text, "returned cudaSuccess; the Programming Guide says it fails"));
  CHECK(contains(finding(findings, "calls across devices").text, "1 of 2 calls"));
  CHECK(!finding(findings, "a copy queued on another device's stream arrives").passed);
  CHECK(!finding(findings, "the failed calls left every device usable").passed);
}

TEST_CASE("ownership: one GPU runs the invalid-device probe and skips the rest") {
  ch09::OwnershipRun run;
  run.visible = 1;
  run.set_invalid_device = "cudaErrorInvalidDevice";
  run.skipped = "needs 2 GPUs; this machine shows 1";
  const auto findings = ch09::ownership_findings(run);
  CHECK(findings.size() == 2);
  CHECK(finding(findings, "cudaSetDevice of a device that is not there fails").passed);
  CHECK(contains(finding(findings, "skipped").text, "needs 2 GPUs; this machine shows 1"));
  CHECK(ch09::ownership_table(run).rows().size() == 1);
  CHECK(!ch09::ownership_background().empty());
}

// --- 2 --------------------------------------------------------------------------------

TEST_CASE("peer matrix: both ways, one way, none; NVML missing or answering") {
  ch09::PeerMatrix matrix;
  matrix.devices = 3;
  matrix.can_access = {1, 1, 0,   // GPU 0 reaches 1, not 2
                       1, 1, 1,   // GPU 1 reaches 0 and 2
                       0, 0, 1};  // GPU 2 reaches nobody
  matrix.nvml_missing = "libnvidia-ml.so.1 could not be opened";
  auto findings = ch09::peer_matrix_findings(matrix);
  CHECK(contains(finding(findings, "peer access").text,
                 "1 pair(s) can access each other both ways, 1 one way only, 1 not at all"));
  CHECK(contains(finding(findings, "the link").text, "libnvidia-ml.so.1"));
  const lab::ResultTable table = ch09::peer_matrix_table(matrix);
  CHECK(table.row("GPU 0").get("to_1").text() == "yes");
  CHECK(table.row("GPU 0").get("to_2").text() == "no");
  CHECK(table.row("GPU 2").get("to_2").text() == "itself");

  matrix.nvml_missing.clear();
  matrix.links = {{0, 18, 4}, {1, 18, 4}, {2, 0, -1}};
  matrix.pairs = {{0, 1, "same board", "OK", "OK"}};
  findings = ch09::peer_matrix_findings(matrix);
  CHECK(!has_finding(findings, "the link"));
  CHECK(ch09::peer_matrix_table(matrix).row("GPU 1").get("nvlinks_active").number() == 18);
  const lab::ResultTable links = ch09::link_table(matrix);
  CHECK(links.row("GPU 0 - GPU 1").get("p2p_nvlink").text() == "OK");
}

TEST_CASE("peer matrix: one GPU is skipped") {
  ch09::PeerMatrix matrix;
  matrix.devices = 1;
  matrix.can_access = {1};
  CHECK(contains(finding(ch09::peer_matrix_findings(matrix), "skipped").text, "peer access not run"));
}

TEST_CASE("peer copies: peer access beats staging, with the ratios") {
  const ch09::PeerCopyRun run = nvlink_copies();
  const auto findings = ch09::peer_copy_findings(run);
  CHECK(finding(findings, "the bytes arrived on GPU 1").passed);
  CHECK(finding(findings, "a kernel on GPU 1 read GPU 0's memory").passed);
  const lab::Finding& beats = finding(findings, "with peer access the copy beats staging");
  CHECK(beats.kind == lab::Finding::Kind::timing);
  CHECK(beats.passed);
  CHECK(contains(finding(findings, "peer access off").text, "slower than with peer access on"));
  CHECK(contains(finding(findings, "both directions").text, "x one direction"));
  CHECK(contains(finding(findings, "reading across").text, "its own at"));
  const lab::ResultTable table = ch09::peer_copy_table(run);
  CHECK(table.rows().size() == 6);
  const double gbps = 256.0 * 1024 * 1024 / (0.71e-3) / 1e9;
  CHECK(table.row("cudaMemcpyPeerAsync, peer access on").get("gbps").number() == doctest::Approx(gbps));
  CHECK(table.row("both directions at once, peer access on").get("gbps").number() ==
        doctest::Approx(2 * 256.0 * 1024 * 1024 / (0.755e-3) / 1e9));
  CHECK(!ch09::peer_copy_background().empty());
}

TEST_CASE("peer copies: staging wins, wrong bytes, and no peer access") {
  ch09::PeerCopyRun run = nvlink_copies();
  run.staged_ms = {0.5, 0.5};
  run.copy_result = wrong();
  run.kernel_result = wrong();
  auto findings = ch09::peer_copy_findings(run);
  CHECK(!finding(findings, "the bytes arrived on GPU 1").passed);
  CHECK(!finding(findings, "a kernel on GPU 1 read GPU 0's memory").passed);
  CHECK(!finding(findings, "with peer access the copy beats staging").passed);

  run = nvlink_copies();
  run.peer_on_skipped = "cudaDeviceCanAccessPeer says no";
  run.peer_on_ms.clear();
  run.both_ways_ms.clear();
  run.kernel_local_ms.clear();
  run.kernel_peer_ms.clear();
  findings = ch09::peer_copy_findings(run);
  CHECK(contains(finding(findings, "skipped").text, "the peer-access rows not run"));
  CHECK(!has_finding(findings, "with peer access"));
  CHECK(ch09::peer_copy_table(run).rows().size() == 2);

  ch09::PeerCopyRun one_gpu;
  one_gpu.skipped = "needs 2 GPUs; this machine shows 1";
  findings = ch09::peer_copy_findings(one_gpu);
  CHECK(findings.size() == 1);
  CHECK(contains(findings[0].text, "the copies between GPUs not run"));
}

// --- 3 --------------------------------------------------------------------------------

TEST_CASE("ordering: the event orders, the race shows without it") {
  ch09::OrderingRun run;
  run.n = 1000;
  run.producer_ms = 20;
  run.stale_without_event = {1000, 1000, 400};
  run.stale_with_event = {0, 0, 0};
  const auto findings = ch09::ordering_findings(run);
  CHECK(finding(findings, "an event orders GPU 1 after GPU 0").passed);
  CHECK(contains(finding(findings, "the race").text, "stale data in 3 of 3 runs (2400 stale elements of 3000 read)"));
  run.stale_without_event = {1000, 0, 1000, 1000, 1000};  // the two H200s: 4 of 5 runs raced
  CHECK(contains(finding(ch09::ordering_findings(run), "the race").text,
                 "stale data in 4 of 5 runs (4000 stale elements of 5000 read)"));
  run.stale_without_event = {1000, 1000, 400};
  const lab::ResultTable table = ch09::ordering_table(run);
  CHECK(table.row("queued right after the producer").get("runs_stale").number() == 3);
  CHECK(table.row("queued right after the producer").get("elements").number() == 3000);
  CHECK(table.row("after cudaStreamWaitEvent on the producer's event").get("stale_total").number() == 0);
  CHECK(!ch09::ordering_background().empty());
}

TEST_CASE("ordering: stale data with the event fails; no race is said to be luck; skipped on one GPU") {
  ch09::OrderingRun run;
  run.n = 1000;
  run.stale_without_event = {0, 0};
  run.stale_with_event = {0, 5};
  auto findings = ch09::ordering_findings(run);
  CHECK(!finding(findings, "an event orders GPU 1 after GPU 0").passed);
  CHECK(contains(finding(findings, "the race").text, "did not show in this run"));

  run.stale_with_event.clear();  // no run at all proves nothing
  CHECK(!finding(ch09::ordering_findings(run), "an event orders GPU 1 after GPU 0").passed);

  ch09::OrderingRun skipped;
  skipped.skipped = "GPU 1 cannot access GPU 0's memory (cudaDeviceCanAccessPeer)";
  findings = ch09::ordering_findings(skipped);
  CHECK(findings.size() == 1);
  CHECK(contains(findings[0].text, "cudaDeviceCanAccessPeer"));
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

TEST_CASE("host link: own links, shared, partly shared, one GPU") {
  ch09::HostLinkRun link;
  link.bytes = 1 << 20;
  link.h2d_alone_gbps = {50, 50};
  link.d2h_alone_gbps = {50, 50};
  link.d2h_together_gbps = 90;
  link.h2d_together_gbps = 95;
  CHECK(has_finding(ch09::host_link_findings(link), "each GPU has its own host link"));
  link.h2d_together_gbps = 52;
  CHECK(has_finding(ch09::host_link_findings(link), "the GPUs share the host link"));
  link.h2d_together_gbps = 70;
  CHECK(has_finding(ch09::host_link_findings(link), "the GPUs share part of the host link"));
  CHECK(ch09::host_link_table(link).row("all 2 at once").get("h2d_gbps").number() == 70);
  link.h2d_alone_gbps = {50};
  link.d2h_alone_gbps = {50};
  link.h2d_together_gbps = 0;
  CHECK(has_finding(ch09::host_link_findings(link), "skipped"));
  CHECK(ch09::host_link_table(link).rows().size() == 1);
}

TEST_CASE("pipeline: splitting paid all the bounds allow, most of it, or less; wrong output; one GPU") {
  ch09::PipelineRun run = pipeline(4.2, 2.2);  // bounds 4 and 2: allowed 2x, measured 1.9x
  auto findings = ch09::pipeline_findings(run);
  CHECK(finding(findings, "the output of 1 GPU(s)").passed);
  CHECK(finding(findings, "the output of 2 GPU(s)").passed);
  CHECK(contains(finding(findings, "splitting paid most of what the bound allows").text, "the bounds allow 2.00x"));
  CHECK(!has_finding(findings, "splitting paid all the bounds allow"));  // 1.9x of 2.00x is not all of it
  CHECK(ch09::pipeline_table(run).row("2 GPUs").get("speedup").number() == doctest::Approx(4.2 / 2.2));

  run = pipeline(4.2, 2.0);  // 2.1x where the bounds allow 2x: all of it, not "most of"
  findings = ch09::pipeline_findings(run);
  CHECK(has_finding(findings, "splitting paid all the bounds allow, or more"));
  CHECK(!has_finding(findings, "splitting paid most of"));

  run = pipeline(4.2, 4.0);
  run.variants[1].result = wrong();
  findings = ch09::pipeline_findings(run);
  CHECK(has_finding(findings, "splitting paid less than the bound allows"));
  CHECK(!finding(findings, "the output of 2 GPU(s)").passed);

  run = pipeline(4.2, 4.0);
  run.variants.pop_back();
  run.skipped = "needs 2 GPUs; this machine shows 1";
  findings = ch09::pipeline_findings(run);
  CHECK(contains(finding(findings, "skipped").text, "this machine shows 1"));
  CHECK(ch09::pipeline_table(run).rows().size() == 1);
  CHECK(!ch09::pipeline_background().empty());
}

// --- 5 --------------------------------------------------------------------------------

TEST_CASE("summary: every section ran, or which were skipped and why") {
  const ch09::OwnershipRun ownership = two_gpu_ownership();
  const ch09::PeerCopyRun copies = nvlink_copies();
  ch09::OrderingRun ordering;
  const ch09::PipelineRun run = pipeline(4, 2);
  auto findings = ch09::summary_findings(ownership, copies, ordering, run);
  CHECK(has_finding(findings, "every section ran"));

  ch09::OwnershipRun one_ownership;
  one_ownership.skipped = "needs 2 GPUs; this machine shows 1";
  ch09::PeerCopyRun one_copies;
  one_copies.skipped = one_ownership.skipped;
  one_copies.peer_on_skipped = "never looked at";  // not listed: the whole section was skipped
  ordering.skipped = one_ownership.skipped;
  ch09::PipelineRun one_pipeline;
  one_pipeline.skipped = one_ownership.skipped;
  findings = ch09::summary_findings(one_ownership, one_copies, ordering, one_pipeline);
  const lab::Finding& partly = finding(findings, ch09::partly_skipped_name());
  CHECK(partly.kind == lab::Finding::Kind::observation);
  CHECK(contains(partly.text, "1. the probes across devices (needs 2 GPUs; this machine shows 1)"));
  CHECK(contains(partly.text, "4. the pipeline over several GPUs"));
  CHECK(!contains(partly.text, "never looked at"));

  ch09::PeerCopyRun no_peer = nvlink_copies();
  no_peer.peer_on_skipped = "cudaDeviceCanAccessPeer says no";
  ordering.skipped.clear();
  findings = ch09::summary_findings(ownership, no_peer, ordering, run);
  CHECK(
      contains(finding(findings, "partly skipped").text, "2. the peer-access rows (cudaDeviceCanAccessPeer says no)"));
}

TEST_CASE("NVML's NVLink version values read as versions") {
  CHECK(ch09::nvlink_version_text(6) == "4.0");  // the H200 pair's value
  CHECK(ch09::nvlink_version_text(3) == "2.2");
  CHECK(ch09::nvlink_version_text(7) == "5.0");
  CHECK(ch09::nvlink_version_text(0) == "invalid");
  CHECK(ch09::nvlink_version_text(42) == "NVML value 42");
}

TEST_CASE("pipeline: a run faster than its bound is named with its numbers") {
  ch09::PipelineRun run = pipeline(4.2, 2.2);  // bounds 4 and 2: nothing under them
  CHECK_FALSE(has_finding(ch09::pipeline_findings(run), "runs faster than the bound"));
  run = pipeline(3.9, 2.2);  // the H200 pair's one-GPU run: 8.898 ms against a bound of 9.043
  const std::string text = finding(ch09::pipeline_findings(run), "runs faster than the bound").text;
  CHECK(contains(text, "1 GPU(s): fastest run 3.900 ms, 2.5 % under its bound of 4.000 ms"));
  CHECK(contains(text, "not a limit no run can beat"));
  CHECK_FALSE(contains(text, "2 GPU(s)"));

  // On one GPU too (the H100 and --devices 1 runs: 8.911 ms against 9.050, 8.901 against 9.051).
  run.variants.pop_back();
  run.skipped = "needs 2 GPUs; this machine shows 1";
  auto findings = ch09::pipeline_findings(run);
  CHECK(has_finding(findings, "skipped"));
  CHECK(contains(finding(findings, "runs faster than the bound").text, "1 GPU(s): fastest run 3.900 ms"));
  run = pipeline(4.2, 2.2);
  run.variants.pop_back();
  run.skipped = "needs 2 GPUs; this machine shows 1";
  CHECK_FALSE(has_finding(ch09::pipeline_findings(run), "runs faster than the bound"));
}
