#include "checks.hpp"

#include <algorithm>
#include <istream>

#include "child_process.hpp"
#include "vocabulary.hpp"

namespace ch08 {

// --- 2. The launch queue -------------------------------------------------------

namespace {

double longest(const std::vector<double>& samples) {
  return samples.empty() ? 0.0 : *std::max_element(samples.begin(), samples.end());
}

// Did a call block (the releaser saw one stall) while the holding kernel still held the stream?
bool blocked(const QueueFillRun& fill) {
  return !fill.holding_kernel_timed_out && fill.stalled_call >= 0 &&
         fill.stalled_call < static_cast<std::int64_t>(fill.call_us.size());
}

lab::Finding queue_depth(const QueueFillRun& fill) {
  const char* name = "the launch queue's depth";
  if (fill.holding_kernel_timed_out)
    return lab::skipped("queue_depth", name, "the holding kernel timed out before the stream was released");
  if (!blocked(fill))
    return lab::named_observation("queue_depth.not_reached", name,
                                  lab::format("no call blocked up to %zu launches (longest %.2f us)",
                                              fill.call_us.size(), longest(fill.call_us)))
        .with("calls_count", fill.call_us.size())
        .with("longest_us", longest(fill.call_us));
  const std::vector<double> before(fill.call_us.begin(), fill.call_us.begin() + fill.stalled_call);
  const double blocked_ms = fill.call_us[static_cast<std::size_t>(fill.stalled_call)] * 1e-3;
  return lab::named_observation(
             "queue_depth.blocked", name,
             lab::format("calls blocked after %zu launches were queued: call %zu took %.1f ms, until "
                         "the stream was released; the calls before it a median of %.2f us",
                         before.size(), before.size() + 1, blocked_ms, lab::median_or_nan(before)))
      .with("depth_count", before.size())
      .with("blocked_ms", blocked_ms)
      .with("before_median_us", lab::median_or_nan(before));
}

// Past a depth D, the loop of N launches can queue launch N only once kernel N - D has ended: it lasts about the
// GPU's time for the N - D kernels beyond the depth.
lab::Finding launch_pace(std::int64_t depth, const PaceCase& past) {
  const double beyond = static_cast<double>(past.launches - depth);
  const double beyond_ms = past.gpu_ms * beyond / static_cast<double>(past.launches);
  return lab::timing_check("launch_pace.past_depth",
                           "the launch loop lasts at least half the GPU's time for the launches beyond the "
                           "measured depth",
                           past.launch_loop_ms >= 0.5 * beyond_ms,
                           lab::format("%lld launches: the loop took %.2f ms, the GPU %.2f ms for the %.0f "
                                       "beyond the depth (%.0f %%)",
                                       (long long)past.launches, past.launch_loop_ms, beyond_ms, beyond,
                                       lab::percent_of(past.launch_loop_ms, beyond_ms)))
      .with("loop_ms", past.launch_loop_ms)
      .with("beyond_ms", beyond_ms);
}

}  // namespace

// The check is made only when the held stream showed a depth below the free stream's launches.
std::vector<lab::Finding> queue_checks(const QueueFillRun& fill, const QueuePaceRun& pace) {
  std::vector<lab::Finding> findings = {queue_depth(fill)};
  if (blocked(fill) && fill.stalled_call < pace.past.launches)
    findings.push_back(launch_pace(fill.stalled_call, pace.past));
  return findings;
}

// --- 3. CUDA graphs ------------------------------------------------------------

double per_kernel(const std::vector<double>& totals, int kernels) {
  return lab::median_or_nan(totals) / std::max(1, kernels);
}

static lab::Finding replays_correct(const GraphRun& run) {
  std::string wrong;
  int checked = run.update.results_checked;
  for (const GraphSize& s : run.sizes) {
    checked += s.results_checked;
    if (wrong.empty() && !s.wrong.empty()) wrong = lab::format("K = %d: ", s.kernels) + s.wrong;
  }
  if (wrong.empty() && !run.update.wrong.empty()) wrong = "after cudaGraphExecUpdate: " + run.update.wrong;
  const std::string all = lab::format("%d results, c poisoned before each, exactly the CPU's a + K b", checked);
  return lab::correctness_check("replays_correct", "every replay and every stream run correct",
                                wrong.empty() && checked > 0, wrong.empty() ? all : wrong)
      .with("results_count", checked);
}

static lab::Finding graph_cheaper(const GraphRun& run) {
  if (run.sizes.empty() || run.sizes.back().kernels < 10)
    return lab::skipped("graph_cheaper", "graph against stream", "no graph of 10 kernels or more (--max-kernels)");
  const GraphSize& largest = run.sizes.back();
  const double stream = per_kernel(largest.stream_us, largest.kernels);
  const double graph = per_kernel(largest.graph_us, largest.kernels);
  return lab::timing_check(
             "graph_cheaper",
             lab::format("a graph of %d kernels costs less per kernel than as many stream launches", largest.kernels),
             graph < stream,
             lab::format("per kernel: stream %.2f us, graph %.2f us (%.2fx)", stream, graph, stream / graph))
      .with("stream_us", stream)
      .with("graph_us", graph);
}

std::vector<lab::Finding> graph_checks(const GraphRun& run) { return {replays_correct(run), graph_cheaper(run)}; }

// --- 4. Timing microsecond kernels honestly -------------------------------------

static lab::Finding timing_loops_correct(const HonestTimingRun& run) {
  std::string wrong;
  for (std::size_t i = 0; i < run.results.size() && i < 3 && wrong.empty(); ++i)
    if (!run.results[i].passed()) wrong = std::string(kMethodNames[i]) + ": " + run.results[i].detail();
  return lab::correctness_check(
      "timing_loops_correct", "c = a + b correct after every timing loop", wrong.empty() && run.results.size() == 3,
      wrong.empty() ? "3 loops, c poisoned before each, exact comparison with the CPU" : wrong);
}

static lab::Finding graph_below_event_pair(const HonestTimingRun& run) {
  const double pair = lab::median_or_nan(run.event_pair_us);
  const double graph = lab::median_or_nan(run.graph_us);
  return lab::timing_check("graph_below_event_pair",
                           "a graph of K launches, divided by K, reads less than an event pair per launch",
                           graph < pair, lab::format("graph / K %.2f us, event pair %.2f us", graph, pair))
      .with("graph_us", graph)
      .with("pair_us", pair);
}

std::vector<lab::Finding> honest_timing_checks(const HonestTimingRun& run) {
  return {timing_loops_correct(run), graph_below_event_pair(run)};
}

// --- 5. Kernel errors arrive later ----------------------------------------------

constexpr char kSuccess[] = "cudaSuccess";

static lab::Finding fault_reported_late(const FaultReport& n) {
  if (!n.measured) return lab::skipped("fault_reported_late", "where a kernel's error is reported", n.why_not);
  return lab::correctness_check("fault_reported_late",
                                "a kernel's fault is reported by the next synchronising call, not by its launch",
                                n.launch_error == kSuccess && n.sync_error != kSuccess,
                                "the launch returned " + n.launch_error + ", cudaDeviceSynchronize " + n.sync_error);
}

// The documentation names cudaErrorIllegalAddress as sticky; another error is shown, not judged.
static lab::Finding fault_sticks(const FaultReport& n) {
  const std::string later = "afterwards cudaGetLastError returned " + n.later_last_error + ", cudaMalloc " +
                            n.later_malloc + ", a correct kernel " + n.later_kernel;
  if (n.sync_error != "cudaErrorIllegalAddress")
    return lab::named_observation("fault_sticks.other_error", "what came after",
                                  "the fault was reported as " + n.sync_error + "; " + later);
  return lab::correctness_check(
      "fault_sticks", "cudaErrorIllegalAddress is sticky: every later call returns it",
      n.later_last_error == n.sync_error && n.later_malloc == n.sync_error && n.later_kernel == n.sync_error, later);
}

static lab::Finding launch_blocking_cost(const FaultReport& n, const FaultReport& b) {
  return lab::timing_check("launch_blocking_cost", "CUDA_LAUNCH_BLOCKING=1 makes a launch call take longer",
                           b.launch_call_us > n.launch_call_us,
                           lab::format("median launch call: %.2f us with it, %.2f us without (%.1fx)", b.launch_call_us,
                                       n.launch_call_us, b.launch_call_us / n.launch_call_us))
      .with("with_us", b.launch_call_us)
      .with("without_us", n.launch_call_us);
}

std::vector<lab::Finding> fault_checks(const FaultRun& run) {
  if (!run.skip_reason.empty()) return {lab::skipped("kernel_errors", "kernel errors", run.skip_reason)};
  std::vector<lab::Finding> findings = {fault_reported_late(run.normal)};
  if (run.normal.measured) findings.push_back(fault_sticks(run.normal));
  if (run.normal.measured && run.blocking.measured) findings.push_back(launch_blocking_cost(run.normal, run.blocking));
  return findings;
}

// The child's line (section 5).

constexpr char kChild[] = "ch08_fault_child";  // the child's name, first on its line

std::string fault_line(const FaultReport& r) {
  return lab::format("%s %d %s %s %s %s %s %.3f", kChild, r.launch_blocking ? 1 : 0, r.launch_error.c_str(),
                     r.sync_error.c_str(), r.later_last_error.c_str(), r.later_malloc.c_str(), r.later_kernel.c_str(),
                     r.launch_call_us);
}

bool read_fault_line(const std::string& text, FaultReport& into) {
  return lab::find_child_line(text, kChild, [&](std::istream& words) {
    FaultReport r;  // measured, with no why_not
    int blocking = 0;
    r.measured = static_cast<bool>(words >> blocking >> r.launch_error >> r.sync_error >> r.later_last_error >>
                                   r.later_malloc >> r.later_kernel >> r.launch_call_us);
    r.launch_blocking = blocking == 1;
    if (r.measured) into = r;
    return r.measured;
  });
}

}  // namespace ch08
