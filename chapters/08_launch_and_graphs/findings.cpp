#include "findings.hpp"

#include <algorithm>
#include <cmath>

#include "timer_step.hpp"
#include "vocabulary.hpp"

namespace ch08 {

namespace {

double longest(const std::vector<double>& samples) {
  return samples.empty() ? 0.0 : *std::max_element(samples.begin(), samples.end());
}

// A table of samples in microseconds: median, min, max and how many.
lab::ResultTable us_table(const std::string& id, const std::string& title, const std::string& first_header) {
  return lab::ResultTable(
      id, title, first_header,
      {{"median", "median", "us", 2}, {"min", "min", "us", 2}, {"max", "max", "us", 2}, {"count", "samples", "", 0}});
}

// Fills @p row with @p samples (in us) when there are any: a row with none shows "-".
lab::ResultTable::Row& with_samples(lab::ResultTable::Row& row, const std::vector<double>& samples) {
  return samples.empty() ? row : row.samples(samples, "us");
}

std::string cupti_note(const std::vector<double>& cupti_us, const std::string& why) {
  return cupti_us.empty() ? "; CUPTI: not recorded (" + why + ")" : "; CUPTI's durations: " + cupti_spread(cupti_us);
}

}  // namespace

// --- 1. What a launch costs ----------------------------------------------------

lab::ResultTable launch_cost_table(const LaunchCostRun& run) {
  lab::ResultTable table =
      us_table("launch_cost", "An empty kernel: its launch three ways, and the kernel itself", "what");
  with_samples(table.add_row("launch call (host)"), run.launch_call_us);
  with_samples(
      table.add_row(lab::format("back to back on the GPU, per kernel (events / %d)", run.back_to_back_kernels)),
      run.back_to_back_us);
  with_samples(table.add_row("launch + cudaStreamSynchronize (host)"), run.round_trip_us);
  with_samples(table.add_row("the kernel itself (CUPTI)"), run.cupti_kernel_us);
  table.note("back to back: the kernels are queued behind a held stream, then run without the host in between" +
             cupti_note(run.cupti_kernel_us, run.cupti_missing));
  return table;
}

static lab::Finding who_sets_the_pace(const LaunchCostRun& run) {
  const double call = lab::median_or_nan(run.launch_call_us);
  const double pace = lab::median_or_nan(run.back_to_back_us);
  return (call > pace
              ? lab::named_observation("pace.host", "who sets the pace",
                                       lab::format("the host took %.2f us per launch call, the GPU %.2f us per "
                                                   "kernel back to back: one small launch after another keeps the "
                                                   "GPU waiting %.2f us per kernel (a call takes %.1fx its time)",
                                                   call, pace, call - pace, call / pace))
              : lab::named_observation(
                    "pace.gpu", "who sets the pace",
                    lab::format("the host kept up: %.2f us per call, the GPU %.2f us per kernel", call, pace)))
      .with("call_us", call)
      .with("pace_us", pace);
}

// The gap between kernels: the GPU's pace less CUPTI's mean (its median is one of a few graded values).
static lab::Finding kernel_itself(const LaunchCostRun& run) {
  if (run.cupti_kernel_us.empty())
    return lab::named_observation("kernel_itself.not_recorded", "the kernel itself", "CUPTI: " + run.cupti_missing);
  const double mean = lab::summarize(run.cupti_kernel_us).mean, step = observed_step(run.cupti_kernel_us);
  const double between = std::max(0.0, lab::median_or_nan(run.back_to_back_us) - mean);
  const char* bound = step > 0 ? "; the grading bounds one reading's rounding, not the uncertainty of their mean" : "";
  return lab::named_observation(step > 0 ? "kernel_itself.graded" : "kernel_itself.all_equal", "the kernel itself",
                                lab::format("CUPTI timed it at a median of %.2f us (%s%s); the pace less that mean "
                                            "leaves %.2f us per kernel between kernels (with CUPTI recording)",
                                            lab::median_or_nan(run.cupti_kernel_us),
                                            cupti_spread(run.cupti_kernel_us).c_str(), bound, between))
      .with("kernel_mean_us", mean)
      .with("between_us", between)
      .with("cupti_step_us", step);
}

std::vector<lab::Finding> launch_cost_findings(const LaunchCostRun& run) {
  return {who_sets_the_pace(run), kernel_itself(run)};
}

std::vector<lab::Background> launch_cost_background() {
  return {{"kernel launches are asynchronous with respect to the host",
           "CUDA Runtime API, API synchronization behavior (Kernel Launches)"}};
}

// --- 2. The launch queue -------------------------------------------------------

static double per_launch_us(const PaceCase& c) {
  return c.launch_loop_ms * 1e3 / static_cast<double>(std::max<std::int64_t>(1, c.launches));
}

// Did a call block (the releaser saw one stall) while the holding kernel still held the stream?
static bool blocked(const QueueFillRun& fill) {
  return !fill.holding_kernel_timed_out && fill.stalled_call >= 0 &&
         fill.stalled_call < static_cast<std::int64_t>(fill.call_us.size());
}

lab::ResultTable queue_fill_table(const QueueFillRun& run) {
  lab::ResultTable table("queue_fill", "Launch calls into a held stream, by how many were queued before them", "calls",
                         {{"count", "calls", "", 0}, {"median", "median", "us", 2}, {"max", "longest", "us", 2}});
  const auto calls = static_cast<std::int64_t>(run.call_us.size());
  const std::int64_t depth = run.stalled_call;
  const std::int64_t queued_end = depth >= 0 ? depth : calls;  // calls [0, queued_end) returned while held
  const auto at = [&](std::int64_t i) { return run.call_us.begin() + i; };
  const auto calls_text = [](std::int64_t first, std::int64_t last) {  // 1-based
    return first == last ? "call " + std::to_string(first)
                         : lab::format("calls %lld to %lld", (long long)first, (long long)last);
  };
  for (std::int64_t first = 0, last = 0; first < queued_end; first = last + 1, last = last * 8 + 7) {
    last = std::min(last, queued_end - 1);
    with_samples(table.add_row(calls_text(first + 1, last + 1)), std::vector<double>(at(first), at(last + 1)));
  }
  if (depth >= 0 && depth < calls) {
    with_samples(table.add_row(calls_text(depth + 1, depth + 1) + ": blocked until the stream was released"),
                 {run.call_us[static_cast<std::size_t>(depth)]});
    if (depth + 1 < calls)
      with_samples(table.add_row(calls_text(depth + 2, calls) + ", after the release"),
                   std::vector<double>(at(depth + 1), run.call_us.end()));
  }
  table.note(lab::format(
      "a call still running after %.0f ms counts as blocked; another thread then releases the stream", run.stall_ms));
  return table;
}

lab::ResultTable queue_pace_table(const QueuePaceRun& run) {
  lab::ResultTable table(
      "queue_pace",
      lab::format("Spin kernels of %.0f us on a free stream, then CPU work as long as the GPU's", run.kernel_us),
      "launches",
      {{"launch_loop_ms", "launch loop (host timer)", "ms", 3},
       {"per_launch_us", "per launch", "us", 2},
       {"cpu_work_ms", "CPU work", "ms", 3},
       {"wait_ms", "wait", "ms", 3},
       {"total_ms", "total", "ms", 3},
       {"gpu_ms", "GPU (events)", "ms", 3}});
  for (const PaceCase* c : {&run.below, &run.past}) {
    table.add_row(std::to_string(c->launches))
        .set("launches", static_cast<long long>(c->launches))
        .set("launch_loop_ms", c->launch_loop_ms)
        .set("per_launch_us", per_launch_us(*c))
        .set("cpu_work_ms", c->cpu_work_ms)
        .set("wait_ms", c->wait_ms)
        .set("total_ms", c->total_ms)
        .set("gpu_ms", c->gpu_ms);
  }
  table.note("launch loop: a host timer around the launches alone (chapter 02); total: first launch to end of wait");
  return table;
}

// Of the time CPU work and GPU work could have shared, how much they did share (0..100 %).
static double overlap_percent(const PaceCase& c) {
  const double possible = std::min(c.cpu_work_ms, c.gpu_ms);
  if (possible <= 0) return 0.0;
  return std::clamp(lab::percent_of(c.cpu_work_ms + c.gpu_ms - c.total_ms, possible), 0.0, 100.0);
}

static lab::Finding queue_depth(const QueueFillRun& fill) {
  const char* name = "the launch queue's depth";
  if (fill.holding_kernel_timed_out)
    return lab::named_observation("queue_depth.not_measured", name,
                                  "not measured: the holding kernel gave up (a profiler serialising kernels?)");
  if (!blocked(fill))
    return lab::named_observation(
               "queue_depth.not_reached", name,
               lab::format("no call blocked up to %zu launches (longest %.2f us): raise --queue-launches",
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

static lab::Finding launch_pace(const QueueFillRun& fill, const QueuePaceRun& pace) {
  const double below = per_launch_us(pace.below);
  const double past = per_launch_us(pace.past);
  const std::string loops =
      lab::format("%lld launches took %.2f us each, %lld took %.2f us each (kernels of %.0f us)",
                  (long long)pace.below.launches, below, (long long)pace.past.launches, past, pace.kernel_us);
  return (blocked(fill) && fill.stalled_call < pace.past.launches
              ? lab::timing_check("launch_pace.past_depth", "past the queue's depth a launch call waits for the GPU",
                                  past > 2 * below, loops)
              : lab::named_observation("launch_pace.below_depth", "launches below the depth",
                                       loops + ": every launch fitted in the queue"))
      .with("below_us", below)
      .with("past_us", past);
}

static lab::Finding host_timer(const PaceCase& c) {
  const double percent = c.gpu_ms > 0 ? lab::percent_of(c.launch_loop_ms, c.gpu_ms) : 0.0;
  const std::string timer = lab::format("around %lld launches it read %.2f ms, %.0f %% of the GPU's %.2f ms",
                                        (long long)c.launches, c.launch_loop_ms, percent, c.gpu_ms);
  const char* name = "the host timer around the launches";
  return (percent > 50 ? lab::named_observation("host_timer.followed_gpu", name,
                                                timer + ": the calls waited for room in the queue")
                       : lab::named_observation("host_timer.timed_calls", name,
                                                timer + ": it timed the launch calls, not the GPU's work (chapter 02)"))
      .with("loop_percent", percent);
}

static lab::Finding cpu_work_overlap(const QueuePaceRun& pace) {
  const PaceCase& past = pace.past;
  return lab::named_observation("cpu_work_overlap", "CPU work placed after the launches",
                                lab::format("after %lld launches it overlapped %.0f %% of what it could with the GPU's "
                                            "work; after %lld, %.0f %%",
                                            (long long)past.launches, overlap_percent(past),
                                            (long long)pace.below.launches, overlap_percent(pace.below)))
      .with("past_percent", overlap_percent(past))
      .with("below_percent", overlap_percent(pace.below));
}

std::vector<lab::Finding> queue_findings(const QueueFillRun& fill, const QueuePaceRun& pace) {
  return {queue_depth(fill), launch_pace(fill, pace), host_timer(pace.past), cpu_work_overlap(pace)};
}

std::vector<lab::Background> queue_background() {
  return {
      {"any CUDA API call may block or synchronize for various reasons such as contention for or unavailability of "
       "internal resources. Such behavior is subject to change and undocumented behavior should not be relied upon. "
       "How many launches a stream's queue holds is not documented: this section measures it",
       "CUDA Runtime API, API synchronization behavior"}};
}

// --- 3. CUDA graphs ------------------------------------------------------------

static double per_kernel(const std::vector<double>& totals, int kernels) {
  return lab::median_or_nan(totals) / std::max(1, kernels);
}

static bool graph_won(const GraphSize& s) { return lab::median_or_nan(s.graph_us) < lab::median_or_nan(s.stream_us); }

lab::ResultTable graph_table(const GraphRun& run) {
  lab::ResultTable table(
      "graphs",
      lab::format("K dependent additions on %lld floats: K stream launches against one graph of K kernels",
                  (long long)run.n),
      "K",
      {{"capture_us", "capture", "us", 1},
       {"instantiate_us", "instantiate", "us", 1},
       {"stream_per_kernel_us", "stream, per kernel", "us", 2},
       {"graph_per_kernel_us", "graph, per kernel", "us", 2},
       {"stream_over_graph", "stream / graph", "", 2},
       {"stream_gpu_per_kernel_us", "stream GPU/kernel", "us", 2},
       {"graph_gpu_per_kernel_us", "graph GPU/kernel", "us", 2}});
  for (const GraphSize& s : run.sizes) {
    const double stream = per_kernel(s.stream_us, s.kernels);
    const double graph = per_kernel(s.graph_us, s.kernels);
    table.add_row(std::to_string(s.kernels))
        .set("kernels", s.kernels)
        .set("capture_us", lab::median_or_nan(s.capture_us))
        .set("instantiate_us", lab::median_or_nan(s.instantiate_us))
        .set("stream_per_kernel_us", stream)
        .set("graph_per_kernel_us", graph)
        .set("stream_over_graph", stream / graph)
        .set("stream_gpu_per_kernel_us", per_kernel(s.stream_gpu_us, s.kernels))
        .set("graph_gpu_per_kernel_us", per_kernel(s.graph_gpu_us, s.kernels))
        .set("stream_samples_us", s.stream_us)
        .set("graph_samples_us", s.graph_us);
  }
  table.note(
      "per kernel: a host timer from the first launch (or cudaGraphLaunch) to the end of cudaStreamSynchronize, "
      "divided by K (medians); GPU: events around the same work");
  return table;
}

lab::ResultTable graph_update_table(const GraphRun& run) {
  const std::string graph = lab::count_text(static_cast<std::size_t>(run.update.kernels), "kernel", "kernels");
  lab::ResultTable table =
      us_table("graph_update", "New arrays for an instantiated graph of " + graph + ": update it, or instantiate again",
               "what (host time)");
  with_samples(table.add_row("capture the launches on the new arrays"), run.update.recapture_us);
  with_samples(table.add_row("cudaGraphExecUpdate"), run.update.update_us);
  with_samples(table.add_row("cudaGraphInstantiate, instead"), run.update.instantiate_us);
  return table;
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
    return lab::named_observation("graph_cheaper.no_large_graph", "graph against stream",
                                  "no graph of 10 kernels or more in this run: no comparison");
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

// "from K = X" only when the graph finished sooner at X and at every larger K of the run.
static lab::Finding graph_pays_from(const GraphRun& run) {
  const char* name = "where a graph starts to pay";
  std::string won_at, lost_at;
  for (const GraphSize& s : run.sizes) {
    std::string& list = graph_won(s) ? won_at : lost_at;
    list += (list.empty() ? "" : ", ") + std::to_string(s.kernels);
  }
  const auto first_win = std::find_if(run.sizes.begin(), run.sizes.end(), graph_won);
  if (first_win == run.sizes.end())
    return lab::named_observation("graph_pays_from.never", name, "at no K of this run did the graph finish sooner");
  if (!std::all_of(first_win, run.sizes.end(), graph_won))
    return lab::named_observation("graph_pays_from.mixed", name,
                                  "the graph finished sooner at K = " + won_at + ", not at K = " + lost_at);
  return lab::named_observation(
             "graph_pays_from.from_k", name,
             lab::format("from K = %d the graph finished sooner: %.1f us against %.1f us", first_win->kernels,
                         lab::median_or_nan(first_win->graph_us), lab::median_or_nan(first_win->stream_us)))
      .with("from_kernels", first_win->kernels);
}

static lab::Finding graph_setup(const GraphSize& largest) {
  const double saved = lab::median_or_nan(largest.stream_us) - lab::median_or_nan(largest.graph_us);
  const double setup = lab::median_or_nan(largest.capture_us) + lab::median_or_nan(largest.instantiate_us);
  const std::string made =
      lab::format("capturing and instantiating the graph of K = %d took %.1f us; ", largest.kernels, setup);
  const char* name = "what a graph costs to make";
  return (saved > 0
              ? lab::named_observation("graph_setup.pays_back", name,
                                       made + lab::format("each replay saves %.1f us: paid back after %.0f replays",
                                                          saved, std::ceil(setup / saved)))
              : lab::named_observation("graph_setup.never", name, made + "no replay saved time in this run"))
      .with("setup_us", setup)
      .with("saved_us", saved);
}

std::vector<lab::Finding> graph_findings(const GraphRun& run) {
  std::vector<lab::Finding> findings = {replays_correct(run), graph_cheaper(run), graph_pays_from(run)};
  if (!run.sizes.empty()) findings.push_back(graph_setup(run.sizes.back()));
  if (!run.update.update_failure.empty())  // the times are the update table's
    findings.push_back(lab::named_observation("graph_update.refused", "updating a graph",
                                              "cudaGraphExecUpdate refused: " + run.update.update_failure));
  return findings;
}

std::vector<lab::Background> graph_background() {
  return {{"between cudaStreamBeginCapture and cudaStreamEndCapture, work queued on the stream is not run but "
           "recorded into a graph; cudaGraphInstantiate makes it an executable graph that cudaGraphLaunch runs as "
           "one unit, as often as wanted",
           "CUDA Runtime API, cudaStreamBeginCapture, cudaStreamEndCapture, cudaGraphInstantiate, cudaGraphLaunch"},
          {"cudaGraphExecUpdate updates the node parameters of an executable graph from a topologically identical "
           "graph; it returns cudaErrorGraphExecUpdateFailure when the change is not allowed (for a kernel node, "
           "for example, a change of its function's context)",
           "CUDA Runtime API, cudaGraphExecUpdate"}};
}

// --- 4. Timing microsecond kernels honestly -------------------------------------

const char* const kMethodNames[] = {"event pair per launch", "blocked stream (chapter 03)",
                                    "graph of K launches, events / K"};

// Each method's samples, in the order of kMethodNames.
constexpr std::vector<double> HonestTimingRun::* kMethods[] = {
    &HonestTimingRun::event_pair_us, &HonestTimingRun::blocked_us, &HonestTimingRun::graph_us};

lab::ResultTable honest_timing_table(const HonestTimingRun& run) {
  lab::ResultTable table(
      "honest_timing",
      lab::format("c = a + b on %lld floats, timed four ways (K = %d)", (long long)run.n, run.graph_kernels), "method",
      {{"median", "median", "us", 2},
       {"min", "min", "us", 2},
       {"max", "max", "us", 2},
       {"count", "samples", "", 0},
       {"vs_cupti", "vs CUPTI", "", 0}});
  const double cupti = lab::median_or_nan(run.cupti_us);
  for (int i = 0; i < 3; ++i) {
    lab::ResultTable::Row& row = with_samples(table.add_row(kMethodNames[i]), run.*kMethods[i]);
    if (!run.cupti_us.empty())
      row.set("vs_cupti", lab::signed_percent(lab::percent_above(lab::median_or_nan(run.*kMethods[i]), cupti), 0));
  }
  with_samples(table.add_row("CUPTI: the kernel itself, every timed launch"), run.cupti_us);
  table.note("graph: K launches captured into one graph, replayed between two events, the time divided by K" +
             cupti_note(run.cupti_us, run.cupti_missing));
  return table;
}

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

// The vs CUPTI column gives each method's distance; this says which came closest.
static lab::Finding closest_to_cupti(const HonestTimingRun& run) {
  if (run.cupti_us.empty())
    return lab::named_observation("closest_to_cupti.not_recorded", "closest to CUPTI", "CUPTI: " + run.cupti_missing);
  const double cupti = lab::median_or_nan(run.cupti_us);
  const auto distance = [&](int i) { return std::fabs(lab::median_or_nan(run.*kMethods[i]) - cupti); };
  const int best = distance(0) <= std::min(distance(1), distance(2)) ? 0 : distance(1) <= distance(2) ? 1 : 2;
  const double closest = lab::median_or_nan(run.*kMethods[best]);
  return lab::named_observation(
             "closest_to_cupti", "closest to CUPTI",
             lab::format("CUPTI timed the kernel at a median of %.2f us (%s); closest: %s, %.2f us (%s)", cupti,
                         cupti_spread(run.cupti_us).c_str(), kMethodNames[best], closest,
                         lab::signed_percent(lab::percent_above(closest, cupti), 0).c_str()))
      .with("cupti_us", cupti)
      .with("cupti_step_us", observed_step(run.cupti_us))
      .with("closest_us", closest)
      .with("closest", kMethodNames[best]);
}

std::vector<lab::Finding> honest_timing_findings(const HonestTimingRun& run) {
  return {timing_loops_correct(run), graph_below_event_pair(run), closest_to_cupti(run)};
}

std::vector<lab::Background> honest_timing_background() {
  return {{"triton's do_bench_cudagraph captures the benchmarked function n_repeat times into one CUDA graph, "
           "replays it between two events and divides the time by n_repeat",
           "triton, python/triton/testing.py, do_bench_cudagraph"},
          {"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL records each kernel's start and end timestamps, in ns, kernels "
           "launched from a graph included",
           "CUPTI, cupti_activity.h, CUpti_ActivityKind"}};
}

// --- 5. Kernel errors arrive later ----------------------------------------------

constexpr char kSuccess[] = "cudaSuccess";

lab::ResultTable fault_table(const FaultRun& run) {
  lab::ResultTable table("fault",
                         "A kernel that stores outside every allocation, in a child process: what each call returned",
                         "CUDA_LAUNCH_BLOCKING",
                         {{"launch", "the launch", "", 0},
                          {"sync", "cudaDeviceSynchronize", "", 0},
                          {"last_error", "cudaGetLastError after", "", 0},
                          {"malloc", "cudaMalloc after", "", 0},
                          {"kernel", "a correct kernel after", "", 0},
                          {"launch_call_us", "launch call, before", "us", 2}});
  for (const FaultReport* r : {&run.normal, &run.blocking}) {
    lab::ResultTable::Row& row = table.add_row(r == &run.normal ? "0" : "1");
    if (!r->measured) {
      row.set("launch", run.skipped ? "skipped" : "not measured")
          .set("why_not", run.skipped ? run.skip_reason : r->why_not);
      continue;
    }
    row.set("launch", r->launch_error)
        .set("sync", r->sync_error)
        .set("last_error", r->later_last_error)
        .set("malloc", r->later_malloc)
        .set("kernel", r->later_kernel)
        .set("launch_call_us", r->launch_call_us);
  }
  table.note("the launch: cudaGetLastError right after it; launch call: a correct empty kernel's, before the fault");
  return table;
}

static lab::Finding fault_reported_late(const FaultReport& n) {
  if (!n.measured)
    return lab::named_observation("fault_reported_late.not_measured", "where a kernel's error is reported",
                                  "not measured: " + n.why_not);
  return lab::correctness_check("fault_reported_late",
                                "a kernel's fault is reported by the next synchronising call, not by its launch",
                                n.launch_error == kSuccess && n.sync_error != kSuccess,
                                "the launch returned " + n.launch_error + ", cudaDeviceSynchronize " + n.sync_error);
}

static lab::Finding fault_sticks(const FaultReport& n) {
  const std::string later = "afterwards cudaGetLastError returned " + n.later_last_error + ", cudaMalloc " +
                            n.later_malloc + ", a correct kernel " + n.later_kernel;
  if (n.sync_error != "cudaErrorIllegalAddress")
    return lab::named_observation(
        "fault_sticks.other_error", "what came after",
        "the fault was reported as " + n.sync_error + ", not cudaErrorIllegalAddress; " + later);
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

std::vector<lab::Finding> fault_findings(const FaultRun& run) {
  if (run.skipped)
    return {lab::named_observation("kernel_errors.skipped", "kernel errors", "skipped: " + run.skip_reason)};
  std::vector<lab::Finding> findings = {fault_reported_late(run.normal)};
  if (run.normal.measured) findings.push_back(fault_sticks(run.normal));
  if (run.normal.measured && run.blocking.measured) findings.push_back(launch_blocking_cost(run.normal, run.blocking));
  return findings;
}

std::vector<lab::Background> fault_background() {
  return {{"cudaErrorIllegalAddress: the device encountered a load or store instruction on an invalid memory "
           "address; this leaves the process in an inconsistent state and any further CUDA work returns the same "
           "error: the process must be terminated and relaunched to use CUDA again",
           "CUDA Runtime API, cudaError (cudaErrorIllegalAddress)"},
          {"setting CUDA_LAUNCH_BLOCKING=1 disables the asynchronicity of kernel launches, for debugging only",
           "CUDA C++ Programming Guide, Concurrent Execution between Host and Device; CUDA Environment Variables"}};
}

}  // namespace ch08
