#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "vocabulary.hpp"

namespace ch09 {

namespace {

// "<id>.skipped": a section (or part of one) that needs what this run lacks.
lab::Finding skipped_finding(const std::string& id, const std::string& what, const std::string& reason) {
  return lab::named_observation(id + ".skipped", "skipped", what + " not run: " + reason);
}

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
  lab::ResultTable table(
      "ownership", "Calls made across devices, and what each returned", "call",
      {{"situation", "situation", "", 0}, {"guide_says", "documented", "", 0}, {"returned", "returned", "", 0}});
  table.add_row(lab::format("cudaSetDevice(%d), one past the last device", run.visible))
      .set("situation", lab::format("%d device(s) visible", run.visible))
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

static lab::Finding current_device(const OwnershipRun& run) {
  lab::Finding f =
      run.main_thread_device == 1 && run.new_thread_device == 0
          ? lab::named_observation("current_device.per_thread", "the current device is per host thread",
                                   "after cudaSetDevice(1) the main thread reads device 1, a thread started then reads "
                                   "device 0, its own default")
          : lab::named_observation(
                "current_device.not_per_thread", "the current device",
                lab::format("after cudaSetDevice(1) the main thread reads device %d and a new thread "
                            "reads device %d: not the per-thread behaviour the guide describes",
                            run.main_thread_device, run.new_thread_device));
  return f.with("main_thread_device", run.main_thread_device).with("new_thread_device", run.new_thread_device);
}

static std::vector<lab::Finding> calls_against_guide(const OwnershipRun& run) {
  std::vector<lab::Finding> findings;
  int as_documented = 0;
  for (const CallProbe& call : run.calls) {
    if ((call.returned == "cudaSuccess") == call.documented_ok) {
      ++as_documented;
      continue;
    }
    findings.push_back(lab::named_observation("unlike_guide", "unlike the guide",
                                              call.call + " (" + call.situation + ") returned " + call.returned +
                                                  "; the Programming Guide says it " +
                                                  (call.documented_ok ? "succeeds" : "fails")));
  }
  findings.push_back(lab::named_observation("calls_as_documented", "calls across devices",
                                            lab::format("%d of %zu calls returned what the Programming Guide says",
                                                        as_documented, run.calls.size()))
                         .with("as_documented_count", as_documented)
                         .with("calls_count", run.calls.size()));
  return findings;
}

std::vector<lab::Finding> ownership_findings(const OwnershipRun& run) {
  std::vector<lab::Finding> findings = {
      lab::correctness_check("invalid_device_fails", "cudaSetDevice of a device that is not there fails",
                             run.set_invalid_device != "cudaSuccess",
                             lab::format("cudaSetDevice(%d) returned ", run.visible) + run.set_invalid_device)};
  if (!run.skipped.empty())
    return {findings[0], skipped_finding("ownership", "the probes across two devices", run.skipped)};
  findings.push_back(current_device(run));
  findings.push_back(lab::named_observation("buffer_device", "memory belongs to the device current at cudaMalloc",
                                            lab::format("memory allocated with GPU 1 current reports device %d "
                                                        "(cudaPointerGetAttributes)",
                                                        run.buffer_device))
                         .with("device", run.buffer_device));
  for (const lab::Finding& f : calls_against_guide(run)) findings.push_back(f);
  findings.push_back(lab::correctness_check("cross_copy_arrives", "a copy queued on another device's stream arrives",
                                            run.cross_copy.passed(), run.cross_copy.detail()));
  findings.push_back(lab::correctness_check(
      "devices_usable_after", "the failed calls left every device usable", run.devices_usable_after,
      run.devices_usable_after ? "cudaDeviceSynchronize returned cudaSuccess on every device after the probes"
                               : "a device reported an error after the probes: the errors were sticky"));
  return findings;
}

std::vector<lab::Background> ownership_background() {
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
  std::vector<lab::Finding> findings;
  if (matrix.devices < 2) {
    findings.push_back(
        skipped_finding("peer_access", "peer access", lab::format("needs 2 GPUs; %d in use", matrix.devices)));
  } else {
    int both = 0, one_way = 0, none = 0;
    for (int a = 0; a < matrix.devices; ++a)
      for (int b = a + 1; b < matrix.devices; ++b) {
        const int ways =
            (matrix.can_access[a * matrix.devices + b] != 0) + (matrix.can_access[b * matrix.devices + a] != 0);
        ++(ways == 2 ? both : ways == 1 ? one_way : none);
      }
    findings.push_back(
        lab::named_observation("peer_access", "peer access",
                               lab::format("%d pair(s) can access each other both ways, %d one way only, "
                                           "%d not at all",
                                           both, one_way, none))
            .with("both_ways_count", both)
            .with("one_way_count", one_way)
            .with("none_count", none));
  }
  if (!matrix.nvml_missing.empty())
    findings.push_back(
        lab::named_observation("links.not_reported", "the link", "not reported: " + matrix.nvml_missing));
  return findings;
}

std::vector<lab::ResultTable> peer_copy_tables(const PeerCopyRun& run) {
  if (!run.skipped.empty()) return {};
  lab::ResultTable table(
      "peer_copies", lab::format("The same %.0f MiB from GPU 0 to GPU 1", run.bytes / lab::kMiB), "how",
      {{"median", "median", "ms", 3}, {"min", "min", "ms", 3}, {"max", "max", "ms", 3}, {"gbps", "rate", "GB/s", 1}});
  auto add = [&](const std::string& name, const std::vector<double>& ms, double bytes) {
    if (!ms.empty()) table.add_row(name).samples(ms, "ms").set("gbps", rate_gbps(bytes, ms));
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
  return {table};
}

// The rates of the peer-access rows: off, both ways, a kernel reading across.
static std::vector<lab::Finding> peer_rates(const PeerCopyRun& run, double on) {
  std::vector<lab::Finding> findings;
  const double off = rate_gbps(run.bytes, run.peer_off_ms);
  if (off > 0)
    findings.push_back(lab::named_observation("peer_off", "peer access off",
                                              lab::format("cudaMemcpyPeerAsync moved %.1f GB/s, %.2fx slower than with "
                                                          "peer access on",
                                                          off, on / off))
                           .with("off_gbps", off));
  const double both = rate_gbps(2 * run.bytes, run.both_ways_ms);
  if (both > 0)
    findings.push_back(lab::named_observation(
                           "both_directions", "both directions",
                           lab::format("at once they moved %.1f GB/s together, %.2fx one direction", both, both / on))
                           .with("both_gbps", both));
  const double local = rate_gbps(run.bytes, run.kernel_local_ms);
  const double peer = rate_gbps(run.bytes, run.kernel_peer_ms);
  if (local > 0 && peer > 0)
    findings.push_back(
        lab::named_observation("reading_across", "reading across",
                               lab::format("the kernel read GPU 0's memory at %.1f GB/s, its own at %.1f "
                                           "GB/s (%.1fx)",
                                           peer, local, local / peer))
            .with("peer_gbps", peer)
            .with("local_gbps", local));
  return findings;
}

std::vector<lab::Finding> peer_copy_findings(const PeerCopyRun& run) {
  if (!run.skipped.empty()) return {skipped_finding("peer_copies", "the copies between GPUs", run.skipped)};
  std::vector<lab::Finding> findings = {lab::correctness_check("bytes_arrived", "the bytes arrived on GPU 1",
                                                               run.copy_result.passed(), run.copy_result.detail())};
  if (!run.peer_on_skipped.empty()) {
    findings.push_back(skipped_finding("peer_rows", "the peer-access rows", run.peer_on_skipped));
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
  for (const lab::Finding& f : peer_rates(run, on)) findings.push_back(f);
  return findings;
}

std::vector<lab::Background> peer_copy_background() {
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
  if (!run.skipped.empty()) return {skipped_finding("ordering", "ordering across devices", run.skipped)};
  const std::int64_t with = total(run.stale_with_event);
  std::vector<lab::Finding> findings = {
      lab::correctness_check("event_orders", "an event orders GPU 1 after GPU 0",
                             !run.stale_with_event.empty() && with == 0,
                             lab::format("%lld stale elements in %zu runs with cudaStreamWaitEvent", (long long)with,
                                         run.stale_with_event.size()))
          .with("stale_count", static_cast<long long>(with))};
  const std::int64_t without = total(run.stale_without_event);
  const auto runs = static_cast<long long>(run.stale_without_event.size());
  // Say how many runs raced, not only the total: "N stale elements in 5 runs" read as
  // "every run" on two H200s where 4 of 5 runs did (the fifth read no stale element).
  if (without == 0)
    return {findings[0], lab::named_observation("race.not_shown", "the race",
                                                "did not show in this run: the consumer happened to read after the "
                                                "producer every time, which nothing guarantees")};
  findings.push_back(
      lab::named_observation("race.shown", "the race",
                             lab::format("without the event the consumer read stale data in %lld of %lld "
                                         "runs (%lld stale elements of %lld read): nothing orders two "
                                         "devices' streams",
                                         (long long)stale_runs(run.stale_without_event), runs, (long long)without,
                                         (long long)run.n * runs))
          .with("stale_runs_count", static_cast<long long>(stale_runs(run.stale_without_event)))
          .with("stale_count", static_cast<long long>(without)));
  return findings;
}

std::vector<lab::Background> ordering_background() {
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
      "host_link", lab::format("Pinned host memory to each GPU and back, %.0f MiB per GPU", link.bytes / lab::kMiB),
      "GPUs", {{"h2d_gbps", "host to device", "GB/s", 1}, {"d2h_gbps", "device to host", "GB/s", 1}});
  for (std::size_t d = 0; d < link.h2d_alone_gbps.size(); ++d)
    table.add_row(gpu(static_cast<int>(d)) + " alone")
        .set("h2d_gbps", link.h2d_alone_gbps[d])
        .set("d2h_gbps", d < link.d2h_alone_gbps.size() ? lab::Value(link.d2h_alone_gbps[d]) : lab::Value());
  if (link.h2d_together_gbps > 0)
    table.add_row(lab::format("all %zu at once", link.h2d_alone_gbps.size()))
        .set("h2d_gbps", link.h2d_together_gbps)
        .set("d2h_gbps", link.d2h_together_gbps);
  table.note("all at once: every GPU copies its own bytes at the same time; the rate counts the bytes of all of them");
  return table;
}

std::vector<lab::Finding> host_link_findings(const HostLinkRun& link) {
  if (link.h2d_alone_gbps.size() < 2 || link.h2d_together_gbps <= 0)
    return {skipped_finding("host_link", "the shared-link test", "needs 2 GPUs")};
  const double sum = std::accumulate(link.h2d_alone_gbps.begin(), link.h2d_alone_gbps.end(), 0.0);
  const double fastest = *std::max_element(link.h2d_alone_gbps.begin(), link.h2d_alone_gbps.end());
  const double together = link.h2d_together_gbps;
  const std::string numbers = lab::format(
      "host to device, all at once %.1f GB/s; the rates alone add up to %.1f GB/s, the fastest alone %.1f GB/s",
      together, sum, fastest);
  lab::Finding f =
      together >= kOwnLinkShare * sum
          ? lab::named_observation("host_link.own", "each GPU has its own host link", numbers)
      : together <= kSharedLinkFactor * fastest
          ? lab::named_observation("host_link.shared", "the GPUs share the host link", numbers)
          : lab::named_observation("host_link.partly_shared", "the GPUs share part of the host link", numbers);
  return {f.with("together_gbps", together).with("sum_gbps", sum).with("fastest_gbps", fastest)};
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
                          {"speedup", "vs 1 GPU", "x", 2}});
  const double one = run.variants.empty() ? 0.0 : lab::median_or_nan(run.variants.front().ms);
  for (const PipelineVariant& variant : run.variants)
    table.add_row(lab::count_text(static_cast<std::size_t>(variant.devices), "GPU", "GPUs"))
        .samples(variant.ms, "ms")
        .set("bound_ms", variant.bound_ms)
        .set("speedup", one / lab::median_or_nan(variant.ms));
  table.note(
      lab::format("host wall time, every device synchronised before and after; bound: the slowest of copy in, copy "
                  "out (rates of section 4's first table) and the kernel (%.3f ms on one GPU) shared over the GPUs",
                  run.kernel_ms));
  return table;
}

// The bound comes from separate measurements of the parts (each with its own
// spread), so a run can come in under it: say so with the numbers, never hide it.
// One GPU or several: the one-GPU runs came in under theirs too (H100: 8.911 ms, bound 9.050).
static std::optional<lab::Finding> under_bound_finding(const PipelineRun& run) {
  std::string under;
  double most_under_percent = 0;
  for (const PipelineVariant& variant : run.variants) {
    if (variant.ms.empty()) continue;
    const double fastest = *std::min_element(variant.ms.begin(), variant.ms.end());
    if (variant.bound_ms <= 0 || fastest >= variant.bound_ms) continue;
    const double percent = -lab::percent_above(fastest, variant.bound_ms);
    most_under_percent = std::max(most_under_percent, percent);
    under += lab::format("%s%d GPU(s): fastest run %.3f ms, %.1f %% under its bound of %.3f ms",
                         under.empty() ? "" : "; ", variant.devices, fastest, percent, variant.bound_ms);
  }
  if (under.empty()) return std::nullopt;
  return lab::named_observation(
             "under_bound", "runs faster than the bound",
             under + lab::format(". The bound is built from the parts measured on their own (the kernel "
                                 "alone: %.3f ms), each with its own spread: it is an estimate, not a "
                                 "limit no run can beat",
                                 run.kernel_ms))
      .with("most_under_percent", most_under_percent);
}

static lab::Finding split_speedup(const PipelineVariant& one, const PipelineVariant& all) {
  const double speedup = lab::median_or_nan(one.ms) / lab::median_or_nan(all.ms);
  const double allowed = all.bound_ms > 0 ? one.bound_ms / all.bound_ms : 0.0;
  const std::string numbers = lab::format("%d GPUs took %.3f ms, %.2fx faster than one; the bounds allow %.2fx",
                                          all.devices, lab::median_or_nan(all.ms), speedup, allowed);
  // At least 80 % of the allowed speedup is "most of" it, not all of it (two H200s: 1.82x of 2.00x).
  lab::Finding f = speedup >= allowed
                       ? lab::named_observation("split.all", "splitting paid all the bounds allow, or more", numbers)
                   : speedup >= 0.8 * allowed
                       ? lab::named_observation("split.most", "splitting paid most of what the bound allows", numbers)
                       : lab::named_observation("split.less", "splitting paid less than the bound allows", numbers);
  return f.with("speedup", speedup).with("allowed_speedup", allowed);
}

std::vector<lab::Finding> pipeline_findings(const PipelineRun& run) {
  std::vector<lab::Finding> findings;
  for (const PipelineVariant& variant : run.variants)
    findings.push_back(lab::correctness_check("pipeline_output",
                                              lab::format("the output of %d GPU(s)", variant.devices),
                                              variant.result.passed(), variant.result.detail())
                           .with("devices_count", variant.devices));
  findings.push_back(run.variants.size() < 2 ? skipped_finding("split", "the pipeline over several GPUs", run.skipped)
                                             : split_speedup(run.variants.front(), run.variants.back()));
  if (auto under = under_bound_finding(run)) findings.push_back(*under);
  return findings;
}

std::vector<lab::Background> pipeline_background() {
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
