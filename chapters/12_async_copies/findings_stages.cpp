#include "findings_stages.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "overlap_model.hpp"
#include "vocabulary.hpp"

namespace ch12 {

StampSummary summarise_stamps(const std::vector<StageStamps>& stamps, int blocks, std::int64_t tiles_per_block) {
  if (blocks < 0 || tiles_per_block < 0 || static_cast<std::int64_t>(stamps.size()) < blocks * tiles_per_block)
    throw std::invalid_argument("summarise_stamps: fewer stamps than blocks x tiles_per_block");
  StampSummary s;
  double wait = 0, compute = 0, copy = 0, span = 0;
  int busy_blocks = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const StageStamps* row = stamps.data() + b * tiles_per_block;
    std::int64_t k = 0;
    for (; k < tiles_per_block && row[k].computed != 0; ++k) {
      const unsigned long long free_since = k == 0 ? row[0].issued : row[k - 1].computed;
      wait += row[k].ready > free_since ? static_cast<double>(row[k].ready - free_since) : 0.0;
      compute += static_cast<double>(row[k].computed - row[k].ready);
      copy += static_cast<double>(row[k].ready - row[k].issued);
    }
    if (k == 0) continue;
    ++busy_blocks;
    span += static_cast<double>(row[k - 1].computed - row[0].issued);
    s.tiles += k;
  }
  if (s.tiles == 0) return s;
  const double tiles = static_cast<double>(s.tiles);
  s.wait_ns = wait / tiles;
  s.compute_ns = compute / tiles;
  s.copy_ns = copy / tiles;
  s.block_ns = span / busy_blocks;
  s.wait_share = lab::percent_of(wait, wait + compute);
  return s;
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

// The stamped runs' outputs were checked too.
static lab::Finding stamped_exact(const StampsRun& s) {
  int ran = 0;
  for (const StampRun& r : s.runs) {
    if (!r.config.skipped.empty()) continue;
    ++ran;
    if (!correct(r.config))
      return lab::correctness_check("stamped_exact.wrong", "the stamped runs equal the CPU", false,
                                    run_label(r.config) + ": " + r.config.wrong);
  }
  return lab::correctness_check("stamped_exact.all", "the stamped runs equal the CPU", ran > 0,
                                ran > 0 ? lab::format("%d runs exact", ran) : std::string("no run"))
      .with("runs", ran);
}

std::vector<lab::Finding> stamps_findings(const StampsRun& s) { return {stamped_exact(s)}; }

double stage_model_ms(double c_ns, double k_ns, double b_ns, std::int64_t tiles, int stages) {
  if (tiles < 1 || stages < 1) throw std::invalid_argument("stage_model_ms: tiles and stages must be at least 1");
  if (stages == 1) return static_cast<double>(tiles) * std::max(c_ns + k_ns, b_ns) * 1e-6;
  // Chapter 05's pipelined(n): n = T tiles, the copy per tile spread over the s - 1 copies in flight.
  const double h = std::max(c_ns / (stages - 1), b_ns);
  ch05::LinkAndKernel m;
  m.h2d_ms = static_cast<double>(tiles) * h * 1e-6;
  m.kernel_ms = static_cast<double>(tiles) * k_ns * 1e-6;
  m.copy_engines = 2;
  return ch05::pipelined_ms(m, static_cast<int>(tiles)) + std::max(0.0, c_ns - h) * 1e-6;  // the first copy: all of c
}

double bandwidth_floor_ns(int tile_floats, int blocks, double copy_gbps) {
  return 2.0 * sizeof(float) * tile_floats * blocks / copy_gbps;  // bytes / (GB/s) = ns
}

std::vector<ModelRow> model_rows(const StampsRun& stamps, const Sweep& sweep) {
  std::vector<ModelRow> rows;
  for (const StampRun& base : stamps.runs) {
    const ConfigRun& b = base.config;
    if (!pipelined_version(b.version) || b.stages != 1 || base.summary.tiles == 0) continue;
    // Per float, so that the fill point's larger 1-stage tiles scale to each stage count's tiles.
    const double c_per = base.summary.copy_ns / b.tile_floats, k_per = base.summary.compute_ns / b.tile_floats;
    for (const ConfigRun& r : sweep.runs) {
      if (r.version != b.version || r.point != b.point || r.work != b.work || !pipelined(r)) continue;
      const int blocks = sweep.sm_count * r.blocks_per_sm;
      const std::int64_t tiles = (sweep.n + r.tile_floats - 1) / r.tile_floats;
      const std::int64_t per_block = (tiles + blocks - 1) / blocks;
      const double floor = bandwidth_floor_ns(r.tile_floats, blocks, stamps.copy_gbps);
      rows.push_back({run_label(r), r.version, r.stages,
                      stage_model_ms(c_per * r.tile_floats, k_per * r.tile_floats, floor, per_block, r.stages),
                      lab::median_or_nan(r.ms)});
    }
  }
  return rows;
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
