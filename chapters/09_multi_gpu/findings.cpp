#include "findings.hpp"

#include <algorithm>
#include <numeric>

#include "vocabulary.hpp"

namespace ch09 {

namespace {

std::string gpu(int ordinal) { return "GPU " + std::to_string(ordinal); }

// The rate of moving @p bytes in the median of @p ms; NaN without samples.
double rate_gbps(double bytes, const std::vector<double>& ms) {
  return lab::gigabytes_per_second(bytes, lab::median_or_nan(ms));
}

std::int64_t stale_runs(const std::vector<std::int64_t>& stale) {
  return std::count_if(stale.begin(), stale.end(), [](std::int64_t s) { return s > 0; });
}

std::int64_t total(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); }

}  // namespace

lab::ResultTable devices_table(const DeviceSet& devices) {
  lab::ResultTable table("devices",
                         lab::format("The GPUs in use: %d of the %d this machine shows", devices.used, devices.visible),
                         "device", {{"name", "name", "", 0}});
  for (std::size_t d = 0; d < devices.names.size(); ++d)
    table.add_row(gpu(static_cast<int>(d))).set("name", devices.names[d]);
  table.note("numbered as CUDA numbers them (CUDA_VISIBLE_DEVICES chooses and orders them)");
  return table;
}

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

std::vector<lab::Finding> ownership_findings(const OwnershipRun& run) {
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

std::string nvlink_version_text(int nvml_version) {
  // nvmlNvlinkVersion_t numbers the versions in order, 2.2 and 3.1 included:
  // the H200's NVLink 4.0 reads 6.
  static const char* const kNames[] = {"invalid", "1.0", "2.0", "2.2", "3.0", "3.1", "4.0", "5.0", "6.0"};
  if (nvml_version >= 0 && nvml_version < static_cast<int>(std::size(kNames))) return kNames[nvml_version];
  return lab::format("NVML value %d", nvml_version);
}

static lab::ResultTable peer_matrix_table(const PeerMatrix& matrix) {
  std::vector<lab::Column> columns;
  for (int to = 0; to < matrix.devices; ++to) columns.push_back({"to_" + std::to_string(to), "to " + gpu(to), "", 0});
  columns.push_back({"nvlinks_active", "NVLinks up", "", 0});
  columns.push_back({"nvlink_version", "NVLink version", "", 0});
  lab::ResultTable table("peer_matrix", "cudaDeviceCanAccessPeer(from, to), and each GPU's NVLinks (NVML)", "from",
                         columns);
  for (int from = 0; from < matrix.devices; ++from) {
    lab::ResultTable::Row& row = table.add_row(gpu(from));
    for (int to = 0; to < matrix.devices; ++to)
      row.set("to_" + std::to_string(to),
              from == to ? "itself" : (matrix.can_access[from * matrix.devices + to] != 0 ? "yes" : "no"));
    for (const DeviceLinks& links : matrix.links) {
      if (links.device != from) continue;
      if (links.nvlinks_active >= 0) row.set("nvlinks_active", links.nvlinks_active);
      if (links.nvlink_version >= 0) row.set("nvlink_version", nvlink_version_text(links.nvlink_version));
    }
  }
  if (!matrix.nvml_missing.empty()) table.note("NVML: " + matrix.nvml_missing);
  return table;
}

static lab::ResultTable link_table(const PeerMatrix& matrix) {
  lab::ResultTable table("links", "The link between each pair, as NVML reports it", "pair",
                         {{"common_ancestor", "closest common point", "", 0},
                          {"p2p_read", "P2P read", "", 0},
                          {"p2p_nvlink", "P2P over NVLink", "", 0}});
  for (const PairLink& pair : matrix.pairs) {
    lab::ResultTable::Row& row = table.add_row(gpu(pair.from) + " - " + gpu(pair.to));
    if (!pair.common_ancestor.empty()) row.set("common_ancestor", pair.common_ancestor);
    if (!pair.p2p_read.empty()) row.set("p2p_read", pair.p2p_read);
    if (!pair.p2p_nvlink.empty()) row.set("p2p_nvlink", pair.p2p_nvlink);
  }
  if (!matrix.nvml_missing.empty()) table.note("NVML: " + matrix.nvml_missing);
  return table;
}

std::vector<lab::ResultTable> peer_matrix_tables(const PeerMatrix& matrix) {
  if (matrix.pairs.empty()) return {peer_matrix_table(matrix)};
  return {peer_matrix_table(matrix), link_table(matrix)};
}

std::vector<lab::Finding> peer_matrix_findings(const PeerMatrix& matrix) {
  if (matrix.devices >= 2) return {};  // the matrix is the table
  return {lab::skipped("peer_access", "peer access", lab::format("needs 2 GPUs; %d in use", matrix.devices))};
}

std::vector<lab::ResultTable> peer_copy_tables(const PeerCopyRun& run) {
  if (!run.skipped.empty()) return {};
  lab::ResultTable table("peer_copies", lab::format("The same %.0f MiB from GPU 0 to GPU 1", run.bytes / lab::kMiB),
                         "how",
                         {{"median", "median", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"gbps", "rate", "GB/s", 1},
                          {"vs_peer_on", "vs peer access on", "x", 2}});
  const double on = rate_gbps(run.bytes, run.peer_on_ms);
  auto add = [&](const std::string& name, const std::vector<double>& ms, double bytes) {
    if (ms.empty()) return;
    lab::ResultTable::Row& row = table.add_row(name).samples(ms, "ms").set("gbps", rate_gbps(bytes, ms));
    if (!run.peer_on_ms.empty()) row.set("vs_peer_on", rate_gbps(bytes, ms) / on);
  };
  add("cudaMemcpyPeerAsync, peer access on", run.peer_on_ms, run.bytes);
  add("both directions at once, peer access on", run.both_ways_ms, 2 * run.bytes);
  add("cudaMemcpyPeerAsync, peer access off", run.peer_off_ms, run.bytes);
  add("through pinned host memory (two copies)", run.staged_ms, run.bytes);
  add("kernel on GPU 1 reads GPU 1's memory", run.kernel_local_ms, run.bytes);
  add("kernel on GPU 1 reads GPU 0's memory", run.kernel_peer_ms, run.bytes);
  table.note(
      "rate: the bytes moved (both directions: twice the bytes) over the median; the kernels count the bytes "
      "they read; vs peer access on: the row's rate over the first row's");
  return {table};
}

std::vector<lab::Finding> peer_copy_findings(const PeerCopyRun& run) {
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

std::vector<lab::ResultTable> ordering_tables(const OrderingRun& run) {
  if (!run.skipped.empty()) return {};
  lab::ResultTable table(
      "ordering", lab::format("A consumer on GPU 1 reads what a %.0f ms producer on GPU 0 writes", run.producer_ms),
      "consumer",
      {{"runs", "runs", "", 0},
       {"runs_stale", "runs with stale data", "", 0},
       {"stale_total", "stale elements", "", 0},
       {"elements", "elements read", "", 0}});
  auto add = [&](const std::string& name, const std::vector<std::int64_t>& stale) {
    table.add_row(name)
        .set("runs", static_cast<long long>(stale.size()))
        .set("runs_stale", static_cast<long long>(stale_runs(stale)))
        .set("stale_total", static_cast<long long>(total(stale)))
        .set("elements", static_cast<long long>(run.n * static_cast<std::int64_t>(stale.size())));
  };
  add("queued right after the producer", run.stale_without_event);
  add("after cudaStreamWaitEvent on the producer's event", run.stale_with_event);
  table.note("stale: an element the consumer read before the producer had written it");
  return {table};
}

std::vector<lab::Finding> ordering_findings(const OrderingRun& run) {
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

lab::ResultTable host_link_table(const HostLinkRun& link) {
  lab::ResultTable table(
      "host_link", lab::format("Pinned host memory to each GPU and back, %.0f MiB per GPU", link.bytes / lab::kMiB),
      "GPUs",
      {{"h2d_gbps", "host to device", "GB/s", 1},
       {"d2h_gbps", "device to host", "GB/s", 1},
       {"h2d_sum_percent", "to device, of the sum alone", "%", 1},
       {"d2h_sum_percent", "to host, of the sum alone", "%", 1}});
  for (std::size_t d = 0; d < link.h2d_alone_gbps.size(); ++d)
    table.add_row(gpu(static_cast<int>(d)) + " alone")
        .set("h2d_gbps", link.h2d_alone_gbps[d])
        .set("d2h_gbps", d < link.d2h_alone_gbps.size() ? lab::Value(link.d2h_alone_gbps[d]) : lab::Value());
  const auto sum = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
  if (link.h2d_together_gbps > 0)
    table.add_row(lab::format("all %zu at once", link.h2d_alone_gbps.size()))
        .set("h2d_gbps", link.h2d_together_gbps)
        .set("d2h_gbps", link.d2h_together_gbps)
        .set("h2d_sum_percent", lab::percent_of(link.h2d_together_gbps, sum(link.h2d_alone_gbps)))
        .set("d2h_sum_percent", lab::percent_of(link.d2h_together_gbps, sum(link.d2h_alone_gbps)));
  table.note(
      "all at once: every GPU copies its own bytes at the same time; the rate counts the bytes of all of them; "
      "of the sum alone: that rate over the sum of the rates alone");
  return table;
}

lab::ResultTable pipeline_table(const PipelineRun& run) {
  lab::ResultTable table("pipeline",
                         lab::format("Copy in, kernel, copy out: %d chunks of %.1f MiB, dealt over the GPUs",
                                     run.chunks, static_cast<double>(run.n) * sizeof(float) / run.chunks / lab::kMiB),
                         "GPUs",
                         {{"median", "median", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"bound_ms", "bound", "ms", 3},
                          {"min_vs_bound_percent", "fastest vs bound", "%", 1},
                          {"speedup", "vs 1 GPU", "x", 2},
                          {"allowed_speedup", "bounds allow", "x", 2}});
  if (run.variants.empty()) return table;
  const PipelineVariant& one = run.variants.front();
  for (const PipelineVariant& variant : run.variants) {
    lab::ResultTable::Row& row =
        table.add_row(lab::count_text(static_cast<std::size_t>(variant.devices), "GPU", "GPUs"))
            .samples(variant.ms, "ms")
            .set("bound_ms", variant.bound_ms)
            .set("speedup", lab::median_or_nan(one.ms) / lab::median_or_nan(variant.ms));
    if (variant.bound_ms > 0 && !variant.ms.empty())
      row.set("min_vs_bound_percent", lab::percent_above(row.summary().min, variant.bound_ms))
          .set("allowed_speedup", one.bound_ms / variant.bound_ms);
  }
  table.note(
      lab::format("host wall time, every device synchronised before and after; bound: the slowest of copy in, copy "
                  "out (rates of section 4's first table) and the kernel (%.3f ms on one GPU) shared over the GPUs; "
                  "bounds allow: one GPU's bound over this row's",
                  run.kernel_ms));
  return table;
}

std::vector<lab::Finding> pipeline_findings(const PipelineRun& run) {
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

std::vector<lab::Finding> summary_findings(const OwnershipRun& ownership, const PeerCopyRun& copies,
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
