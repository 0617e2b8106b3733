#include "checks_stages.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "checks_versions.hpp"
#include "overlap_model.hpp"
#include "tables.hpp"
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

std::vector<lab::Finding> stamps_checks(const StampsRun& s) { return {stamped_exact(s)}; }

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

}  // namespace ch12
