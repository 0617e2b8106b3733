#include "tables.hpp"

#include <cmath>

#include "checks_versions.hpp"
#include "vocabulary.hpp"

namespace ch12 {

namespace {

double l2_multiple(const Sweep& s) { return s.l2_bytes > 0 ? s.n * sizeof(float) / s.l2_bytes : NAN; }

}  // namespace

double bytes_moved(std::int64_t n) { return 2.0 * sizeof(float) * static_cast<double>(n); }

double run_gbps(const ConfigRun& r, std::int64_t n) {
  return lab::gigabytes_per_second(bytes_moved(n), lab::median_or_nan(r.ms));
}

double copy_gbps(const Sweep& s) { return lab::gigabytes_per_second(bytes_moved(s.n), lab::median_or_nan(s.copy_ms)); }

std::string run_label(const ConfigRun& r) {
  const std::string stages = pipelined_version(r.version) ? " x" + std::to_string(r.stages) : "";
  return r.version + stages + " @ " + r.point + ", w" + std::to_string(r.work);
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
                          {"percent_of_copy", "of copy", "%", 2},
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

lab::ResultTable stamps_table(const StampsRun& s) {
  lab::ResultTable table("stage_stamps", "Per tile, as thread 0 of each block saw it (%globaltimer)", "run",
                         {{"tiles", "tiles", "", 0},
                          {"wait_ns", "waiting", "ns", 0},
                          {"compute_ns", "computing", "ns", 0},
                          {"copy_ns", "issue to ready", "ns", 0},
                          {"wait_share", "waiting", "%", 1},
                          {"block_us", "per block", "us", 1}});
  for (const StampRun& r : s.runs) {
    auto& row = table.add_row(run_label(r.config));
    row.set("version", r.config.version).set("stages", r.config.stages).set("point", r.config.point);
    if (!r.config.skipped.empty()) {
      row.set("skipped", r.config.skipped);
      continue;
    }
    row.set("tiles", r.summary.tiles).set("wait_ns", r.summary.wait_ns).set("compute_ns", r.summary.compute_ns);
    row.set("copy_ns", r.summary.copy_ns)
        .set("wait_share", r.summary.wait_share)
        .set("block_us", r.summary.block_ns / 1e3);
    row.set("exact", correct(r.config));
  }
  table.note(
      "waiting: from the block's previous tile done (or its first copy issued) to this tile ready; computing: "
      "ready to stored; issue to ready: the copy's issue to its tile ready (for stages > 1 it includes computing "
      "the tiles queued before); each run launched once with stamps, which add a __syncthreads() per tile to "
      "direct and pipeline (the timed launches have none)");
  return table;
}

lab::ResultTable model_table(const std::vector<ModelRow>& rows) {
  lab::ResultTable table(
      "stage_model", "Chapter 05's pipeline model, one level down: predicted against measured", "run",
      {{"predicted_ms", "predicted", "ms", 3}, {"measured_ms", "measured", "ms", 3}, {"error", "error", "%", 1}});
  for (const ModelRow& r : rows) {
    table.add_row(r.label)
        .set("version", r.version)
        .set("stages", r.stages)
        .set("predicted_ms", r.predicted_ms)
        .set("measured_ms", r.measured_ms)
        .set("error", lab::percent_above(r.predicted_ms, r.measured_ms));
  }
  table.note(
      "inputs from the 1-stage stamped run of the same version and point: the copy and the compute per tile "
      "(scaled per float), the tiles of the busiest block, and the copy's bandwidth as the floor");
  return table;
}

}  // namespace ch12
