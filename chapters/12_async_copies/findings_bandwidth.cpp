#include "findings_bandwidth.hpp"

#include <algorithm>
#include <cmath>

#include "options.hpp"
#include "vocabulary.hpp"

namespace ch12 {

namespace {

// The fastest run at @p point (all versions when @p pipelined_only is false), or nullptr.
const ConfigRun* fastest(const Sweep& s, const std::string& point, bool pipelined_only, int work = -1) {
  const ConfigRun* best = nullptr;
  for (const ConfigRun& r : s.runs) {
    if (r.point != point || r.ms.empty() || (pipelined_only && !pipelined(r)) || (work >= 0 && r.work != work))
      continue;
    if (best == nullptr || run_gbps(r, s.n) > run_gbps(*best, s.n)) best = &r;
  }
  return best;
}

const ConfigRun* find(const Sweep& s, const std::string& point, const std::string& version) {
  for (const ConfigRun& r : s.runs) {
    if (r.point == point && r.version == version && !r.ms.empty()) return &r;
  }
  return nullptr;
}

double l2_multiple(const Sweep& s) { return s.l2_bytes > 0 ? s.n * sizeof(float) / s.l2_bytes : NAN; }

}  // namespace

lab::ResultTable copy_table(const Sweep& s) {
  lab::ResultTable table("copy", "The limit: chapter 01's device-to-device copy of the same data", "what",
                         {{"mib", "per buffer", "MiB", 1},
                          {"l2_multiple", "x L2", "", 1},
                          {"median", "median", "ms", 3},
                          {"gbps", "bandwidth", "GB/s", 0}});
  table.add_row("cudaMemcpyAsync device to device")
      .samples(s.copy_ms, "ms")
      .set("mib", s.n * sizeof(float) / lab::kMiB)
      .set("l2_multiple", l2_multiple(s))
      .set("gbps", copy_gbps(s));
  table.note(
      "bandwidth counts every float read and written (chapter 01's copy_bytes); the samples taken before "
      "and after the sweep");
  return table;
}

lab::ResultTable sweep_table(const std::string& id, const std::string& title, const Sweep& s) {
  lab::ResultTable table(id, title, "run",
                         {{"tile_kib", "tile", "KiB", 1},
                          {"resident_per_sm", "resident", "/SM", 0},
                          {"median", "median", "ms", 3},
                          {"gbps", "bandwidth", "GB/s", 0},
                          {"percent_of_copy", "of copy", "%", 1},
                          {"exact", "exact", "", 0}});
  const double copy = copy_gbps(s);
  for (const ConfigRun& r : s.runs) {
    auto& row = table.add_row(run_label(r));
    row.set("version", r.version).set("stages", r.stages).set("point", r.point).set("work", r.work);
    row.set("tile_kib", r.tile_floats * sizeof(float) / lab::kKiB).set("resident_per_sm", r.resident_per_sm);
    if (!r.skipped.empty()) {
      row.set("skipped", r.skipped);
      continue;
    }
    row.samples(r.ms, "ms")
        .set("gbps", run_gbps(r, s.n))
        .set("percent_of_copy", lab::percent_of(run_gbps(r, s.n), copy));
    row.set("exact", correct(r));
  }
  table.note(
      lab::format("the copy: %.0f GB/s; resident: blocks one SM holds (the occupancy calculator); "
                  "skipped rows say why in the JSON",
                  copy));
  return table;
}

// Is the working set large enough for the benchmark (8 x the L2)?
static lab::Finding working_set(const Sweep& s) {
  const double m = l2_multiple(s);
  const bool enough = m >= kL2Multiple;
  return lab::named_observation(
             enough ? "working_set.beyond_l2" : "working_set.too_small", "working set",
             lab::format("%s per buffer is %.1fx the L2 (%s): %s", lab::mib_text(s.n * sizeof(float)).c_str(), m,
                         lab::mib_text(s.l2_bytes).c_str(),
                         enough ? "the data stream from DRAM" : "below 8x, the benchmarks are not judged on it"))
      .with("l2_multiple", m);
}

// Benchmark: the best pipelined version at >= 90 % of the copy, over all points.
static lab::Finding best_vs_copy(const Sweep& s) {
  const ConfigRun* best = nullptr;
  for (const OccupancyPoint& p : occupancy_points()) {
    const ConfigRun* b = fastest(s, p.name, true);
    if (b != nullptr && (best == nullptr || run_gbps(*b, s.n) > run_gbps(*best, s.n))) best = b;
  }
  if (best == nullptr)
    return lab::named_observation("best_vs_copy.not_measured", "benchmark", "no pipelined version ran");
  const double percent = lab::percent_of(run_gbps(*best, s.n), copy_gbps(s));
  const bool met = percent >= kCopyShareBenchmark && l2_multiple(s) >= kL2Multiple;
  return lab::named_observation(
             met ? "best_vs_copy.met" : "best_vs_copy.not_met", "benchmark",
             lab::format("best pipelined %s: %.0f GB/s, %.1f %% of the copy's %.0f GB/s (%s %.0f %%%s)",
                         run_label(*best).c_str(), run_gbps(*best, s.n), percent, copy_gbps(s),
                         percent >= kCopyShareBenchmark ? "at least" : "short of", kCopyShareBenchmark,
                         l2_multiple(s) >= kL2Multiple ? "" : "; working set below 8x the L2"))
      .with("percent_of_copy", percent)
      .with("best", run_label(*best));
}

// Benchmark: at one block per SM with tiles that fill shared memory, best pipelined >= 2x sync_staged.
static lab::Finding full_shared_speedup(const Sweep& s) {
  const std::string point = extreme_points().back().name;
  const ConfigRun* best = fastest(s, point, true);
  const ConfigRun* sync = find(s, point, "sync_staged");
  if (best == nullptr || sync == nullptr)
    return lab::named_observation("full_shared_speedup.not_measured", "benchmark",
                                  "at " + point + " a pipelined version or sync_staged did not run");
  const double ratio = run_gbps(*best, s.n) / run_gbps(*sync, s.n);
  const bool met = ratio >= kFullShmemSpeedup;
  return lab::named_observation(
             met ? "full_shared_speedup.met" : "full_shared_speedup.not_met", "benchmark",
             lab::format("at %s the best pipelined (%s) reached %.0f GB/s, sync_staged %.0f GB/s: "
                         "%.2fx (%s %.0fx)",
                         point.c_str(), run_label(*best).c_str(), run_gbps(*best, s.n), run_gbps(*sync, s.n), ratio,
                         met ? "at least" : "short of", kFullShmemSpeedup))
      .with("ratio", ratio)
      .with("best_gbps", run_gbps(*best, s.n))
      .with("sync_gbps", run_gbps(*sync, s.n));
}

// At the most blocks per SM: the best pipelined version against synchronous staging,
// faster, within kVanishesBelow either way, or slower (a measured ratio; why is the page's).
static lab::Finding high_occupancy_gap(const Sweep& s) {
  const std::string point = extreme_points().front().name;
  const ConfigRun* best = fastest(s, point, true);
  const ConfigRun* sync = find(s, point, "sync_staged");
  const char* name = "at high occupancy";
  if (best == nullptr || sync == nullptr)
    return lab::named_observation("high_occupancy_gap.not_measured", name, "a version did not run at " + point);
  const double ratio = run_gbps(*best, s.n) / run_gbps(*sync, s.n);
  const char* branch = ratio >= kVanishesBelow         ? "pipelined_faster"
                       : ratio * kVanishesBelow <= 1.0 ? "pipelined_slower"
                                                       : "within";
  const std::string verdict = std::string(branch) == "within"
                                  ? lab::format("within %.0f %% of each other", (kVanishesBelow - 1) * 100)
                              : std::string(branch) == "pipelined_faster" ? "the pipelined version is faster"
                                                                          : "synchronous staging is faster";
  return lab::named_observation(
             std::string("high_occupancy_gap.") + branch, name,
             lab::format("at %s (%d resident) the best pipelined (%s) is %.2fx sync_staged: %s", point.c_str(),
                         sync->resident_per_sm, run_label(*best).c_str(), ratio, verdict.c_str()))
      .with("ratio", ratio)
      .with("sync_resident_per_sm", sync->resident_per_sm);
}

// A version none of whose rows ran (TMA below compute capability 9.0 or in a build without
// sm_90 code, a version left out on the command line): the chapter ran in part.
static std::vector<lab::Finding> versions_not_run(const Sweep& s) {
  std::vector<lab::Finding> out;
  std::vector<std::string> seen;
  for (const ConfigRun& r : s.runs) {
    if (std::find(seen.begin(), seen.end(), r.version) != seen.end()) continue;
    seen.push_back(r.version);
    bool any_ran = false;
    for (const ConfigRun& other : s.runs) any_ran = any_ran || (other.version == r.version && other.skipped.empty());
    if (!any_ran) out.push_back(lab::skipped("version_" + r.version, r.version + " rows", r.skipped));
  }
  return out;
}

std::vector<lab::Finding> stage_sweep_findings(const Sweep& s) {
  std::vector<lab::Finding> f = {working_set(s), best_vs_copy(s), full_shared_speedup(s), high_occupancy_gap(s)};
  for (lab::Finding& skipped : versions_not_run(s)) f.push_back(std::move(skipped));
  return f;
}

// Per extreme point: the least work at which even the fastest version falls below 90 % of
// the copy, and there how far apart the fastest and the slowest version were (a measured
// comparison: whether the arithmetic or the staging limits that point is the page's to say).
std::vector<lab::Finding> work_sweep_findings(const Sweep& s) {
  std::vector<lab::Finding> findings;
  const double copy = copy_gbps(s);
  for (const OccupancyPoint& p : extreme_points()) {
    int below_from = -1, most = -1;
    for (const ConfigRun& r : s.runs) {
      if (r.point != p.name || r.ms.empty()) continue;
      most = std::max(most, r.work);
      const ConfigRun* best = fastest(s, p.name, false, r.work);
      if (lab::percent_of(run_gbps(*best, s.n), copy) < kCopyShareBenchmark && (below_from < 0 || r.work < below_from))
        below_from = r.work;
    }
    const std::string id = p.fill ? "below_copy_full_shared" : "below_copy_high_occupancy";
    const std::string name = "fastest below 90 % of the copy at " + p.name;
    if (most < 0) {
      findings.push_back(lab::named_observation(id + ".not_measured", name, "nothing ran"));
    } else if (below_from < 0) {
      findings.push_back(lab::named_observation(id + ".never", name,
                                                lab::format("up to %d FMAs per element the fastest version stays "
                                                            "at 90 %% of the copy or more",
                                                            most))
                             .with("most_work", most));
    } else {
      const ConfigRun* best = fastest(s, p.name, false, below_from);
      const ConfigRun* slowest = nullptr;
      for (const ConfigRun& r : s.runs)
        if (r.point == p.name && r.work == below_from && !r.ms.empty() &&
            (slowest == nullptr || run_gbps(r, s.n) < run_gbps(*slowest, s.n)))
          slowest = &r;
      const double spread = run_gbps(*best, s.n) / run_gbps(*slowest, s.n);
      findings.push_back(
          lab::named_observation(
              id + ".from", name,
              lab::format("from %d FMAs per element: there the fastest (%s) reached %.1f %% of the copy, "
                          "%.2fx the slowest (%s)",
                          below_from, run_label(*best).c_str(), lab::percent_of(run_gbps(*best, s.n), copy), spread,
                          run_label(*slowest).c_str()))
              .with("work", below_from)
              .with("fastest_over_slowest", spread));
    }
  }
  return findings;
}

std::vector<lab::Background> bandwidth_background() {
  return {{"LDGSTS copies 4, 8 or 16 bytes from global to shared memory, the pointers aligned to the size copied: "
           "the chapter's tiles are multiples of 16 bytes, so every copy is a 16-byte one",
           "CUDA Programming Guide, 4.11.1 Using LDGSTS"},
          {"in a unified pipeline all the participating threads are both producers and consumers: here every thread "
           "of the block issues its share of each tile's copy and computes on the whole tile",
           "CUDA Programming Guide, 4.10.1 Initialization"},
          {"dynamic shared memory beyond 48 KB per block needs cudaFuncAttributeMaxDynamicSharedMemorySize; its sum "
           "with the kernel's static shared memory cannot exceed cudaDevAttrMaxSharedMemoryPerBlockOptin",
           "CUDA Runtime API, cudaFuncSetAttribute"}};
}

}  // namespace ch12
