#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "statistics.hpp"

namespace ch08 {

namespace {

using lab::fixed;

constexpr auto& mid = lab::median_or_nan;  // NaN when there are no samples

double longest(const std::vector<double>& samples) {
  return samples.empty() ? 0.0 : *std::max_element(samples.begin(), samples.end());
}

lab::Finding (&note)(const std::string&, const std::string&) = lab::named_observation;  // "name: text"

// "+12 %" / "-3 %": how far @p value lies from @p reference, with its sign.
std::string apart(double value, double reference) {
  const double percent = 100.0 * (value - reference) / reference;
  return (percent >= 0 ? "+" : "") + fixed(percent, 0) + " %";
}

// A table of samples in microseconds: median, min, max and how many.
lab::ResultTable us_table(const std::string& title, const std::string& first_header) {
  return lab::ResultTable(
      title, first_header,
      {{"median", "median", "us", 2}, {"min", "min", "us", 2}, {"max", "max", "us", 2}, {"count", "samples", "", 0}});
}

// Fills @p row with @p samples (in us) when there are any: a row with none shows "-".
lab::ResultTable::Row& with_samples(lab::ResultTable::Row& row, const std::vector<double>& samples) {
  return samples.empty() ? row : row.samples(samples, "us");
}

}  // namespace

// --- 1. What a launch costs ----------------------------------------------------

lab::ResultTable launch_cost_table(const LaunchCostRun& run) {
  lab::ResultTable table = us_table("An empty kernel: its launch three ways, and the kernel itself", "what");
  with_samples(table.add_row("launch call (host)"), run.launch_call_us);
  with_samples(
      table.add_row("back to back on the GPU, per kernel (events / " + std::to_string(run.back_to_back_kernels) + ")"),
      run.back_to_back_us);
  with_samples(table.add_row("launch + cudaStreamSynchronize (host)"), run.round_trip_us);
  with_samples(table.add_row("the kernel itself (CUPTI)"), run.cupti_kernel_us);
  table.note("back to back: the kernels are queued behind a held stream, then run without the host in between" +
             (run.cupti_kernel_us.empty() ? "; CUPTI: not recorded (" + run.cupti_missing + ")" : std::string()));
  return table;
}

std::vector<lab::Finding> launch_cost_findings(const LaunchCostRun& run) {
  const double call = mid(run.launch_call_us);
  const double pace = mid(run.back_to_back_us);
  const double round_trip = mid(run.round_trip_us);
  std::vector<lab::Finding> findings;
  findings.push_back(lab::timing_check("a launch call returns before its kernel's round trip would", call < round_trip,
                                       "median launch call " + fixed(call, 2) + " us, launch + cudaStreamSynchronize " +
                                           fixed(round_trip, 2) + " us (" + fixed(round_trip / call, 1) + "x)"));
  if (call > pace) {
    findings.push_back(
        note("who sets the pace",
             "the host took " + fixed(call, 2) + " us per launch call, the GPU " + fixed(pace, 2) +
                 " us per kernel back to back: a host launching one small kernel after another keeps "
                 "the GPU waiting " +
                 fixed(call - pace, 2) + " us per kernel (a launch call takes " + fixed(call / pace, 1) +
                 "x the GPU's time per kernel). Section 3 measures what a graph, launched with one call, "
                 "changes."));
  } else {
    findings.push_back(note("who sets the pace", "the GPU took " + fixed(pace, 2) +
                                                     " us per kernel back to back, the host " + fixed(call, 2) +
                                                     " us per launch call: here the host kept up"));
  }
  if (run.cupti_kernel_us.empty()) {
    findings.push_back(note("the kernel itself", "CUPTI did not record (" + run.cupti_missing + "): no figure"));
  } else {
    const double own = mid(run.cupti_kernel_us);
    findings.push_back(
        note("the kernel itself", "CUPTI timed the empty kernel at " + fixed(own, 2) + " us; of the " + fixed(pace, 2) +
                                      " us per kernel back to back, " + fixed(std::max(0.0, pace - own), 2) +
                                      " us lie between one kernel's end and the next one's (with CUPTI recording)"));
  }
  return findings;
}

std::vector<Background> launch_cost_background() {
  return {{"kernel launches are asynchronous with respect to the host",
           "CUDA Runtime API, API synchronization behavior (Kernel Launches)"}};
}

// --- 2. The launch queue -------------------------------------------------------

std::int64_t queue_depth(const QueueFillRun& run) { return run.stalled_call; }

lab::ResultTable queue_fill_table(const QueueFillRun& run) {
  lab::ResultTable table("Launch calls into a held stream, by how many were queued before them", "calls",
                         {{"count", "calls", "", 0}, {"median", "median", "us", 2}, {"max", "longest", "us", 2}});
  const auto calls = static_cast<std::int64_t>(run.call_us.size());
  const std::int64_t depth = queue_depth(run);
  const std::int64_t queued_end = depth >= 0 ? depth : calls;  // calls [0, queued_end) returned while held
  std::int64_t first = 0;
  for (std::int64_t last = 0; first < queued_end; last = last * 8 + 7) {
    const std::int64_t end = std::min(last + 1, queued_end);
    std::vector<double> group(run.call_us.begin() + first, run.call_us.begin() + end);
    const std::string name = end - first == 1 ? "call " + std::to_string(first + 1)
                                              : "calls " + std::to_string(first + 1) + " to " + std::to_string(end);
    with_samples(table.add_row(name), group);
    first = end;
  }
  if (depth >= 0 && depth < calls) {
    with_samples(table.add_row("call " + std::to_string(depth + 1) + ": blocked until the stream was released"),
                 {run.call_us[static_cast<std::size_t>(depth)]});
    if (depth + 1 < calls) {
      with_samples(
          table.add_row("calls " + std::to_string(depth + 2) + " to " + std::to_string(calls) + ", after the release"),
          std::vector<double>(run.call_us.begin() + depth + 1, run.call_us.end()));
    }
  }
  table.note("the stream is held by a kernel that spins until released; a call still running after " +
             fixed(run.stall_ms, 0) + " ms counts as blocked, and another thread releases the stream then");
  return table;
}

lab::ResultTable queue_pace_table(const QueuePaceRun& run) {
  lab::ResultTable table(
      "Spin kernels of " + fixed(run.kernel_us, 0) + " us on a free stream, then CPU work as long as the GPU's",
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
        .set("per_launch_us", c->launch_loop_ms * 1e3 / static_cast<double>(std::max<std::int64_t>(1, c->launches)))
        .set("cpu_work_ms", c->cpu_work_ms)
        .set("wait_ms", c->wait_ms)
        .set("total_ms", c->total_ms)
        .set("gpu_ms", c->gpu_ms);
  }
  table.note(
      "launch loop: a host timer around the launches alone, no synchronisation (chapter 02); total: first "
      "launch to the end of the wait");
  return table;
}

namespace {

double per_launch_us(const PaceCase& c) {
  return c.launch_loop_ms * 1e3 / static_cast<double>(std::max<std::int64_t>(1, c.launches));
}

// Of the time CPU work and GPU work could have shared, how much they did share (0..1).
double overlap_share(const PaceCase& c) {
  const double possible = std::min(c.cpu_work_ms, c.gpu_ms);
  if (possible <= 0) return 0.0;
  const double shared = c.cpu_work_ms + c.gpu_ms - c.total_ms;
  return std::clamp(shared / possible, 0.0, 1.0);
}

}  // namespace

std::vector<lab::Finding> queue_findings(const QueueFillRun& fill, const QueuePaceRun& pace) {
  std::vector<lab::Finding> findings;
  const std::int64_t depth = queue_depth(fill);
  const auto calls = static_cast<std::int64_t>(fill.call_us.size());
  if (fill.holding_kernel_timed_out) {
    findings.push_back(note("the launch queue's depth",
                            "not measured: the holding kernel gave up before the stream was released (is a profiler "
                            "serialising kernels?)"));
  } else if (depth >= 0 && depth < calls) {
    const std::vector<double> before(fill.call_us.begin(), fill.call_us.begin() + depth);
    findings.push_back(note("the launch queue's depth",
                            "launch calls started to block after " + std::to_string(depth) +
                                " launches were queued behind the held stream: call " + std::to_string(depth + 1) +
                                " took " + fixed(fill.call_us[static_cast<std::size_t>(depth)] * 1e-3, 1) +
                                " ms, until the stream was released; the calls before it took a median of " +
                                fixed(mid(before), 2) + " us (longest " + fixed(longest(before), 2) + " us)"));
  } else {
    findings.push_back(note("the launch queue's depth",
                            "did not block up to " + std::to_string(calls) + " launches: the longest call took " +
                                fixed(longest(fill.call_us), 2) + " us (raise --queue-launches to look further)"));
  }

  const double below = per_launch_us(pace.below);
  const double past = per_launch_us(pace.past);
  const bool blocked_in_pace = depth >= 0 && depth < pace.past.launches && !fill.holding_kernel_timed_out;
  const std::string loops = std::to_string(pace.below.launches) + " launches took " + fixed(below, 2) + " us each, " +
                            std::to_string(pace.past.launches) + " took " + fixed(past, 2) + " us each (kernels of " +
                            fixed(pace.kernel_us, 0) + " us)";
  if (blocked_in_pace) {
    findings.push_back(
        lab::timing_check("past the queue's depth a launch call waits for the GPU", past > 2 * below, loops));
  } else {
    findings.push_back(note("launches below the depth", loops + ": every launch fitted in the queue"));
  }
  const double share = pace.past.gpu_ms > 0 ? pace.past.launch_loop_ms / pace.past.gpu_ms : 0.0;
  const std::string timer = "a host timer around " + std::to_string(pace.past.launches) + " launches read " +
                            fixed(pace.past.launch_loop_ms, 2) + " ms, " + fixed(100 * share, 0) + " % of the GPU's " +
                            fixed(pace.past.gpu_ms, 2) + " ms";
  findings.push_back(note("the host timer around the launches",
                          share > 0.5 ? timer + ": past the depth each call waited for room in the queue, so the "
                                                "timer followed the GPU's work, not the launch calls"
                                      : timer + ": it timed the launch calls, not the GPU's work (chapter 02)"));
  findings.push_back(
      note("CPU work placed after the launches",
           "after " + std::to_string(pace.past.launches) + " launches it shared " +
               fixed(100 * overlap_share(pace.past), 0) + " % of the time it could have with the GPU's work (total " +
               fixed(pace.past.total_ms, 2) +
               " ms; one after "
               "the other " +
               fixed(pace.past.cpu_work_ms + pace.past.gpu_ms, 2) + " ms); after " +
               std::to_string(pace.below.launches) + " launches, " + fixed(100 * overlap_share(pace.below), 0) + " %"));
  return findings;
}

std::vector<Background> queue_background() {
  return {
      {"a kernel launch returns once the launch is queued; what the queue holds, and how much, is the driver's: "
       "this section measures it instead of quoting a figure",
       "CUDA Runtime API, API synchronization behavior (Kernel Launches: asynchronous with respect to the host)"}};
}

// --- 3. CUDA graphs ------------------------------------------------------------

namespace {

double per_kernel(const std::vector<double>& totals, int kernels) { return mid(totals) / std::max(1, kernels); }

const GraphSize* size_with(const GraphRun& run, int kernels) {
  for (const GraphSize& s : run.sizes)
    if (s.kernels == kernels) return &s;
  return nullptr;
}

std::string kernels_text(int k) { return std::to_string(k) + (k == 1 ? " kernel" : " kernels"); }

}  // namespace

lab::ResultTable graph_table(const GraphRun& run) {
  lab::ResultTable table(
      "K dependent additions on " + std::to_string(run.n) + " floats: K stream launches against one graph of K kernels",
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
        .set("capture_us", mid(s.capture_us))
        .set("instantiate_us", mid(s.instantiate_us))
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
  lab::ResultTable table = us_table("New arrays for an instantiated graph of " + kernels_text(run.update.kernels) +
                                        ": update it, or instantiate again",
                                    "what (host time)");
  with_samples(table.add_row("capture the launches on the new arrays"), run.update.recapture_us);
  with_samples(table.add_row("cudaGraphExecUpdate"), run.update.update_us);
  with_samples(table.add_row("cudaGraphInstantiate, instead"), run.update.instantiate_us);
  return table;
}

std::vector<lab::Finding> graph_findings(const GraphRun& run) {
  std::vector<lab::Finding> findings;
  std::string wrong;
  int checked = run.update.results_checked;
  for (const GraphSize& s : run.sizes) {
    checked += s.results_checked;
    if (wrong.empty() && !s.wrong.empty()) wrong = "K = " + std::to_string(s.kernels) + ": " + s.wrong;
  }
  if (wrong.empty() && !run.update.wrong.empty()) wrong = "after cudaGraphExecUpdate: " + run.update.wrong;
  findings.push_back(lab::correctness_check(
      "every replay and every stream run correct", wrong.empty() && checked > 0,
      wrong.empty() ? std::to_string(checked) + " results, c poisoned before each, exact comparison with the CPU's "
                                                "a + K b"
                    : wrong));

  const GraphSize* largest = run.sizes.empty() ? nullptr : &run.sizes.back();
  if (largest != nullptr && largest->kernels >= 10) {
    const double stream = per_kernel(largest->stream_us, largest->kernels);
    const double graph = per_kernel(largest->graph_us, largest->kernels);
    findings.push_back(lab::timing_check(
        "a graph of " + kernels_text(largest->kernels) + " costs less per kernel than as many stream launches",
        graph < stream,
        "per kernel, launch to completion: stream " + fixed(stream, 2) + " us, graph " + fixed(graph, 2) + " us (" +
            fixed(stream / graph, 2) + "x)"));
  } else {
    findings.push_back(note("graph against stream", "no graph of 10 kernels or more in this run: no comparison"));
  }

  // "from K = X" only when the graph finished sooner at X and at every larger K of the run.
  const auto graph_won = [](const GraphSize& s) { return mid(s.graph_us) < mid(s.stream_us); };
  std::size_t from = run.sizes.size();
  while (from > 0 && graph_won(run.sizes[from - 1])) --from;
  std::string won_at, lost_at;
  for (const GraphSize& s : run.sizes) {
    std::string& list = graph_won(s) ? won_at : lost_at;
    list += (list.empty() ? "K = " : ", ") + std::to_string(s.kernels);
  }
  if (won_at.empty()) {
    findings.push_back(note("where a graph starts to pay", "at no K of this run did the graph finish sooner"));
  } else if (std::none_of(run.sizes.begin(), run.sizes.begin() + static_cast<std::ptrdiff_t>(from), graph_won)) {
    const GraphSize& first_win = run.sizes[from];
    findings.push_back(note("where a graph starts to pay",
                            "from K = " + std::to_string(first_win.kernels) +
                                " the graph finished sooner: " + fixed(mid(first_win.graph_us), 1) + " us against " +
                                fixed(mid(first_win.stream_us), 1) + " us for the stream launches"));
  } else {
    findings.push_back(
        note("where a graph starts to pay", "the graph finished sooner at " + won_at + ", not at " + lost_at));
  }
  if (largest != nullptr) {
    const double saved = mid(largest->stream_us) - mid(largest->graph_us);
    const double setup = mid(largest->capture_us) + mid(largest->instantiate_us);
    findings.push_back(
        note("what a graph costs to make",
             "capturing and instantiating the graph of " + kernels_text(largest->kernels) + " took " + fixed(setup, 1) +
                 " us; " +
                 (saved > 0 ? "each replay saves " + fixed(saved, 1) + " us, so it pays for itself after " +
                                  fixed(std::ceil(setup / saved), 0) + " replays"
                            : "no replay saved time in this run, so it never pays for itself here")));
  }

  const GraphUpdateRun& u = run.update;
  if (!u.update_failure.empty()) {
    findings.push_back(note("updating a graph", "cudaGraphExecUpdate refused: " + u.update_failure));
  } else if (!u.update_us.empty()) {
    const double update = mid(u.update_us);
    const double again = mid(u.instantiate_us);
    findings.push_back(note("updating a graph",
                            update < again
                                ? "cudaGraphExecUpdate took " + fixed(update, 1) + " us against " + fixed(again, 1) +
                                      " us for a new cudaGraphInstantiate (" + fixed(again / update, 1) + "x less)"
                                : "cudaGraphExecUpdate took " + fixed(update, 1) +
                                      " us, not less than a new cudaGraphInstantiate (" + fixed(again, 1) + " us)"));
  }

  const std::string name = "benchmark: per kernel, a graph of " + std::to_string(kBenchmarkKernels) +
                           " kernels against " + std::to_string(kBenchmarkKernels) + " stream launches";
  if (const GraphSize* b = size_with(run, kBenchmarkKernels)) {
    const double stream = per_kernel(b->stream_us, b->kernels);
    const double graph = per_kernel(b->graph_us, b->kernels);
    findings.push_back(note(name, "stream " + fixed(stream, 2) + " us, graph " + fixed(graph, 2) +
                                      " us per kernel: ratio " + fixed(stream / graph, 2)));
  } else {
    findings.push_back(note(
        name, "not measured: no K = " + std::to_string(kBenchmarkKernels) + " in this run (--max-kernels below it)"));
  }
  return findings;
}

std::vector<Background> graph_background() {
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

namespace {

const char* const kMethodNames[] = {"event pair per launch", "blocked stream (chapter 03)",
                                    "graph of K launches, events / K"};

}  // namespace

lab::ResultTable honest_timing_table(const HonestTimingRun& run) {
  lab::ResultTable table("c = a + b on " + std::to_string(run.n) +
                             " floats, timed four ways (K = " + std::to_string(run.graph_kernels) + ")",
                         "method",
                         {{"median", "median", "us", 2},
                          {"min", "min", "us", 2},
                          {"max", "max", "us", 2},
                          {"count", "samples", "", 0},
                          {"vs_cupti", "vs CUPTI", "", 0}});
  const double cupti = mid(run.cupti_us);
  const std::vector<double>* methods[] = {&run.event_pair_us, &run.blocked_us, &run.graph_us};
  for (int i = 0; i < 3; ++i) {
    lab::ResultTable::Row& row = with_samples(table.add_row(kMethodNames[i]), *methods[i]);
    if (!run.cupti_us.empty()) row.set("vs_cupti", apart(mid(*methods[i]), cupti));
  }
  with_samples(table.add_row("CUPTI: the kernel itself, every timed launch"), run.cupti_us);
  table.note("graph: K launches captured into one graph, replayed between two events, the time divided by K" +
             (run.cupti_us.empty() ? "; CUPTI: not recorded (" + run.cupti_missing + ")" : std::string()));
  return table;
}

std::vector<lab::Finding> honest_timing_findings(const HonestTimingRun& run) {
  std::vector<lab::Finding> findings;
  std::string wrong;
  for (std::size_t i = 0; i < run.results.size() && wrong.empty(); ++i) {
    if (!run.results[i].passed()) wrong = std::string(kMethodNames[i < 3 ? i : 2]) + ": " + run.results[i].detail();
  }
  findings.push_back(
      lab::correctness_check("c = a + b correct after every timing loop", wrong.empty() && run.results.size() == 3,
                             wrong.empty() ? "3 loops, c poisoned before each, exact comparison with the CPU" : wrong));
  const double pair = mid(run.event_pair_us);
  const double graph = mid(run.graph_us);
  findings.push_back(lab::timing_check("a graph of K launches, divided by K, reads less than an event pair per launch",
                                       graph < pair,
                                       "graph / K " + fixed(graph, 2) + " us, event pair " + fixed(pair, 2) + " us"));
  if (run.cupti_us.empty()) {
    findings.push_back(note("the four against each other",
                            "CUPTI did not record (" + run.cupti_missing + "): no kernel duration to compare with"));
    return findings;
  }
  const double cupti = mid(run.cupti_us);
  const std::vector<double>* methods[] = {&run.event_pair_us, &run.blocked_us, &run.graph_us};
  int best = 0;
  std::string each;
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(mid(*methods[i]) - cupti) < std::fabs(mid(*methods[best]) - cupti)) best = i;
    each += std::string(i ? ", " : "") + kMethodNames[i] + " " + apart(mid(*methods[i]), cupti);
  }
  findings.push_back(note("the four against each other",
                          "CUPTI timed the kernel itself at " + fixed(cupti, 2) + " us (median); " + each +
                              ". Closest: " + kMethodNames[best] + ", " + fixed(mid(*methods[best]), 2) + " us"));
  return findings;
}

std::vector<Background> honest_timing_background() {
  return {{"triton's do_bench_cudagraph captures the benchmarked function n_repeat times into one CUDA graph, "
           "replays it between two events and divides the time by n_repeat",
           "triton, python/triton/testing.py, do_bench_cudagraph"},
          {"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL records each kernel's start and end timestamps, in ns, kernels "
           "launched from a graph included",
           "CUPTI, cupti_activity.h, CUpti_ActivityKind"}};
}

// --- 5. Kernel errors arrive later ----------------------------------------------

namespace {

constexpr char kChild[] = "ch08_fault_child";
constexpr char kSuccess[] = "cudaSuccess";

void set_row(lab::ResultTable& table, const std::string& name, const FaultReport& r, const std::string& skipped) {
  lab::ResultTable::Row& row = table.add_row(name);
  if (!r.measured) {
    row.set("launch", skipped.empty() ? "not measured" : "skipped")
        .set("why_not", skipped.empty() ? r.why_not : skipped);
    return;
  }
  row.set("launch", r.launch_error)
      .set("sync", r.sync_error)
      .set("last_error", r.later_last_error)
      .set("malloc", r.later_malloc)
      .set("kernel", r.later_kernel)
      .set("launch_call_us", r.launch_call_us);
}

}  // namespace

lab::ResultTable fault_table(const FaultRun& run) {
  lab::ResultTable table("A kernel that stores outside every allocation, in a child process: what each call returned",
                         "CUDA_LAUNCH_BLOCKING",
                         {{"launch", "the launch", "", 0},
                          {"sync", "cudaDeviceSynchronize", "", 0},
                          {"last_error", "cudaGetLastError after", "", 0},
                          {"malloc", "cudaMalloc after", "", 0},
                          {"kernel", "a correct kernel after", "", 0},
                          {"launch_call_us", "launch call, before", "us", 2}});
  const std::string skipped = run.skipped ? run.skip_reason : "";
  set_row(table, "0", run.normal, skipped);
  set_row(table, "1", run.blocking, skipped);
  table.note(
      "the launch: cudaGetLastError right after it; launch call: median host time of a correct empty kernel's "
      "launch, before the fault");
  return table;
}

std::vector<lab::Finding> fault_findings(const FaultRun& run) {
  std::vector<lab::Finding> findings;
  if (run.skipped) {
    findings.push_back(note("kernel errors", "skipped: " + run.skip_reason));
    return findings;
  }
  const FaultReport& n = run.normal;
  if (!n.measured) {
    findings.push_back(note("where a kernel's error is reported", "not measured: " + n.why_not));
  } else {
    findings.push_back(
        lab::correctness_check("a kernel's fault is reported by the next synchronising call, not by its launch",
                               n.launch_error == kSuccess && n.sync_error != kSuccess,
                               "the launch returned " + n.launch_error + ", cudaDeviceSynchronize " + n.sync_error));
    const std::string later = "afterwards cudaGetLastError returned " + n.later_last_error + ", cudaMalloc " +
                              n.later_malloc + ", a correct kernel " + n.later_kernel;
    if (n.sync_error == "cudaErrorIllegalAddress") {
      findings.push_back(lab::correctness_check(
          "cudaErrorIllegalAddress is sticky: every later call returns it",
          n.later_last_error == n.sync_error && n.later_malloc == n.sync_error && n.later_kernel == n.sync_error,
          later));
    } else {
      findings.push_back(note("what came after",
                              "the fault was reported as " + n.sync_error + ", not cudaErrorIllegalAddress; " + later));
    }
  }
  const FaultReport& b = run.blocking;
  if (!b.measured) {
    findings.push_back(note("CUDA_LAUNCH_BLOCKING=1", "not measured: " + b.why_not));
    return findings;
  }
  findings.push_back(
      note("CUDA_LAUNCH_BLOCKING=1",
           b.launch_error != kSuccess
               ? "the launch itself reported " + b.launch_error +
                     ": with launches synchronous the error points at the kernel that caused it"
               : "the launch still returned cudaSuccess; cudaDeviceSynchronize reported " + b.sync_error));
  if (n.measured) {
    findings.push_back(lab::timing_check(
        "CUDA_LAUNCH_BLOCKING=1 makes a launch call take longer", b.launch_call_us > n.launch_call_us,
        "median launch call of an empty kernel: " + fixed(b.launch_call_us, 2) + " us with it, " +
            fixed(n.launch_call_us, 2) + " us without (" + fixed(b.launch_call_us / n.launch_call_us, 1) + "x)"));
  }
  return findings;
}

std::vector<Background> fault_background() {
  return {{"cudaErrorIllegalAddress: the device encountered a load or store instruction on an invalid memory "
           "address; this leaves the process in an inconsistent state and any further CUDA work returns the same "
           "error: the process must be terminated and relaunched to use CUDA again",
           "CUDA Runtime API, cudaError (cudaErrorIllegalAddress)"},
          {"setting CUDA_LAUNCH_BLOCKING=1 disables the asynchronicity of kernel launches, for debugging only",
           "CUDA C++ Programming Guide, Concurrent Execution between Host and Device; CUDA Environment Variables"}};
}

std::string fault_line(const FaultReport& r) {
  return std::string(kChild) + " blocking=" + (r.launch_blocking ? "1" : "0") + " launch=" + r.launch_error +
         " sync=" + r.sync_error + " last_error=" + r.later_last_error + " malloc=" + r.later_malloc +
         " kernel=" + r.later_kernel + " launch_call_us=" + fixed(r.launch_call_us, 3);
}

bool read_fault_line(const std::string& text, FaultReport& into) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || word != kChild) continue;
    std::map<std::string, std::string> values;
    while (words >> word) {
      const std::size_t eq = word.find('=');
      if (eq != std::string::npos && eq > 0 && eq + 1 < word.size()) values[word.substr(0, eq)] = word.substr(eq + 1);
    }
    bool complete = true;
    for (const char* key : {"blocking", "launch", "sync", "last_error", "malloc", "kernel", "launch_call_us"})
      complete = complete && values.count(key) == 1;
    if (!complete) continue;
    FaultReport r = into;
    try {
      r.launch_call_us = std::stod(values["launch_call_us"]);
    } catch (const std::exception&) {
      continue;
    }
    r.launch_blocking = values["blocking"] == "1";
    r.launch_error = values["launch"];
    r.sync_error = values["sync"];
    r.later_last_error = values["last_error"];
    r.later_malloc = values["malloc"];
    r.later_kernel = values["kernel"];
    r.measured = true;
    r.why_not.clear();
    into = r;
    return true;
  }
  return false;
}

}  // namespace ch08
