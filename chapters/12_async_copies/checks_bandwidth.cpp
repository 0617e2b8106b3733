#include "checks_bandwidth.hpp"

#include <algorithm>
#include <cmath>

#include "checks_versions.hpp"
#include "tables.hpp"
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

}  // namespace

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
             lab::format("at %s the best pipelined (%s, %d resident) is %.2fx sync_staged (%d resident): %s",
                         point.c_str(), run_label(*best).c_str(), best->resident_per_sm, ratio, sync->resident_per_sm,
                         verdict.c_str()))
      .with("ratio", ratio)
      .with("best_resident_per_sm", best->resident_per_sm)
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

std::vector<lab::Finding> stage_sweep_checks(const Sweep& s) {
  std::vector<lab::Finding> f = {high_occupancy_gap(s)};
  for (lab::Finding& skipped : versions_not_run(s)) f.push_back(std::move(skipped));
  return f;
}

// Per extreme point: the least work at which even the fastest version falls below 90 % of
// the copy, and there how far apart the fastest and the slowest version were (a measured
// comparison: whether the arithmetic or the staging limits that point is the page's to say).
std::vector<lab::Finding> work_sweep_checks(const Sweep& s) {
  std::vector<lab::Finding> checks;
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
      checks.push_back(lab::named_observation(id + ".not_measured", name, "nothing ran"));
    } else if (below_from < 0) {
      checks.push_back(lab::named_observation(id + ".never", name,
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
      checks.push_back(
          lab::named_observation(
              id + ".from", name,
              lab::format("from %d FMAs per element: there the fastest (%s) reached %.2f %% of the copy, "
                          "%.2fx the slowest (%s)",
                          below_from, run_label(*best).c_str(), lab::percent_of(run_gbps(*best, s.n), copy), spread,
                          run_label(*slowest).c_str()))
              .with("work", below_from)
              .with("fastest_over_slowest", spread));
    }
  }
  return checks;
}

}  // namespace ch12
