#include "findings_versions.hpp"

#include <algorithm>
#include <cmath>

#include "tma_background.hpp"
#include "vocabulary.hpp"

namespace ch12 {

std::vector<OccupancyPoint> occupancy_points() {
  return {{"8/SM", 8, false}, {"4/SM", 4, false}, {"2/SM", 2, false}, {"1/SM", 1, false}, {"1/SM full", 1, true}};
}

std::vector<OccupancyPoint> extreme_points() {
  const std::vector<OccupancyPoint> all = occupancy_points();
  return {all.front(), all.back()};
}

std::vector<VersionSpec> version_specs() {
  std::vector<VersionSpec> specs{{"direct", 0}, {"sync_staged", 1}};
  for (const char* v : {"pipeline", "tma"}) {
    for (int s = 1; s <= 4; ++s) specs.push_back({v, s});
  }
  return specs;
}

std::vector<VersionSpec> side_by_side_specs() {
  return {{"direct", 0}, {"sync_staged", 1}, {"pipeline", 2}, {"tma", 2}};
}

int fill_tile_floats(std::size_t optin_bytes, std::size_t reserved_bytes, int buffers) {
  const std::size_t usable = optin_bytes > reserved_bytes ? optin_bytes - reserved_bytes : 0;
  const std::size_t floats = usable / sizeof(float) / static_cast<std::size_t>(std::max(1, buffers));
  return static_cast<int>(floats / 128 * 128);
}

double bytes_moved(std::int64_t n) { return 2.0 * sizeof(float) * static_cast<double>(n); }

double run_gbps(const ConfigRun& r, std::int64_t n) {
  return lab::gigabytes_per_second(bytes_moved(n), lab::median_or_nan(r.ms));
}

double copy_gbps(const Sweep& s) { return lab::gigabytes_per_second(bytes_moved(s.n), lab::median_or_nan(s.copy_ms)); }

std::string run_label(const ConfigRun& r) {
  const std::string stages = pipelined_version(r.version) ? " x" + std::to_string(r.stages) : "";
  return r.version + stages + " @ " + r.point + ", w" + std::to_string(r.work);
}

bool pipelined_version(const std::string& version) { return version == "pipeline" || version == "tma"; }

bool pipelined(const ConfigRun& r) { return pipelined_version(r.version) && r.skipped.empty() && !r.ms.empty(); }

bool correct(const ConfigRun& r) {
  return r.skipped.empty() && r.checked > 0 && r.wrong.empty() && r.wrong_after.empty();
}

lab::ResultTable versions_table(const Sweep& s) {
  lab::ResultTable table("versions", "The staged kernel four ways, at many small blocks and at one full block per SM",
                         "version",
                         {{"tile_kib", "tile", "KiB", 1},
                          {"threads", "threads", "", 0},
                          {"shared_kib", "shared", "KiB", 1},
                          {"resident_per_sm", "resident", "/SM", 0},
                          {"median", "median", "ms", 3},
                          {"gbps", "bandwidth", "GB/s", 0},
                          {"percent_of_copy", "of copy", "%", 1},
                          {"checked", "checked", "", 0},
                          {"exact", "exact", "", 0}});
  const double copy = copy_gbps(s);
  for (const ConfigRun& r : s.runs) {
    auto& row = table.add_row(run_label(r));
    row.set("tile_kib", r.tile_floats * sizeof(float) / lab::kKiB).set("threads", r.threads);
    row.set("shared_kib", r.shared_bytes / lab::kKiB).set("resident_per_sm", r.resident_per_sm);
    if (!r.skipped.empty()) {
      row.set("skipped", r.skipped);
      continue;
    }
    row.samples(r.ms, "ms")
        .set("gbps", run_gbps(r, s.n))
        .set("percent_of_copy", lab::percent_of(run_gbps(r, s.n), copy));
    row.set("checked", r.checked).set("exact", correct(r));
  }
  table.note(
      lab::format("%lld floats in and out (%s each); the copy: %.0f GB/s. checked: values compared with the "
                  "CPU before and after timing (and every value of a %s output)",
                  static_cast<long long>(s.n), lab::mib_text(s.n * sizeof(float)).c_str(), copy, "smaller"));
  return table;
}

// Every run that ran was exact before and after timing.
static lab::Finding versions_exact(const Sweep& s) {
  const char* name = "every version equals the CPU, before and after timing";
  int ran = 0;
  for (const ConfigRun& r : s.runs) {
    if (!r.skipped.empty()) continue;
    ++ran;
    if (!correct(r))
      return lab::correctness_check(
                 "versions_exact.wrong", name, false,
                 run_label(r) + ": " + (r.wrong.empty() ? r.wrong_after + " (after timing)" : r.wrong))
          .with("runs", ran);
  }
  if (ran == 0) return lab::correctness_check("versions_exact.none_ran", name, false, "no version ran");
  return lab::correctness_check("versions_exact.all", name, true,
                                lab::format("%d runs, every value checked was exact", ran))
      .with("runs", ran);
}

// Which versions did not run, and why (each version named once).
static lab::Finding versions_skipped(const Sweep& s) {
  std::vector<std::string> named;
  std::string text;
  for (const ConfigRun& r : s.runs) {
    if (r.skipped.empty() || std::find(named.begin(), named.end(), r.version) != named.end()) continue;
    named.push_back(r.version);
    text += (text.empty() ? "" : "; ") + r.version + ": " + r.skipped;
  }
  if (named.empty()) return lab::named_observation("versions_skipped.none", "skipped", "every version ran");
  return lab::named_observation("versions_skipped.some", "skipped", text)
      .with("versions", static_cast<std::int64_t>(named.size()));
}

// The fastest version at each point, against synchronous staging there.
static lab::Finding versions_fastest(const Sweep& s) {
  std::string text;
  lab::Finding f = lab::named_observation("versions_fastest", "fastest", "");
  for (const OccupancyPoint& p : extreme_points()) {
    const ConfigRun *best = nullptr, *sync = nullptr;
    for (const ConfigRun& r : s.runs) {
      if (r.point != p.name || r.ms.empty()) continue;
      if (best == nullptr || run_gbps(r, s.n) > run_gbps(*best, s.n)) best = &r;
      if (r.version == "sync_staged") sync = &r;
    }
    if (best == nullptr) continue;
    const double ratio = sync ? run_gbps(*best, s.n) / run_gbps(*sync, s.n) : NAN;
    text += lab::format("%sat %s: %s, %.0f GB/s (%.2fx sync_staged)", text.empty() ? "" : "; ", p.name.c_str(),
                        run_label(*best).c_str(), run_gbps(*best, s.n), ratio);
    const std::string key = p.fill ? "full_shared" : "high_occupancy";
    f.with(key + "_best_gbps", run_gbps(*best, s.n))
        .with(key + "_ratio_to_sync", ratio)
        .with(key + "_best", best->version);
  }
  f.text = "fastest: " + (text.empty() ? std::string("no version ran") : text);
  return f;
}

std::vector<lab::Finding> versions_findings(const Sweep& s) {
  return {versions_exact(s), versions_skipped(s), versions_fastest(s)};
}

std::vector<lab::Background> versions_background() {
  std::vector<lab::Background> lines{
      {"the copy-and-compute pattern stages data through shared memory; LDGSTS (cp.async, compute capability 8.0+) "
       "gives an efficient asynchronous transfer from global to shared memory for element-wise copies, while "
       "enabling better use of compute resources through overlapped execution; 16-byte copies bypass the L1",
       "CUDA Programming Guide, 4.11.1 Using LDGSTS"},
      {"pipelines are a mechanism for staging work and coordinating multi-buffer producer-consumer patterns, "
       "commonly used to overlap compute with asynchronous data copies; a block-scoped pipeline needs a "
       "cuda::pipeline_shared_state<scope, count>, the resources for up to count concurrent stages",
       "CUDA Programming Guide, 4.10 Pipelines, 4.10.1 Initialization"},
      {"asynchronous barriers extend synchronization beyond __syncthreads() and __syncwarp(), enabling "
       "fine-grained, non-blocking coordination and better overlap of communication and computation",
       "CUDA Programming Guide, 4.9 Asynchronous Barriers"},
      {"the Tensor Memory Accelerator (TMA) makes bulk (one- and multi-dimensional) transfers, and these copy "
       "mechanisms integrate with asynchronous barriers and pipelines",
       "CUDA Programming Guide, 4.11 Asynchronous Data Copies"}};
  for (const lab::Background& line : tma_background()) lines.push_back(line);  // the tma version's rules (tma.cu)
  return lines;
}

}  // namespace ch12
