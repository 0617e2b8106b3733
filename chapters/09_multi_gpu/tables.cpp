#include "tables.hpp"

#include <algorithm>
#include <numeric>

#include "vocabulary.hpp"

namespace ch09 {

namespace {

std::string gpu(int ordinal) { return "GPU " + std::to_string(ordinal); }

}  // namespace

// The rate of moving @p bytes in the median of @p ms; NaN without samples.
double rate_gbps(double bytes, const std::vector<double>& ms) {
  return lab::gigabytes_per_second(bytes, lab::median_or_nan(ms));
}

std::int64_t stale_runs(const std::vector<std::int64_t>& stale) {
  return std::count_if(stale.begin(), stale.end(), [](std::int64_t s) { return s > 0; });
}

std::int64_t total(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); }

lab::ResultTable devices_table(const DeviceSet& devices) {
  lab::ResultTable table("devices",
                         lab::format("The GPUs in use: %d of the %d this machine shows", devices.used, devices.visible),
                         "device", {{"name", "name", "", 0}});
  for (std::size_t d = 0; d < devices.names.size(); ++d)
    table.add_row(gpu(static_cast<int>(d))).set("name", devices.names[d]);
  table.note("numbered as CUDA numbers them (CUDA_VISIBLE_DEVICES chooses and orders them)");
  return table;
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

// --- 4. Splitting work over GPUs ----------------------------------------------------

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

}  // namespace ch09
