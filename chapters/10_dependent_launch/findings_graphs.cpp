#include "findings_graphs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "findings_shared.hpp"
#include "vocabulary.hpp"

namespace ch10 {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kWhileBenchmark = 3.0;    // the WHILE node's overhead per sweep at least 3x lower than the host loop's
constexpr double kLeastAllowanceUs = 1.0;  // external pair against CUPTI: within max(1 us, the floor)
constexpr double kBracketShare = 0.9;      // a pair around the node reads at least this share of its CUPTI duration

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

// Which ways CUPTI did not fully record ("" when both were), with the recorder's reason.
static std::string unrecorded(const JacobiWay* host, const JacobiWay* loop) {
  std::string text;
  for (const JacobiWay* w : {host, loop}) {
    if (w == nullptr || !w->cupti_kernel_us.empty()) continue;
    text += std::string(text.empty() ? "" : " and ") + (w == host ? "the host loop's" : "the WHILE node's") +
            " solve (" + w->cupti_missing + ")";
  }
  return text;
}

static lab::Finding while_overhead(const JacobiRun& run) {
  const JacobiWay* host = find_named(run.ways, "host_loop");
  const JacobiWay* loop = find_named(run.ways, "while_node");
  const char* name = "the WHILE node's cost per sweep besides the kernels";
  if (host == nullptr || loop == nullptr)
    return lab::named_observation("while_overhead.not_measured", name, "not measured: a way is missing");
  if (const std::string missed = unrecorded(host, loop); !missed.empty())
    return lab::named_observation("while_overhead.not_measured", name,
                                  "not measured: CUPTI did not record every kernel of " + missed)
        .with("host_loop_recorded", !host->cupti_kernel_us.empty())
        .with("while_recorded", !loop->cupti_kernel_us.empty());
  const double h = rest_us(*host), w = rest_us(*loop);
  const bool lower = w < h;
  return lab::timing_check(lower ? "while_overhead.lower" : "while_overhead.not_lower",
                           "a WHILE node costs less per sweep, besides the kernels, than a host loop", lower,
                           lab::format("besides the kernels a sweep cost %.2f us in the host loop, %.2f us in the "
                                       "WHILE node (%.1fx)",
                                       h, w, h / w))
      .with("host_loop_overhead_us", h)
      .with("while_overhead_us", w)
      .with("ratio", h / w);
}

static lab::Finding host_thread_freed(const JacobiRun& run) {
  const JacobiWay* host = find_named(run.ways, "host_loop");
  const JacobiWay* loop = find_named(run.ways, "while_node");
  if (host == nullptr || loop == nullptr)
    return lab::named_observation("host_thread_freed", "the host thread", "not measured: a way is missing");
  const double h = lab::median_or_nan(host->host_call_ms), w = lab::median_or_nan(loop->host_call_ms);
  return lab::named_observation(
             "host_thread_freed", "the host thread",
             lab::format("the host loop made %lld CUDA calls per solve and spent %.3f ms in them; the WHILE node "
                         "%lld calls, %.3f ms: the rest of the solve the host thread is free",
                         (long long)host->host_calls, h, (long long)loop->host_calls, w))
      .with("host_loop_calls", static_cast<double>(host->host_calls))
      .with("while_calls", static_cast<double>(loop->host_calls))
      .with("host_loop_call_ms", h)
      .with("while_call_ms", w);
}

// Overhead per sweep when CUPTI recorded both ways; else not measured, with the whole time per sweep's ratio.
static lab::Finding while_benchmark(const JacobiRun& run) {
  const JacobiWay* host = find_named(run.ways, "host_loop");
  const JacobiWay* loop = find_named(run.ways, "while_node");
  if (host == nullptr || loop == nullptr)
    return lab::named_observation("while_benchmark.not_measured", "benchmark", "not measured: a way is missing");
  if (host->cupti_kernel_us.empty() || loop->cupti_kernel_us.empty()) {
    const double h = per_sweep_us(*host), w = per_sweep_us(*loop);
    return lab::named_observation(
               "while_benchmark.not_measured", "benchmark",
               lab::format("not measured besides the kernels (CUPTI did not record them); the whole time per sweep, "
                           "WHILE node against host loop: %.2f us against %.2f us, %.1fx",
                           w, h, h / w))
        .with("whole_time_ratio", h / w);
  }
  const double h = rest_us(*host), w = rest_us(*loop);
  const bool met = h / w >= kWhileBenchmark;
  return lab::named_observation(
             met ? "while_benchmark.met" : "while_benchmark.not_met", "benchmark",
             lab::format("WHILE node against host loop, besides the kernels per sweep: %.2f us against %.2f us, "
                         "%.1fx (%s %.0fx)",
                         w, h, h / w, met ? "at least" : "short of", kWhileBenchmark))
      .with("ratio", h / w);
}

std::vector<lab::Finding> jacobi_findings(const JacobiRun& run) {
  return {jacobi_identical(run), while_overhead(run), host_thread_freed(run), while_benchmark(run)};
}

std::vector<lab::Background> jacobi_background() {
  return {{"conditional nodes allow conditional execution and looping of a graph contained within the conditional "
           "node, so that iterative workflows are represented completely within a graph and the host CPU is freed",
           "CUDA Programming Guide, 4.2.4 Conditional Graph Nodes"},
          {"cudaGraphCondTypeWhile: phGraph_out[0] is executed as long as the condition is non-zero; the body "
           "graph may be populated using graph node creation APIs or cudaStreamBeginCaptureToGraph",
           "CUDA Runtime API, cudaConditionalNodeParams"},
          {"cudaGraphCondAssignDefault: apply default handle value when graph is launched (without it the value "
           "at the start of a launch is not to be relied on)",
           "CUDA Runtime API, cudaGraphConditionalHandleCreate (driver_types.h, cudaGraphConditionalHandleFlags)"},
          {"it is undefined behavior to have racing / possibly concurrent calls to cudaGraphSetConditional",
           "CUDA Runtime API, cudaGraphSetConditional (cuda_device_runtime_api.h)"}};
}

// --- 4. Timing inside a graph --------------------------------------------------

lab::ResultTable graph_timing_table(const GraphTimingRun& run) {
  lab::ResultTable table(
      "graph_timing",
      lab::format("One kernel node of seven in a replayed graph (%lld floats), timed four ways", (long long)run.n),
      "what",
      {{"median", "median", "us", 3},
       {"min", "min", "us", 3},
       {"max", "max", "us", 3},
       {"count", "samples", "", 0},
       {"returned", "cudaEventElapsedTime", "", 0}});
  const auto add = [&](const char* name, const std::vector<double>& us, const std::string& returned) {
    lab::ResultTable::Row& row = table.add_row(name);
    if (!us.empty()) row.samples(us, "us");
    row.set("returned", returned);
  };
  add("external_pair", run.external_us, run.external_returned);
  add("external_floor", run.floor_us, run.floor_returned);
  add("cupti_node", run.cupti_us, run.cupti_us.empty() ? "not recorded: " + run.cupti_missing : "(CUPTI)");
  add("default_pair", run.default_us, run.default_returned);
  table.note(
      "external: cudaEventRecordWithFlags(..., cudaEventRecordExternal) during capture; floor: such a pair "
      "around nothing; default: plain cudaEventRecord during capture");
  return table;
}

static lab::Finding graph_timing_correct(const GraphTimingRun& run) {
  const bool passed = run.results_checked > 0 && run.wrong.empty();
  return lab::correctness_check(
             "graph_timing_correct", "every replay of the timed graphs correct", passed,
             passed ? lab::format("%d replays, x poisoned before each, exactly the CPU's a + 7 b", run.results_checked)
                    : (run.wrong.empty() ? std::string("nothing checked") : run.wrong))
      .with("results_count", run.results_checked);
}

static lab::Finding default_events(const GraphTimingRun& run) {
  const char* name = "events recorded without the flag during capture";
  const double median = lab::median_or_nan(run.default_us);
  if (run.default_returned != "cudaSuccess" && run.default_us.empty())
    return lab::named_observation("default_events.not_timestamps", name,
                                  "cudaEventElapsedTime returned " + run.default_returned +
                                      " after every replay: inside a graph they mark dependencies, not times")
        .with("returned", run.default_returned);
  if (run.default_returned != "cudaSuccess")
    return lab::named_observation("default_events.some_refused", name,
                                  lab::format("cudaEventElapsedTime returned %s after some replays, cudaSuccess "
                                              "after %zu (a median of %.3f us)",
                                              run.default_returned.c_str(), run.default_us.size(), median))
        .with("returned", run.default_returned)
        .with("timed_count", run.default_us.size())
        .with("median_us", median);
  return lab::named_observation("default_events.timed", name,
                                lab::format("cudaEventElapsedTime returned cudaSuccess, a median of %.3f us", median))
      .with("returned", run.default_returned)
      .with("median_us", median);
}

// The external pair against CUPTI: whether it brackets the node (a timing check: a pair that
// misses the node reads about the floor), how close it comes (an observation), and the benchmark.
static std::vector<lab::Finding> external_vs_cupti(const GraphTimingRun& run) {
  const char* name = "an external event pair against CUPTI";
  if (run.cupti_us.empty() || run.external_us.empty()) {
    const std::string why =
        run.external_us.empty() ? "the external pair returned " + run.external_returned : "CUPTI: " + run.cupti_missing;
    return {lab::named_observation("external_vs_cupti.not_recorded", name, "not compared: " + why),
            lab::named_observation("graph_timing_benchmark.not_measured", "benchmark", "not measured: " + why)};
  }
  const double event = lab::median_or_nan(run.external_us), cupti = lab::median_or_nan(run.cupti_us);
  const double floor = lab::median_or_nan(run.floor_us);
  const double allowance = std::max(kLeastAllowanceUs, std::isnan(floor) ? 0.0 : floor);
  const double difference = std::fabs(event - cupti);
  const bool within = difference <= allowance, brackets = event >= kBracketShare * cupti;
  const std::string text = lab::format(
      "external pair %.3f us, CUPTI %.3f us: %.3f us apart (allowed: %.3f us, the larger of 1 us and the "
      "floor, %.3f us)",
      event, cupti, difference, allowance, floor);
  const auto numbers = [&](lab::Finding f) {
    return f.with("event_us", event)
        .with("cupti_us", cupti)
        .with("floor_us", floor)
        .with("difference_us", difference)
        .with("allowance_us", allowance);
  };
  return {
      numbers(lab::timing_check(
          brackets ? "external_pair_brackets.yes" : "external_pair_brackets.no", "the external pair brackets the node",
          brackets,
          lab::format("external pair %.3f us against the node's %.3f us (CUPTI): %s (asked: at least %.0f %%)", event,
                      cupti, brackets ? "it contains the node" : "too short to contain the node",
                      100.0 * kBracketShare))),
      numbers(lab::named_observation(within ? "external_vs_cupti.within" : "external_vs_cupti.outside", name,
                                     text + lab::format("; less the floor, the pair reads %.3f us", event - floor))),
      numbers(lab::named_observation(within ? "graph_timing_benchmark.met" : "graph_timing_benchmark.not_met",
                                     "benchmark", text))};
}

std::vector<lab::Finding> graph_timing_findings(const GraphTimingRun& run) {
  std::vector<lab::Finding> findings = {graph_timing_correct(run), default_events(run)};
  for (lab::Finding& f : external_vs_cupti(run)) findings.push_back(std::move(f));
  return findings;
}

std::vector<lab::Background> graph_timing_background() {
  return {{"cudaEventRecordExternal: the event is captured in the graph as an external event node when performing "
           "stream capture",
           "CUDA Runtime API, cudaEventRecordWithFlags (driver_types.h)"},
          {"an event recorded in a stream that is in capture mode results in a captured event, which represents a "
           "set of nodes in a capture graph; it is invalid to query the execution status of a captured event",
           "CUDA Programming Guide, 4.2.2.1.2.1 Cross-stream Dependencies and Events; 4.2.2.1.2.2 Prohibited and "
           "Unhandled Operations"}};
}

}  // namespace ch10
