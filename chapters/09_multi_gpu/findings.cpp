#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include "statistics.hpp"

namespace ch09 {

namespace {

std::string fixed(double value, int decimals) { return lab::fixed(value, decimals); }

constexpr auto& median_of = lab::median_or_nan;  // NaN when there are no samples

double gbps(double bytes, const std::vector<double>& ms) {
  return ms.empty() ? 0.0 : lab::gigabytes_per_second(bytes, median_of(ms));
}

lab::Finding (&observe)(const std::string&, const std::string&) = lab::named_observation;  // "name: text"

lab::Finding skipped_finding(const std::string& what, const std::string& reason) {
  return observe("skipped", what + " not run: " + reason);
}

std::string gpu(int ordinal) { return "GPU " + std::to_string(ordinal); }

}  // namespace

lab::ResultTable devices_table(const DeviceSet& devices) {
  lab::ResultTable table("The GPUs in use: " + std::to_string(devices.used) + " of the " +
                             std::to_string(devices.visible) + " this machine shows",
                         "device", {{"name", "name", "", 0}});
  for (std::size_t d = 0; d < devices.names.size(); ++d)
    table.add_row(gpu(static_cast<int>(d))).set("name", devices.names[d]);
  table.note("numbered as CUDA numbers them (CUDA_VISIBLE_DEVICES chooses and orders them)");
  return table;
}

std::string two_gpu_reason(const DeviceSet& devices) {
  if (devices.used >= 2) return "";
  if (devices.visible >= 2)
    return "needs 2 GPUs; --devices " + std::to_string(devices.used) + " of the " + std::to_string(devices.visible) +
           " this machine shows";
  return "needs 2 GPUs; this machine shows " + std::to_string(devices.visible);
}

// --- 1. What belongs to a device -------------------------------------------------

lab::ResultTable ownership_table(const OwnershipRun& run) {
  lab::ResultTable table(
      "Calls made across devices, and what each returned", "call",
      {{"situation", "situation", "", 0}, {"guide_says", "documented", "", 0}, {"returned", "returned", "", 0}});
  table.add_row("cudaSetDevice(" + std::to_string(run.visible) + "), one past the last device")
      .set("situation", std::to_string(run.visible) + " device(s) visible")
      .set("guide_says", "fails (Runtime API)")
      .set("returned", run.set_invalid_device);
  for (const CallProbe& call : run.calls)
    table.add_row(call.call)
        .set("situation", call.situation)
        .set("guide_says", call.documented_ok ? "succeeds" : "fails")
        .set("returned", call.returned);
  table.note("each error was read back and cleared with cudaGetLastError before the next call");
  return table;
}

std::vector<lab::Finding> ownership_findings(const OwnershipRun& run) {
  std::vector<lab::Finding> findings;
  findings.push_back(lab::correctness_check(
      "cudaSetDevice of a device that is not there fails", run.set_invalid_device != "cudaSuccess",
      "cudaSetDevice(" + std::to_string(run.visible) + ") returned " + run.set_invalid_device));
  if (!run.skipped.empty()) {
    findings.push_back(skipped_finding("the probes across two devices", run.skipped));
    return findings;
  }
  if (run.main_thread_device == 1 && run.new_thread_device == 0)
    findings.push_back(observe("the current device is per host thread",
                               "after cudaSetDevice(1) the main thread reads device 1, a thread started then reads "
                               "device 0, its own default"));
  else
    findings.push_back(observe("the current device", "after cudaSetDevice(1) the main thread reads device " +
                                                         std::to_string(run.main_thread_device) +
                                                         " and a new thread reads device " +
                                                         std::to_string(run.new_thread_device) +
                                                         ": not the per-thread behaviour the guide describes"));
  findings.push_back(observe("memory belongs to the device current at cudaMalloc",
                             "memory allocated with GPU 1 current reports device " + std::to_string(run.buffer_device) +
                                 " (cudaPointerGetAttributes)"));
  std::size_t as_documented = 0;
  for (const CallProbe& call : run.calls) {
    const bool ok = call.returned == "cudaSuccess";
    if (ok == call.documented_ok) {
      ++as_documented;
      continue;
    }
    findings.push_back(observe("unlike the guide", call.call + " (" + call.situation + ") returned " + call.returned +
                                                       "; the Programming Guide says it " +
                                                       (call.documented_ok ? "succeeds" : "fails")));
  }
  findings.push_back(observe("calls across devices", std::to_string(as_documented) + " of " +
                                                         std::to_string(run.calls.size()) +
                                                         " calls returned what the Programming Guide says"));
  findings.push_back(lab::correctness_check("a copy queued on another device's stream arrives", run.cross_copy.passed(),
                                            run.cross_copy.detail()));
  findings.push_back(lab::correctness_check(
      "the failed calls left every device usable", run.devices_usable_after,
      run.devices_usable_after ? "cudaDeviceSynchronize returned cudaSuccess on every device after the probes"
                               : "a device reported an error after the probes: the errors were sticky"));
  return findings;
}

std::vector<Background> ownership_background() {
  const std::string guide = "CUDA C++ Programming Guide, Multi-Device System: Stream and Event Behavior";
  return {
      {"cudaSetDevice selects the device for the calling host thread; memory is allocated, and streams and events "
       "are created, on the device current when the call is made",
       "CUDA C++ Programming Guide, Multi-Device System: Device Selection"},
      {"a kernel launch fails if it is issued to a stream that is not associated with the current device; a memory "
       "copy succeeds even then",
       guide},
      {"cudaEventRecord fails if the event and the stream belong to different devices; cudaEventElapsedTime fails "
       "if the two events do; cudaEventSynchronize, cudaEventQuery and cudaStreamWaitEvent succeed across devices",
       guide},
  };
}

// --- 2. Peer access ----------------------------------------------------------------

std::string nvlink_version_text(int nvml_version) {
  // nvmlNvlinkVersion_t numbers the versions in order, 2.2 and 3.1 included:
  // the H200's NVLink 4.0 reads 6.
  static const char* const kNames[] = {"invalid", "1.0", "2.0", "2.2", "3.0", "3.1", "4.0", "5.0", "6.0"};
  if (nvml_version >= 0 && nvml_version < static_cast<int>(std::size(kNames))) return kNames[nvml_version];
  return "NVML value " + std::to_string(nvml_version);
}

lab::ResultTable peer_matrix_table(const PeerMatrix& matrix) {
  std::vector<lab::Column> columns;
  for (int to = 0; to < matrix.devices; ++to) columns.push_back({"to_" + std::to_string(to), "to " + gpu(to), "", 0});
  columns.push_back({"nvlinks_active", "NVLinks up", "", 0});
  columns.push_back({"nvlink_version", "NVLink version", "", 0});
  lab::ResultTable table("cudaDeviceCanAccessPeer(from, to), and each GPU's NVLinks (NVML)", "from", columns);
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

lab::ResultTable link_table(const PeerMatrix& matrix) {
  lab::ResultTable table("The link between each pair, as NVML reports it", "pair",
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

std::vector<lab::Finding> peer_matrix_findings(const PeerMatrix& matrix) {
  std::vector<lab::Finding> findings;
  if (matrix.devices < 2) {
    findings.push_back(skipped_finding("peer access", "needs 2 GPUs; " + std::to_string(matrix.devices) + " in use"));
  } else {
    int both = 0;
    int one_way = 0;
    int none = 0;
    for (int a = 0; a < matrix.devices; ++a)
      for (int b = a + 1; b < matrix.devices; ++b) {
        const bool ab = matrix.can_access[a * matrix.devices + b] != 0;
        const bool ba = matrix.can_access[b * matrix.devices + a] != 0;
        if (ab && ba)
          ++both;
        else if (ab || ba)
          ++one_way;
        else
          ++none;
      }
    findings.push_back(observe("peer access", std::to_string(both) + " pair(s) can access each other both ways, " +
                                                  std::to_string(one_way) + " one way only, " + std::to_string(none) +
                                                  " not at all"));
  }
  if (!matrix.nvml_missing.empty()) findings.push_back(observe("the link", "not reported: " + matrix.nvml_missing));
  return findings;
}

lab::ResultTable peer_copy_table(const PeerCopyRun& run) {
  lab::ResultTable table(
      "The same " + fixed(run.bytes / (1024.0 * 1024.0), 0) + " MiB from GPU 0 to GPU 1", "how",
      {{"median", "median", "ms", 3}, {"min", "min", "ms", 3}, {"max", "max", "ms", 3}, {"gbps", "rate", "GB/s", 1}});
  auto add = [&](const std::string& name, const std::vector<double>& ms, double bytes) {
    if (ms.empty()) return;
    table.add_row(name).samples(ms, "ms").set("gbps", gbps(bytes, ms));
  };
  add("cudaMemcpyPeerAsync, peer access on", run.peer_on_ms, run.bytes);
  add("both directions at once, peer access on", run.both_ways_ms, 2 * run.bytes);
  add("cudaMemcpyPeerAsync, peer access off", run.peer_off_ms, run.bytes);
  add("through pinned host memory (two copies)", run.staged_ms, run.bytes);
  add("kernel on GPU 1 reads GPU 1's memory", run.kernel_local_ms, run.bytes);
  add("kernel on GPU 1 reads GPU 0's memory", run.kernel_peer_ms, run.bytes);
  table.note(
      "rate: the bytes moved (both directions: twice the bytes) over the median; the kernels count the bytes "
      "they read");
  return table;
}

std::vector<lab::Finding> peer_copy_findings(const PeerCopyRun& run) {
  std::vector<lab::Finding> findings;
  if (!run.skipped.empty()) {
    findings.push_back(skipped_finding("the copies between GPUs", run.skipped));
    return findings;
  }
  findings.push_back(
      lab::correctness_check("the bytes arrived on GPU 1", run.copy_result.passed(), run.copy_result.detail()));
  if (!run.peer_on_skipped.empty()) {
    findings.push_back(skipped_finding("the peer-access rows", run.peer_on_skipped));
  } else {
    findings.push_back(lab::correctness_check("a kernel on GPU 1 read GPU 0's memory", run.kernel_result.passed(),
                                              run.kernel_result.detail()));
    const double on = gbps(run.bytes, run.peer_on_ms);
    const double staged = gbps(run.bytes, run.staged_ms);
    const double off = gbps(run.bytes, run.peer_off_ms);
    findings.push_back(lab::timing_check(
        "with peer access the copy beats staging through the host", on > staged,
        "peer access on " + fixed(on, 1) + " GB/s, through pinned host memory " + fixed(staged, 1) + " GB/s"));
    if (off > 0)
      findings.push_back(observe("peer access off", "cudaMemcpyPeerAsync moved " + fixed(off, 1) + " GB/s, " +
                                                        fixed(on / off, 2) + "x slower than with peer access on"));
    const double both = gbps(2 * run.bytes, run.both_ways_ms);
    if (both > 0)
      findings.push_back(observe("both directions", "at once they moved " + fixed(both, 1) + " GB/s together, " +
                                                        fixed(both / on, 2) + "x one direction"));
    const double local = gbps(run.bytes, run.kernel_local_ms);
    const double peer = gbps(run.bytes, run.kernel_peer_ms);
    if (local > 0 && peer > 0)
      findings.push_back(observe("reading across", "the kernel read GPU 0's memory at " + fixed(peer, 1) +
                                                       " GB/s, its own at " + fixed(local, 1) + " GB/s (" +
                                                       fixed(local / peer, 1) + "x)"));
  }
  return findings;
}

std::vector<Background> peer_copy_background() {
  return {
      {"cudaDeviceEnablePeerAccess(peer, 0) lets the current device access the peer's memory; the access it "
       "grants is one direction only, so each side calls it for both",
       "CUDA Runtime API, cudaDeviceEnablePeerAccess"},
      {"cudaDeviceCanAccessPeer says whether a device can access a peer's memory; once peer access is enabled, "
       "copies between the two devices no longer need to be staged through the host",
       "CUDA C++ Programming Guide, Multi-Device System: Peer-to-Peer Memory Access and Copy"},
      {"cudaMemcpyPeerAsync is asynchronous with respect to the host and all work on other devices",
       "CUDA Runtime API, cudaMemcpyPeerAsync"},
  };
}

// --- 3. Ordering across devices -----------------------------------------------------

lab::ResultTable ordering_table(const OrderingRun& run) {
  lab::ResultTable table(
      "A consumer on GPU 1 reads what a " + fixed(run.producer_ms, 0) + " ms producer on GPU 0 writes", "consumer",
      {{"runs", "runs", "", 0},
       {"runs_stale", "runs with stale data", "", 0},
       {"stale_total", "stale elements", "", 0},
       {"elements", "elements read", "", 0}});
  auto add = [&](const std::string& name, const std::vector<std::int64_t>& stale) {
    const auto runs_stale = std::count_if(stale.begin(), stale.end(), [](std::int64_t s) { return s > 0; });
    table.add_row(name)
        .set("runs", static_cast<long long>(stale.size()))
        .set("runs_stale", static_cast<long long>(runs_stale))
        .set("stale_total", static_cast<long long>(std::accumulate(stale.begin(), stale.end(), std::int64_t{0})))
        .set("elements", static_cast<long long>(run.n * static_cast<std::int64_t>(stale.size())));
  };
  add("queued right after the producer", run.stale_without_event);
  add("after cudaStreamWaitEvent on the producer's event", run.stale_with_event);
  table.note("stale: an element the consumer read before the producer had written it");
  return table;
}

std::vector<lab::Finding> ordering_findings(const OrderingRun& run) {
  std::vector<lab::Finding> findings;
  if (!run.skipped.empty()) {
    findings.push_back(skipped_finding("ordering across devices", run.skipped));
    return findings;
  }
  const auto total = [](const std::vector<std::int64_t>& v) {
    return std::accumulate(v.begin(), v.end(), std::int64_t{0});
  };
  const std::int64_t with = total(run.stale_with_event);
  findings.push_back(
      lab::correctness_check("an event orders GPU 1 after GPU 0", !run.stale_with_event.empty() && with == 0,
                             std::to_string(with) + " stale elements in " +
                                 std::to_string(run.stale_with_event.size()) + " runs with cudaStreamWaitEvent"));
  const std::int64_t without = total(run.stale_without_event);
  // Say how many runs raced, not only the total: "N stale elements in 5 runs" read as
  // "every run" on two H200s where 4 of 5 runs did (the fifth read no stale element).
  const auto runs_stale = std::count_if(run.stale_without_event.begin(), run.stale_without_event.end(),
                                        [](std::int64_t s) { return s > 0; });
  if (without > 0)
    findings.push_back(
        observe("the race", "without the event the consumer read stale data in " + std::to_string(runs_stale) + " of " +
                                std::to_string(run.stale_without_event.size()) + " runs (" + std::to_string(without) +
                                " stale elements of " +
                                std::to_string(run.n * static_cast<std::int64_t>(run.stale_without_event.size())) +
                                " read): nothing orders two devices' streams"));
  else
    findings.push_back(observe("the race",
                               "did not show in this run: the consumer happened to read after the "
                               "producer every time, which nothing guarantees"));
  return findings;
}

std::vector<Background> ordering_background() {
  return {
      {"cudaStreamWaitEvent succeeds even if the stream and the event belong to different devices, so it can "
       "synchronise several devices with each other",
       "CUDA C++ Programming Guide, Multi-Device System: Stream and Event Behavior"}};
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
      "Pinned host memory to each GPU and back, " + fixed(link.bytes / (1024.0 * 1024.0), 0) + " MiB per GPU", "GPUs",
      {{"h2d_gbps", "host to device", "GB/s", 1}, {"d2h_gbps", "device to host", "GB/s", 1}});
  for (std::size_t d = 0; d < link.h2d_alone_gbps.size(); ++d)
    table.add_row(gpu(static_cast<int>(d)) + " alone")
        .set("h2d_gbps", link.h2d_alone_gbps[d])
        .set("d2h_gbps", d < link.d2h_alone_gbps.size() ? lab::Value(link.d2h_alone_gbps[d]) : lab::Value());
  if (link.h2d_together_gbps > 0)
    table.add_row("all " + std::to_string(link.h2d_alone_gbps.size()) + " at once")
        .set("h2d_gbps", link.h2d_together_gbps)
        .set("d2h_gbps", link.d2h_together_gbps);
  table.note("all at once: every GPU copies its own bytes at the same time; the rate counts the bytes of all of them");
  return table;
}

std::vector<lab::Finding> host_link_findings(const HostLinkRun& link) {
  std::vector<lab::Finding> findings;
  if (link.h2d_alone_gbps.size() < 2 || link.h2d_together_gbps <= 0) {
    findings.push_back(skipped_finding("the shared-link test", "needs 2 GPUs"));
    return findings;
  }
  const double sum = std::accumulate(link.h2d_alone_gbps.begin(), link.h2d_alone_gbps.end(), 0.0);
  const double fastest = *std::max_element(link.h2d_alone_gbps.begin(), link.h2d_alone_gbps.end());
  const double together = link.h2d_together_gbps;
  const std::string numbers = "host to device, all at once " + fixed(together, 1) +
                              " GB/s; the rates alone add up to " + fixed(sum, 1) + " GB/s, the fastest alone " +
                              fixed(fastest, 1) + " GB/s";
  if (together >= kOwnLinkShare * sum)
    findings.push_back(observe("each GPU has its own host link", numbers));
  else if (together <= kSharedLinkFactor * fastest)
    findings.push_back(observe("the GPUs share the host link", numbers));
  else
    findings.push_back(observe("the GPUs share part of the host link", numbers));
  return findings;
}

lab::ResultTable pipeline_table(const PipelineRun& run) {
  lab::ResultTable table("Copy in, kernel, copy out: " + std::to_string(run.chunks) + " chunks of " +
                             fixed(static_cast<double>(run.n) * sizeof(float) / run.chunks / (1024.0 * 1024.0), 1) +
                             " MiB, dealt over the GPUs",
                         "GPUs",
                         {{"median", "median", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"bound_ms", "bound", "ms", 3},
                          {"speedup", "vs 1 GPU", "x", 2}});
  const double one = run.variants.empty() ? 0.0 : median_of(run.variants.front().ms);
  for (const PipelineVariant& variant : run.variants)
    table.add_row(std::to_string(variant.devices) + (variant.devices == 1 ? " GPU" : " GPUs"))
        .samples(variant.ms, "ms")
        .set("bound_ms", variant.bound_ms)
        .set("speedup", one / median_of(variant.ms));
  table.note(
      "host wall time, every device synchronised before and after; bound: the slowest of copy in, copy out "
      "(rates of section 4's first table) and the kernel (" +
      fixed(run.kernel_ms, 3) + " ms on one GPU) shared over the GPUs");
  return table;
}

// The bound comes from separate measurements of the parts (each with its own
// spread), so a run can come in under it: say so with the numbers, never hide it.
// One GPU or several: the one-GPU runs came in under theirs too (H100: 8.911 ms, bound 9.050).
static std::optional<lab::Finding> under_bound_finding(const PipelineRun& run) {
  std::string under;
  for (const PipelineVariant& variant : run.variants) {
    if (variant.ms.empty()) continue;
    const double fastest = *std::min_element(variant.ms.begin(), variant.ms.end());
    if (variant.bound_ms > 0 && fastest < variant.bound_ms)
      under += std::string(under.empty() ? "" : "; ") + std::to_string(variant.devices) + " GPU(s): fastest run " +
               fixed(fastest, 3) + " ms, " + fixed(100.0 * (variant.bound_ms - fastest) / variant.bound_ms, 1) +
               " % under its bound of " + fixed(variant.bound_ms, 3) + " ms";
  }
  if (under.empty()) return std::nullopt;
  return observe("runs faster than the bound",
                 under + ". The bound is built from the parts measured on their own (the kernel alone: " +
                     fixed(run.kernel_ms, 3) +
                     " ms), each with its own spread: it is an estimate, "
                     "not a limit no run can beat");
}

std::vector<lab::Finding> pipeline_findings(const PipelineRun& run) {
  std::vector<lab::Finding> findings;
  for (const PipelineVariant& variant : run.variants)
    findings.push_back(lab::correctness_check("the output of " + std::to_string(variant.devices) + " GPU(s)",
                                              variant.result.passed(), variant.result.detail()));
  if (run.variants.size() < 2) {
    findings.push_back(skipped_finding("the pipeline over several GPUs", run.skipped));
    if (auto under = under_bound_finding(run)) findings.push_back(*under);
    return findings;
  }
  const PipelineVariant& one = run.variants.front();
  const PipelineVariant& all = run.variants.back();
  const double speedup = median_of(one.ms) / median_of(all.ms);
  const double allowed = all.bound_ms > 0 ? one.bound_ms / all.bound_ms : 0.0;
  const std::string numbers = std::to_string(all.devices) + " GPUs took " + fixed(median_of(all.ms), 3) + " ms, " +
                              fixed(speedup, 2) + "x faster than one; the bounds allow " + fixed(allowed, 2) + "x";
  // At least 80 % of the allowed speedup is "most of" it, not all of it (two H200s: 1.82x of 2.00x).
  if (speedup >= allowed)
    findings.push_back(observe("splitting paid all the bounds allow, or more", numbers));
  else if (speedup >= 0.8 * allowed)
    findings.push_back(observe("splitting paid most of what the bound allows", numbers));
  else
    findings.push_back(observe("splitting paid less than the bound allows", numbers));
  if (auto under = under_bound_finding(run)) findings.push_back(*under);
  return findings;
}

std::vector<Background> pipeline_background() {
  return {
      {"each device has its own default stream; commands queued to the default streams of different devices "
       "may run out of order or at the same time, and cudaStreamWaitEvent can make one device's stream wait "
       "for another's",
       "CUDA C++ Programming Guide, Multi-Device System: Stream and Event Behavior"}};
}

// --- 5. One GPU only ----------------------------------------------------------------

std::vector<lab::Finding> summary_findings(const OwnershipRun& ownership, const PeerCopyRun& copies,
                                           const OrderingRun& ordering, const PipelineRun& pipeline) {
  std::string list;
  auto add = [&](const std::string& section, const std::string& reason) {
    if (!reason.empty()) list += (list.empty() ? "" : "; ") + section + " (" + reason + ")";
  };
  add("1. the probes across devices", ownership.skipped);
  add("2. the copies between GPUs", copies.skipped);
  if (copies.skipped.empty()) add("2. the peer-access rows", copies.peer_on_skipped);
  add("3. ordering across devices", ordering.skipped);
  add("4. the pipeline over several GPUs", pipeline.skipped);
  if (list.empty()) return {observe("every section ran", "nothing was skipped")};
  return {observe(partly_skipped_name(), list + "; the rest ran")};
}

}  // namespace ch09
