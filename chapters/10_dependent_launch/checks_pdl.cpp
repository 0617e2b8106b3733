#include <algorithm>

#include "checks.hpp"
#include "vocabulary.hpp"

namespace ch10 {

namespace {

constexpr double kBenchmarkPercent = 10.0;  // the page's target, set on the H100: PDL at least this much lower

double per_kernel(const ChainRun& run, const std::string& name) {
  const ChainVariant* v = find_named(run.variants, name);
  return v == nullptr ? lab::median_or_nan({}) : lab::median_or_nan(v->per_kernel_us);
}

StampSummary stamps_of(const ChainRun& run, const ChainVariant& v) {
  return summarize_stamps(v.stamps, run.kernels, run.blocks);
}

// The faster of two named variants of @p run: its name and median per-kernel time.
std::pair<std::string, double> faster(const ChainRun& run, const std::string& one, const std::string& other) {
  const double a = per_kernel(run, one), b = per_kernel(run, other);
  return !(b < a) ? std::make_pair(one, a) : std::make_pair(other, b);
}

// Every variant's results against the CPU.
lab::Finding chain_correct(const std::string& id, const ChainRun& run) {
  int checked = 0;
  std::size_t mismatches = 0;
  std::string wrong;
  for (const ChainVariant& v : run.variants) {
    checked += v.results_checked;
    mismatches += v.mismatches;
    if (wrong.empty() && !v.wrong.empty()) wrong = v.name + ": " + v.wrong;
  }
  return lab::correctness_check(id, "every run of the chain equals the CPU's a + K b", checked > 0 && wrong.empty(),
                                wrong.empty() ? lab::format("%d results checked, exact", checked) : wrong)
      .with("results_count", checked)
      .with("mismatches_count", static_cast<double>(mismatches));
}

// The page's target on the faster PDL way @p best (named in the line) against @p base.
lab::Finding benchmark(const std::string& id, const std::string& base, double base_us,
                       const std::pair<std::string, double>& best) {
  const double lower = -lab::percent_above(best.second, base_us);
  const bool met = lower >= kBenchmarkPercent;
  return lab::named_observation(id + (met ? ".met" : ".not_met"), "benchmark: PDL >= 10 % lower per kernel",
                                lab::format("%.1f %% lower (%s %.2f against %s %.2f us): %s", lower, best.first.c_str(),
                                            best.second, base.c_str(), base_us, met ? "met" : "not met"))
      .with("base_us", base_us)
      .with("pdl_us", best.second)
      .with("pdl_variant", best.first)
      .with("lower_percent", lower);
}

}  // namespace

StampSummary summarize_stamps(const std::vector<BlockStamps>& stamps, int kernels, int blocks) {
  StampSummary s;
  if (kernels < 2 || blocks < 1 || stamps.size() != static_cast<std::size_t>(kernels) * blocks) return s;
  unsigned long long origin = stamps.front().start_ns;
  for (const BlockStamps& b : stamps) origin = std::min({origin, b.start_ns, b.waited_ns, b.end_ns});
  std::vector<double> readings, waits;  // us from the origin: doubles keep every ns of a few seconds
  const auto us = [origin](unsigned long long ns) { return static_cast<double>(ns - origin) * 1e-3; };
  for (int k = 0; k < kernels; ++k) {
    double first_start = 0, last_end = 0;
    for (int i = 0; i < blocks; ++i) {
      const BlockStamps& b = stamps[static_cast<std::size_t>(k) * blocks + i];
      readings.insert(readings.end(), {us(b.start_ns), us(b.waited_ns), us(b.end_ns)});
      if (k > 0) waits.push_back(us(b.waited_ns) - us(b.start_ns));
      first_start = i == 0 ? us(b.start_ns) : std::min(first_start, us(b.start_ns));
      last_end = i == 0 ? us(b.end_ns) : std::max(last_end, us(b.end_ns));
    }
    if (k > 0) s.overlap_us.back() -= first_start;  // the previous kernel's last end, less this one's first start
    if (k + 1 < kernels) s.overlap_us.push_back(last_end);
  }
  s.waited_us = lab::median_or_nan(waits);
  s.step_us = lab::smallest_step(readings, 1e-4);
  for (double o : s.overlap_us) s.pairs_overlapped += o > s.step_us ? 1 : 0;
  return s;
}

// --- 1. PDL in a stream ------------------------------------------------------------------

// Not a check: the guide calls the overlap "opportunistic and not guaranteed" (the page, section 1).
static lab::Finding blocks_started_early(const ChainRun& run) {
  const ChainVariant* plain = find_named(run.variants, "plain");
  const ChainVariant* early = find_named(run.variants, "pdl_early_trigger");
  const StampSummary p = plain ? stamps_of(run, *plain) : StampSummary{};
  const StampSummary e = early ? stamps_of(run, *early) : StampSummary{};
  const double plain_us = lab::median_or_nan(p.overlap_us), early_us = lab::median_or_nan(e.overlap_us);
  const bool measured = !p.overlap_us.empty() && !e.overlap_us.empty() && e.step_us > 0;
  const char* branch = !measured              ? "not_measured"
                       : plain_us > p.step_us ? "plain_overlapped"
                       : early_us > e.step_us ? "overlapped"
                                              : "serialized";
  return lab::named_observation(
             std::string("blocks_started_early.") + branch, "overlap of consecutive kernels, early trigger and plain",
             measured ? lab::format("median %.3f us with PDL and an early trigger (%d of %zu pairs above one %.3f us "
                                    "timer step), %.3f us plain",
                                    early_us, e.pairs_overlapped, e.overlap_us.size(), e.step_us, plain_us)
                      : "no stamps to compare")
      .with("early_overlap_us", early_us)
      .with("plain_overlap_us", plain_us)
      .with("timer_step_us", e.step_us)
      .with("pairs_overlapped", e.pairs_overlapped)
      .with("pairs_count", e.overlap_us.size());
}

std::vector<lab::Finding> pdl_stream_checks(const ChainRun& run) {
  if (run.skipped) return {lab::skipped("pdl_stream", "PDL in a stream", run.skip_reason)};
  return {chain_correct("chain_correct", run), blocks_started_early(run),
          benchmark("pdl_benchmark", "plain", per_kernel(run, "plain"), faster(run, "pdl", "pdl_early_trigger"))};
}

// pdl_fix_correct on the cases named with @p suffix ("" or "_held"), its id with it too; the wrong reads
// before the wait are the table's rows (whether they happen is up to the driver and the GPU).
static lab::Finding fix_correct(const MisuseRun& run, const std::string& suffix) {
  const MisuseCase* fixed = find_named(run.cases, "read_after_wait" + suffix);
  if (fixed == nullptr)
    return lab::skipped("pdl_misuse" + suffix, "a read before cudaGridDependencySynchronize()",
                        suffix.empty() || run.held_why_not.empty() ? "the rows did not run" : run.held_why_not);
  const std::string name = std::string("the wait before the read gives the right answer") +
                           (suffix.empty() ? " (idle stream)" : " (queued behind a held stream)");
  return lab::correctness_check("pdl_fix_correct" + suffix, name, fixed->result.passed(), fixed->result.detail())
      .with("mismatches_count", static_cast<double>(fixed->result.mismatches));
}

std::vector<lab::Finding> pdl_misuse_checks(const MisuseRun& run) {
  if (run.skipped)
    return {lab::skipped("pdl_misuse", "a read before cudaGridDependencySynchronize()", run.skip_reason)};
  return {fix_correct(run, ""), fix_correct(run, "_held")};
}

// --- 2. PDL in a graph ---------------------------------------------------------------------

// The two captured PDL graphs (the guide's table: a PDL launch becomes a programmatic edge from the
// programmatic port); the graph built by hand is programmatic by construction (the table's row).
static lab::Finding captured_edges(const ChainRun& run) {
  const int expected = run.kernels - 1;
  int graphs = 0, all = 0, none = 0, fewest = expected;
  for (const char* captured : {"graph_pdl", "graph_pdl_early_trigger"}) {
    const ChainVariant* v = find_named(run.variants, captured);
    if (v == nullptr) continue;
    ++graphs;
    all += v->programmatic_edges == expected ? 1 : 0;
    none += v->programmatic_edges == 0 ? 1 : 0;
    fewest = std::min(fewest, v->programmatic_edges);
  }
  const char* branch = graphs > 0 && all == graphs ? "all" : (graphs > 0 && none == graphs ? "none" : "some");
  return lab::correctness_check(std::string("captured_edges_programmatic.") + branch,
                                "captured PDL launches become programmatic edges (the guide's table)",
                                graphs > 0 && all == graphs,
                                lab::format("%d of %d captured PDL graphs have all K-1 = %d edges programmatic "
                                            "(type and port; fewest: %d)",
                                            all, graphs, expected, fewest))
      .with("graphs_count", graphs)
      .with("expected_count", expected)
      .with("fewest_count", fewest);
}

std::vector<lab::Finding> pdl_graph_checks(const ChainRun& run) {
  if (run.skipped) return {lab::skipped("pdl_graph", "PDL in a graph", run.skip_reason)};
  return {chain_correct("graph_chain_correct", run), captured_edges(run),
          benchmark("pdl_graph_benchmark", "graph_plain", per_kernel(run, "graph_plain"),
                    faster(run, "graph_pdl", "graph_pdl_early_trigger"))};
}

}  // namespace ch10
