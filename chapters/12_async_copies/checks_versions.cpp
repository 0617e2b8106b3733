#include "checks_versions.hpp"

#include <algorithm>

#include "tables.hpp"
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

bool pipelined_version(const std::string& version) { return version == "pipeline" || version == "tma"; }

bool pipelined(const ConfigRun& r) { return pipelined_version(r.version) && r.skipped.empty() && !r.ms.empty(); }

bool correct(const ConfigRun& r) {
  return r.skipped.empty() && r.checked > 0 && r.wrong.empty() && r.wrong_after.empty();
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

std::vector<lab::Finding> versions_checks(const Sweep& s) { return {versions_exact(s)}; }

}  // namespace ch12
