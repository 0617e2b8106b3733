#include <algorithm>
#include <cmath>
#include <limits>

#include "checks.hpp"
#include "vocabulary.hpp"

namespace ch10 {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kWhileTarget = 3.0;        // the page's target, set on the H100: 3x less besides the kernels
constexpr double kLeastAllowanceUs = 1.0;   // the page's target: external pair within max(1 us, the floor) of CUPTI
constexpr double kEventResolutionUs = 0.5;  // cudaEventElapsedTime: "a resolution of around 0.5 microseconds"

// Per sweep: the median solve's host time over its sweeps.
double per_sweep_us(const JacobiWay& w) {
  if (w.iterations.empty() || w.iterations.front() <= 0) return kNaN;
  return lab::median_or_nan(w.total_ms) * 1e3 / static_cast<double>(w.iterations.front());
}

// The kernels' own time per sweep (CUPTI), NaN when not recorded.
double kernel_us(const JacobiWay& w) {
  return w.cupti_kernel_us.empty() ? kNaN : lab::summarize(w.cupti_kernel_us).mean;
}

// What a sweep costs besides its kernels.
double rest_us(const JacobiWay& w) { return per_sweep_us(w) - kernel_us(w); }

bool way_right(const JacobiWay& w, std::int64_t cpu_iterations) {
  return w.results_checked > 0 && w.wrong.empty() &&
         std::all_of(w.iterations.begin(), w.iterations.end(), [&](std::int64_t i) { return i == cpu_iterations; });
}

}  // namespace

// --- 3. A graph that decides ---------------------------------------------------

lab::ResultTable jacobi_table(const JacobiRun& run) {
  lab::ResultTable table("jacobi",
                         lab::format("A Jacobi solve of %lld unknowns to %g: the same kernels, three controls",
                                     (long long)run.n, run.tolerance),
                         "way",
                         {{"median", "solve", "ms", 3},
                          {"iterations", "sweeps", "", 0},
                          {"per_iteration_us", "per sweep", "us", 2},
                          {"kernel_us_per_iteration", "kernels/sweep", "us", 2},
                          {"overhead_us_per_iteration", "rest/sweep", "us", 2},
                          {"host_calls", "CUDA calls", "", 0},
                          {"host_call_ms", "in calls", "ms", 3},
                          {"bitwise_equal_cpu", "= CPU", "", 0}});
  for (const JacobiWay& w : run.ways) {
    lab::ResultTable::Row& row = table.add_row(w.name);
    if (!w.total_ms.empty()) row.samples(w.total_ms, "ms");
    row.set("iterations", static_cast<long long>(w.iterations.empty() ? 0 : w.iterations.front()))
        .set("per_iteration_us", per_sweep_us(w))
        .set("host_calls", static_cast<long long>(w.host_calls))
        .set("host_call_ms", lab::median_or_nan(w.host_call_ms))
        .set("bitwise_equal_cpu", way_right(w, run.cpu_iterations));
    if (w.cupti_kernel_us.empty())
      row.set("kernel_us_per_iteration", "not recorded").set("cupti_missing", w.cupti_missing);
    else
      row.set("kernel_us_per_iteration", kernel_us(w)).set("overhead_us_per_iteration", rest_us(w));
  }
  table.note(
      lab::format("the CPU made %lld sweeps; solve: host time, first call to the end of the last wait; "
                  "kernels: CUPTI, one more solve; in calls: host time inside CUDA calls, the final wait "
                  "left out",
                  (long long)run.cpu_iterations));
  return table;
}

static lab::Finding jacobi_identical(const JacobiRun& run) {
  std::string wrong;
  int solves = 0;
  for (const JacobiWay& w : run.ways) {
    solves += w.results_checked;
    if (wrong.empty() && !way_right(w, run.cpu_iterations))
      wrong = w.name + ": " + (w.wrong.empty() ? "sweeps differ from the CPU's, or nothing checked" : w.wrong);
  }
  const bool passed = wrong.empty() && run.ways.size() == 3;
  return lab::correctness_check(
             "jacobi_identical", "every way's solution bit for bit the CPU's, after as many sweeps", passed,
             passed ? lab::format("%d solves, x poisoned before each, all %lld sweeps, exactly the CPU's x", solves,
                                  (long long)run.cpu_iterations)
                    : (wrong.empty() ? std::string("not every way ran") : wrong))
      .with("iterations_cpu", static_cast<double>(run.cpu_iterations))
      .with("solves_count", solves);
}

// Besides the kernels (CUPTI) when it recorded both ways; else not measured, with the whole time's ratio.
static lab::Finding while_overhead(const JacobiRun& run) {
  const JacobiWay* host = find_named(run.ways, "host_loop");
  const JacobiWay* loop = find_named(run.ways, "while_node");
  const char* name = "a WHILE node costs less per sweep, besides the kernels, than a host loop";
  if (!host || !loop || host->cupti_kernel_us.empty() || loop->cupti_kernel_us.empty()) {
    const JacobiWay* missed = !host || !loop ? nullptr : loop->cupti_kernel_us.empty() ? loop : host;
    const double whole = missed ? per_sweep_us(*host) / per_sweep_us(*loop) : kNaN;
    return lab::named_observation("while_overhead.not_measured", name,
                                  missed ? lab::format("not measured: CUPTI did not record every kernel of %s's "
                                                       "solve (%s); the whole time per sweep, kernels included, "
                                                       "%.1fx lower in the WHILE node",
                                                       missed->name.c_str(), missed->cupti_missing.c_str(), whole)
                                         : std::string("not measured: a way did not run"))
        .with("whole_time_ratio", whole);
  }
  const double h = rest_us(*host), w = rest_us(*loop);
  return lab::timing_check(w < h ? "while_overhead.lower" : "while_overhead.not_lower", name, w < h,
                           lab::format("besides the kernels a sweep cost %.2f us in the host loop, %.2f us in the "
                                       "WHILE node (%.1fx; the page's target, %.0fx: %s)",
                                       h, w, h / w, kWhileTarget, h / w >= kWhileTarget ? "met" : "not met"))
      .with("host_loop_overhead_us", h)
      .with("while_overhead_us", w)
      .with("ratio", h / w);
}

std::vector<lab::Finding> jacobi_checks(const JacobiRun& run) { return {jacobi_identical(run), while_overhead(run)}; }

// --- 4. Timing inside a graph --------------------------------------------------

static lab::Finding graph_timing_correct(const GraphTimingRun& run) {
  const bool passed = run.results_checked > 0 && run.wrong.empty();
  return lab::correctness_check(
             "graph_timing_correct", "every replay of the timed graphs correct", passed,
             passed ? lab::format("%d replays, x poisoned before each, exactly the CPU's a + 7 b", run.results_checked)
                    : (run.wrong.empty() ? std::string("nothing checked") : run.wrong))
      .with("results_count", run.results_checked);
}

// The external pair against CUPTI: less the floor, is it at least CUPTI's duration less the events'
// resolution (a timing check on three lengths, consistent with the pair bracketing the node), and the page's target
// (within the larger of 1 us and the floor).
static std::vector<lab::Finding> external_vs_cupti(const GraphTimingRun& run) {
  const char* target = "benchmark: external pair within max(1 us, the floor) of CUPTI";
  if (run.cupti_us.empty() || run.external_us.empty()) {
    const std::string why =
        run.external_us.empty() ? "the external pair returned " + run.external_returned : "CUPTI: " + run.cupti_missing;
    return {lab::named_observation("graph_timing_benchmark.not_measured", target, "not measured: " + why)};
  }
  const double event = lab::median_or_nan(run.external_us), cupti = lab::median_or_nan(run.cupti_us);
  const double floor = run.floor_us.empty() ? 0.0 : lab::median_or_nan(run.floor_us);
  const double allowance = std::max(kLeastAllowanceUs, floor), difference = std::fabs(event - cupti);
  const bool contains = event - floor >= cupti - kEventResolutionUs;
  const auto numbers = [&](lab::Finding f) {
    return f.with("event_us", event).with("cupti_us", cupti).with("floor_us", floor).with("difference_us", difference);
  };
  return {numbers(lab::timing_check(
              contains ? "external_pair_brackets.yes" : "external_pair_brackets.no",
              "the external pair, less the floor, is at least the node's CUPTI duration less 0.5 us", contains,
              lab::format("external pair %.3f us less the floor %.3f us: %.3f us, against the node's %.3f us (CUPTI)",
                          event, floor, event - floor, cupti))),
          numbers(lab::named_observation(
                      difference <= allowance ? "graph_timing_benchmark.met" : "graph_timing_benchmark.not_met", target,
                      lab::format("external pair %.3f us, CUPTI %.3f us: %.3f us apart (allowed: %.3f us): %s", event,
                                  cupti, difference, allowance, difference <= allowance ? "met" : "not met")))
              .with("allowance_us", allowance)};
}

std::vector<lab::Finding> graph_timing_checks(const GraphTimingRun& run) {
  std::vector<lab::Finding> checks = {graph_timing_correct(run)};
  for (lab::Finding& f : external_vs_cupti(run)) checks.push_back(std::move(f));
  return checks;
}

}  // namespace ch10
