#include "findings_versions.hpp"

#include <algorithm>
#include <cmath>

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

double vs_sync_staged(const Sweep& s, const ConfigRun& r) {
  for (const ConfigRun& sync : s.runs)
    if (sync.version == "sync_staged" && sync.point == r.point && sync.work == r.work && !sync.ms.empty())
      return run_gbps(r, s.n) / run_gbps(sync, s.n);
  return NAN;
}

lab::ResultTable sweep_table(const std::string& id, const std::string& title, const Sweep& s) {
  lab::ResultTable table(id, title, "run",
                         {{"tile_kib", "tile", "KiB", 1},
                          {"threads", "threads", "", 0},
                          {"shared_kib", "shared", "KiB", 1},
                          {"registers", "regs", "", 0},
                          {"resident_per_sm", "resident", "/SM", 0},
                          {"median", "median", "ms", 3},
                          {"gbps", "bandwidth", "GB/s", 0},
                          {"percent_of_copy", "of copy", "%", 1},
                          {"vs_sync", "vs sync_staged", "x", 2},
                          {"checked", "checked", "", 0},
                          {"exact", "exact", "", 0}});
  const double copy = copy_gbps(s);
  for (const ConfigRun& r : s.runs) {
    auto& row = table.add_row(run_label(r));
    row.set("version", r.version).set("stages", r.stages).set("point", r.point).set("work", r.work);
    row.set("tile_kib", r.tile_floats * sizeof(float) / lab::kKiB).set("threads", r.threads);
    row.set("shared_kib", r.shared_bytes / lab::kKiB).set("resident_per_sm", r.resident_per_sm);
    if (!r.skipped.empty()) {
      row.set("skipped", r.skipped);
      continue;
    }
    row.samples(r.ms, "ms")
        .set("registers", r.registers)
        .set("gbps", run_gbps(r, s.n))
        .set("percent_of_copy", lab::percent_of(run_gbps(r, s.n), copy))
        .set("vs_sync", vs_sync_staged(s, r));
    row.set("checked", r.checked).set("exact", correct(r));
  }
  table.note(
      lab::format("%lld floats in and out (%s each); the copy: %.0f GB/s. N/SM: blocks launched per SM "
                  "(1/SM full: one, its tiles filling the opt-in shared memory); "
                  "regs: registers per thread (cudaFuncAttributes::numRegs); resident: blocks one SM holds "
                  "(the occupancy calculator); vs sync_staged: bandwidth / sync_staged's at the same point and "
                  "work; checked: values compared with the CPU before and after timing; skipped rows say why "
                  "in the JSON",
                  static_cast<long long>(s.n), lab::mib_text(s.n * sizeof(float)).c_str(), copy));
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

std::vector<lab::Finding> versions_findings(const Sweep& s) { return {versions_exact(s)}; }

}  // namespace ch12
