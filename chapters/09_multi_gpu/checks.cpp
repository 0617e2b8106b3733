#include "checks.hpp"

#include <algorithm>
#include <numeric>

#include "tables.hpp"
#include "vocabulary.hpp"

namespace ch09 {

std::string two_gpu_reason(const DeviceSet& devices) {
  if (devices.used >= 2) return "";
  if (devices.visible >= 2)
    return lab::format("needs 2 GPUs; --devices %d of the %d this machine shows", devices.used, devices.visible);
  return lab::format("needs 2 GPUs; this machine shows %d", devices.visible);
}

// --- 1. What belongs to a device -------------------------------------------------

lab::ResultTable ownership_table(const OwnershipRun& run) {
  lab::ResultTable table("ownership", "Calls made across devices, and what each returned", "call",
                         {{"situation", "situation", "", 0},
                          {"guide_says", "documented", "", 0},
                          {"returned", "returned", "", 0},
                          {"as_documented", "as documented", "", 0}});
  const auto add = [&](const std::string& call, const std::string& situation, const std::string& documented,
                       const std::string& returned, bool as_documented) {
    table.add_row(call)
        .set("situation", situation)
        .set("guide_says", documented)
        .set("returned", returned)
        .set("as_documented", as_documented ? "yes" : "no");
  };
  add(lab::format("cudaSetDevice(%d), one past the last device", run.visible),
      lab::format("%d device(s) visible", run.visible), "fails (Runtime API)", run.set_invalid_device,
      run.set_invalid_device != "cudaSuccess");
  const char* note = "each error was read back and cleared with cudaGetLastError before the next call";
  if (!run.skipped.empty()) return table.note(note);
  add("cudaGetDevice in the main thread", "after its cudaSetDevice(1)", "device 1",
      lab::format("device %d", run.main_thread_device), run.main_thread_device == 1);
  add("cudaGetDevice in a thread started then", "no cudaSetDevice in it", "device 0",
      lab::format("device %d", run.new_thread_device), run.new_thread_device == 0);
  add("cudaPointerGetAttributes of memory from cudaMalloc", "GPU 1 current at cudaMalloc", "device 1",
      lab::format("device %d", run.buffer_device), run.buffer_device == 1);
  for (const CallProbe& call : run.calls)
    add(call.call, call.situation, call.documented_ok ? "succeeds" : "fails", call.returned,
        (call.returned == "cudaSuccess") == call.documented_ok);
  return table.note(note);
}

std::vector<lab::Finding> ownership_checks(const OwnershipRun& run) {
  const lab::Finding invalid =
      lab::correctness_check("invalid_device_fails", "cudaSetDevice of a device that is not there fails",
                             run.set_invalid_device != "cudaSuccess",
                             lab::format("cudaSetDevice(%d) returned ", run.visible) + run.set_invalid_device);
  if (!run.skipped.empty()) return {invalid, lab::skipped("ownership", "the probes across two devices", run.skipped)};
  return {invalid,
          lab::correctness_check("cross_copy_arrives", "a copy queued on another device's stream arrives",
                                 run.cross_copy.passed(), run.cross_copy.detail()),
          lab::correctness_check(
              "devices_usable_after", "the failed calls left every device usable", run.devices_usable_after,
              run.devices_usable_after ? "cudaDeviceSynchronize returned cudaSuccess on every device after the probes"
                                       : "a device reported an error after the probes")};
}

// --- 2. Peer access ----------------------------------------------------------------

std::vector<lab::Finding> peer_matrix_checks(const PeerMatrix& matrix) {
  if (matrix.devices >= 2) return {};  // the matrix is the table
  return {lab::skipped("peer_access", "peer access", lab::format("needs 2 GPUs; %d in use", matrix.devices))};
}

std::vector<lab::Finding> peer_copy_checks(const PeerCopyRun& run) {
  if (!run.skipped.empty()) return {lab::skipped("peer_copies", "the copies between GPUs", run.skipped)};
  std::vector<lab::Finding> findings = {lab::correctness_check("bytes_arrived", "the bytes arrived on GPU 1",
                                                               run.copy_result.passed(), run.copy_result.detail())};
  if (!run.peer_on_skipped.empty()) {
    findings.push_back(lab::skipped("peer_rows", "the peer-access rows", run.peer_on_skipped));
    return findings;
  }
  findings.push_back(lab::correctness_check("peer_kernel_read", "a kernel on GPU 1 read GPU 0's memory",
                                            run.kernel_result.passed(), run.kernel_result.detail()));
  const double on = rate_gbps(run.bytes, run.peer_on_ms);
  const double staged = rate_gbps(run.bytes, run.staged_ms);
  findings.push_back(
      lab::timing_check("peer_beats_staging", "with peer access the copy beats staging through the host", on > staged,
                        lab::format("peer access on %.1f GB/s, through pinned host memory %.1f GB/s", on, staged))
          .with("on_gbps", on)
          .with("staged_gbps", staged));
  return findings;
}

// --- 3. Ordering across devices -----------------------------------------------------

std::vector<lab::Finding> ordering_checks(const OrderingRun& run) {
  if (!run.skipped.empty()) return {lab::skipped("ordering", "ordering across devices", run.skipped)};
  const std::int64_t with = total(run.stale_with_event);
  return {lab::correctness_check("event_orders", "an event orders GPU 1 after GPU 0",
                                 !run.stale_with_event.empty() && with == 0,
                                 lab::format("%lld stale elements in %zu runs with cudaStreamWaitEvent",
                                             (long long)with, run.stale_with_event.size()))
              .with("stale_count", static_cast<long long>(with))};
}

// --- 4. Splitting work over GPUs ----------------------------------------------------

double pipeline_bound_ms(const PipelineRun& run, int devices) {
  const HostLinkRun& link = run.link;
  if (link.h2d_alone_gbps.empty() || link.d2h_alone_gbps.empty() || devices < 1) return 0.0;
  const double h2d = devices == 1 ? link.h2d_alone_gbps[0] : link.h2d_together_gbps;
  const double d2h = devices == 1 ? link.d2h_alone_gbps[0] : link.d2h_together_gbps;
  if (h2d <= 0 || d2h <= 0) return 0.0;
  const double bytes = static_cast<double>(run.n) * sizeof(float);
  const double in_ms = bytes / (h2d * 1e9) * 1e3;
  const double out_ms = bytes / (d2h * 1e9) * 1e3;
  return std::max({in_ms, out_ms, run.kernel_ms / devices});
}

std::vector<lab::Finding> pipeline_checks(const PipelineRun& run) {
  std::vector<lab::Finding> findings;
  for (const PipelineVariant& variant : run.variants)
    findings.push_back(lab::correctness_check("pipeline_output",
                                              lab::format("the output of %d GPU(s)", variant.devices),
                                              variant.result.passed(), variant.result.detail())
                           .with("devices_count", variant.devices));
  if (run.variants.size() < 2) findings.push_back(lab::skipped("split", "the pipeline over several GPUs", run.skipped));
  return findings;
}

// --- 5. One GPU only ----------------------------------------------------------------

std::vector<lab::Finding> summary_checks(const OwnershipRun& ownership, const PeerCopyRun& copies,
                                         const OrderingRun& ordering, const PipelineRun& pipeline) {
  std::string list;
  int skipped = 0;
  auto add = [&](const std::string& section, const std::string& reason) {
    if (!reason.empty()) list += (skipped++ == 0 ? "" : "; ") + section + " (" + reason + ")";
  };
  add("1. the probes across devices", ownership.skipped);
  add("2. the copies between GPUs", copies.skipped);
  if (copies.skipped.empty()) add("2. the peer-access rows", copies.peer_on_skipped);
  add("3. ordering across devices", ordering.skipped);
  add("4. the pipeline over several GPUs", pipeline.skipped);
  if (list.empty()) return {lab::named_observation("summary.all_ran", "every section ran", "nothing was skipped")};
  return {lab::named_observation("summary.partly_skipped", partly_skipped_name(), list + "; the rest ran")
              .with("skipped_count", skipped)};
}

}  // namespace ch09
