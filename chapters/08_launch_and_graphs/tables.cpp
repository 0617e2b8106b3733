#include "tables.hpp"

#include <algorithm>
#include <cmath>

#include "checks.hpp"
#include "vocabulary.hpp"

namespace ch08 {

namespace {

// A table of samples in microseconds: median, min, max and how many, then @p extra columns.
lab::ResultTable us_table(const std::string& id, const std::string& title, const std::string& first_header,
                          std::vector<lab::Column> extra = {}) {
  std::vector<lab::Column> columns = {
      {"median", "median", "us", 2}, {"min", "min", "us", 2}, {"max", "max", "us", 2}, {"count", "samples", "", 0}};
  columns.insert(columns.end(), extra.begin(), extra.end());
  return lab::ResultTable(id, title, first_header, columns);
}

// The mean, and the finest step between two readings (CUPTI's durations come graded), beside the median.
const lab::Column kMean = {"mean", "mean", "us", 2};
const lab::Column kStep = {"step_us", "reading step", "us", 3};

// Fills @p row with @p samples (in us) when there are any (a row with none shows "-"); with @p step (CUPTI's
// rows), also the finest step between two of them (float noise under 0.1 ns is no step).
lab::ResultTable::Row& with_samples(lab::ResultTable::Row& row, const std::vector<double>& samples, bool step = false) {
  if (samples.empty()) return row;
  return step ? row.samples(samples, "us").set("step_us", lab::smallest_step(samples, 1e-4))
              : row.samples(samples, "us");
}

std::string cupti_note(const std::vector<double>& cupti_us, const std::string& why) {
  return cupti_us.empty() ? "; CUPTI: not recorded (" + why + ")" : "";
}

}  // namespace

// --- 1. What a launch costs ----------------------------------------------------

lab::ResultTable launch_cost_table(const LaunchCostRun& run) {
  lab::ResultTable table = us_table("launch_cost", "An empty kernel: its launch three ways, and the kernel itself",
                                    "what", {kMean, kStep, {"vs_pace", "/ GPU pace", "x", 2}});
  const double pace = lab::median_or_nan(run.back_to_back_us);
  const auto against_pace = [pace](lab::ResultTable::Row& row) {
    if (!row.sample_values().empty()) row.set("vs_pace", row.summary().median / pace);
  };
  against_pace(with_samples(table.add_row("launch call (host)"), run.launch_call_us));
  against_pace(with_samples(
      table.add_row(lab::format("back to back on the GPU, per kernel (events / %d)", run.back_to_back_kernels)),
      run.back_to_back_us));
  against_pace(with_samples(table.add_row("launch + cudaStreamSynchronize (host)"), run.round_trip_us));
  against_pace(with_samples(table.add_row("the kernel itself (CUPTI)"), run.cupti_kernel_us, true));
  table.note(
      "back to back: the kernels are queued behind a held stream, then run without the host in between; "
      "/ GPU pace: the row's median over the back-to-back one's" +
      cupti_note(run.cupti_kernel_us, run.cupti_missing));
  return table;
}

// --- 2. The launch queue -------------------------------------------------------

lab::ResultTable queue_fill_table(const QueueFillRun& run) {
  lab::ResultTable table("queue_fill", "Launch calls into a held stream, by how many were queued before them", "calls",
                         {{"count", "calls", "", 0}, {"median", "median", "us", 2}, {"max", "longest", "us", 2}});
  const auto calls = static_cast<std::int64_t>(run.call_us.size());
  const std::int64_t depth = run.stalled_call;
  const auto add = [&](std::int64_t first, std::int64_t end, const char* what) {  // calls [first, end), 0-based
    const std::string name = end - first == 1 ? lab::format("call %lld", (long long)end)
                                              : lab::format("calls %lld to %lld", (long long)first + 1, (long long)end);
    table.add_row(name + what).samples({run.call_us.begin() + first, run.call_us.begin() + end}, "us");
  };
  const std::int64_t queued_end = depth >= 0 ? depth : calls;  // calls [0, queued_end) returned while held
  for (std::int64_t first = 0, end = 1; first < queued_end; first = end, end *= 8)
    add(first, std::min(end, queued_end), "");
  if (depth >= 0 && depth < calls) add(depth, depth + 1, ": blocked until the stream was released");
  if (depth >= 0 && depth + 1 < calls) add(depth + 1, calls, ", after the release");
  table.note(lab::format(
      "a call still running after %.0f ms counts as blocked; another thread then releases the stream", run.stall_ms));
  return table;
}

// Of the time CPU work and GPU work could have shared, how much they did share (0..100 %).
namespace {

double overlap_percent(const PaceCase& c) {
  const double possible = std::min(c.cpu_work_ms, c.gpu_ms);
  if (possible <= 0) return 0.0;
  return std::clamp(lab::percent_of(c.cpu_work_ms + c.gpu_ms - c.total_ms, possible), 0.0, 100.0);
}

}  // namespace

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
       {"gpu_ms", "GPU (events)", "ms", 3},
       {"loop_percent", "loop / GPU", "%", 0},
       {"overlap_percent", "CPU work overlapped", "%", 0}});
  for (const PaceCase* c : {&run.below, &run.past}) {
    lab::ResultTable::Row& row = table.add_row(std::to_string(c->launches));
    const double per_launch_us = c->launch_loop_ms * 1e3 / static_cast<double>(std::max<std::int64_t>(1, c->launches));
    row.set("launches", c->launches).set("launch_loop_ms", c->launch_loop_ms).set("per_launch_us", per_launch_us);
    row.set("cpu_work_ms", c->cpu_work_ms).set("wait_ms", c->wait_ms).set("total_ms", c->total_ms);
    const double loop_percent = c->gpu_ms > 0 ? lab::percent_of(c->launch_loop_ms, c->gpu_ms) : 0.0;
    row.set("gpu_ms", c->gpu_ms).set("loop_percent", loop_percent).set("overlap_percent", overlap_percent(*c));
  }
  table.note(
      "launch loop: a host timer around the launches alone (chapter 02); total: first launch to end of wait; "
      "CPU work overlapped: of the time it could have shared with the GPU's work, the share it did");
  return table;
}

// --- 3. CUDA graphs ------------------------------------------------------------

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
       {"graph_gpu_per_kernel_us", "graph GPU/kernel", "us", 2},
       {"payback_replays", "paid back after", "replays", 0}});
  for (const GraphSize& s : run.sizes) {
    const double stream = per_kernel(s.stream_us, s.kernels);
    const double graph = per_kernel(s.graph_us, s.kernels);
    const double saved = lab::median_or_nan(s.stream_us) - lab::median_or_nan(s.graph_us);
    const double setup = lab::median_or_nan(s.capture_us) + lab::median_or_nan(s.instantiate_us);
    lab::ResultTable::Row& row = table.add_row(std::to_string(s.kernels));
    row.set("kernels", s.kernels).set("capture_us", lab::median_or_nan(s.capture_us));
    row.set("instantiate_us", lab::median_or_nan(s.instantiate_us)).set("stream_per_kernel_us", stream);
    row.set("graph_per_kernel_us", graph).set("stream_over_graph", stream / graph);
    row.set("stream_gpu_per_kernel_us", per_kernel(s.stream_gpu_us, s.kernels));
    row.set("graph_gpu_per_kernel_us", per_kernel(s.graph_gpu_us, s.kernels)).set("saved_us", saved);
    row.set("stream_samples_us", s.stream_us).set("graph_samples_us", s.graph_us);
    if (saved > 0) row.set("payback_replays", std::ceil(setup / saved));
  }
  table.note(
      "per kernel: a host timer from the first launch (or cudaGraphLaunch) to the end of cudaStreamSynchronize, "
      "divided by K (medians); GPU: events around the same work; paid back after: capture and instantiation over "
      "the time one replay saved (none where it saved none)");
  return table;
}

lab::ResultTable graph_update_table(const GraphRun& run) {
  const std::string graph = lab::count_text(static_cast<std::size_t>(run.update.kernels), "kernel", "kernels");
  lab::ResultTable table =
      us_table("graph_update", "New arrays for an instantiated graph of " + graph + ": update it, or instantiate again",
               "what (host time)");
  const std::string& refused = run.update.update_failure;
  with_samples(table.add_row("capture the launches on the new arrays"), run.update.recapture_us);
  lab::ResultTable::Row& update = with_samples(table.add_row("cudaGraphExecUpdate"), run.update.update_us);
  if (!refused.empty()) update.set("refused", refused);
  with_samples(table.add_row("cudaGraphInstantiate, instead"), run.update.instantiate_us);
  if (!refused.empty()) table.note("cudaGraphExecUpdate refused: " + refused + "; the new instantiation was replayed");
  return table;
}

// --- 4. Timing microsecond kernels honestly -------------------------------------

namespace {

// Each method's samples, in the order of kMethodNames.
constexpr std::vector<double> HonestTimingRun::* kMethods[] = {
    &HonestTimingRun::event_pair_us, &HonestTimingRun::blocked_us, &HonestTimingRun::graph_us};

}  // namespace

lab::ResultTable honest_timing_table(const HonestTimingRun& run) {
  lab::ResultTable table =
      us_table("honest_timing",
               lab::format("c = a + b on %lld floats, timed four ways (K = %d)", (long long)run.n, run.graph_kernels),
               "method", {kMean, kStep, {"vs_cupti", "vs CUPTI", "", 0}});
  const double cupti = lab::median_or_nan(run.cupti_us);
  for (int i = 0; i < 3; ++i) {
    lab::ResultTable::Row& row = with_samples(table.add_row(kMethodNames[i]), run.*kMethods[i]);
    if (!run.cupti_us.empty())
      row.set("vs_cupti", lab::signed_percent(lab::percent_above(lab::median_or_nan(run.*kMethods[i]), cupti), 0));
  }
  with_samples(table.add_row("CUPTI: the kernel itself, every timed launch"), run.cupti_us, true);
  table.note("graph: K launches captured into one graph, replayed between two events, the time divided by K" +
             cupti_note(run.cupti_us, run.cupti_missing));
  return table;
}

// --- 5. Kernel errors arrive later ----------------------------------------------

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
      const bool skipped = !run.skip_reason.empty();
      row.set("launch", skipped ? "skipped" : "not measured").set("why_not", skipped ? run.skip_reason : r->why_not);
      continue;
    }
    row.set("launch", r->launch_error).set("sync", r->sync_error).set("last_error", r->later_last_error);
    row.set("malloc", r->later_malloc).set("kernel", r->later_kernel).set("launch_call_us", r->launch_call_us);
  }
  table.note("the launch: cudaGetLastError right after it; launch call: a correct empty kernel's, before the fault");
  return table;
}

}  // namespace ch08
