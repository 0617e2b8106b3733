#include "findings.hpp"

#include <algorithm>
#include <cmath>

#include "vocabulary.hpp"

namespace ch05 {

namespace {

std::string row_name(const ScheduleRow& row) {
  return row.kernel + " " + schedule_name(row.schedule) + " " + lab::count_text(row.chunks, "chunk", "chunks");
}

double median_of(const ScheduleRow& row) { return lab::median_or_nan(row.samples_ms); }

// The row of @p kernel, @p schedule and @p chunks, or nullptr.
const ScheduleRow* find_row(const SweepRun& sweep, const std::string& kernel, Schedule schedule, int chunks) {
  for (const ScheduleRow& row : sweep.rows) {
    if (row.kernel == kernel && row.schedule == schedule && row.chunks == chunks) return &row;
  }
  return nullptr;
}

std::string connections_label(const std::string& value) { return value.empty() ? "default (unset)" : value; }

// The first wrong result of @p results as "where: detail", or "" when every one passed.
template <typename Items, typename Name>
std::string first_wrong(const Items& items, Name name) {
  for (const auto& item : items) {
    if (!item.result.passed()) return name(item) + ": " + item.result.detail();
  }
  return "";
}

}  // namespace

// --- 1. the copies and the kernels alone --------------------------------------------

lab::ResultTable link_table(const LinkRun& link) {
  lab::ResultTable table("link",
                         "The copies and the kernels alone, " + lab::mib_text(link.bytes, 0) +
                             " each way, pinned (sampled before and after the sweep)",
                         "what",
                         {{"min", "fastest", "ms", 3},
                          {"median", "median", "ms", 3},
                          {"max", "slowest", "ms", 3},
                          {"count", "samples", "", 0},
                          {"gbps_at_fastest", "at the fastest", "GB/s", 1}});
  auto add = [&](const std::string& name, const std::vector<double>& samples, double bytes) {
    lab::ResultTable::Row& row = table.add_row(name);
    row.samples(samples, "ms");
    if (bytes > 0) row.set("gbps_at_fastest", lab::gigabytes_per_second(bytes, fastest_of(samples)));
  };
  add("copy in alone (H)", link.h2d_ms, link.bytes);
  add("copy out alone (D)", link.d2h_ms, link.bytes);
  add("both directions at once (B)", link.both_ms, 2 * link.bytes);
  add("light kernel, 1 step (K)", link.light_ms, 0);
  add("heavy kernel, " + std::to_string(link.heavy_steps) + " steps (K)", link.heavy_ms, 0);
  table.note(
      lab::format("copy engines (asyncEngineCount): %d; heavy kernel steps %s; B counts the bytes of both "
                  "directions",
                  link.copy_engines,
                  link.heavy_calibrated ? "chosen to take about as long as the copy in" : "set by --heavy-iterations"));
  return table;
}

// --- 2. the sweep --------------------------------------------------------------------

lab::ResultTable sweep_table(const SweepRun& sweep, const LinkRun& link) {
  lab::ResultTable table("schedules", "The schedules: events on the legacy default stream around each run", "row",
                         {{"median", "median", "ms", 3},
                          {"min", "fastest", "ms", 3},
                          {"max", "slowest", "ms", 3},
                          {"sequential_over_median", "vs sequential", "x", 2},
                          {"v1_over_v2_percent", "V1 vs V2", "%", 1},
                          {"predicted_ms", "model", "ms", 3},
                          {"bound_ms", "bound", "ms", 3},
                          {"median_over_bound", "median / bound", "", 2},
                          {"fastest_over_bound", "fastest / bound", "", 2},
                          {"result", "result", "", 0}});
  for (const ScheduleRow& row : sweep.rows) {
    const double bound = overlap_bound_ms(best_inputs(link, row.kernel));
    lab::ResultTable::Row& out = table.add_row(row_name(row))
                                     .samples(row.samples_ms, "ms")
                                     .set("kernel", row.kernel)
                                     .set("schedule", schedule_name(row.schedule))
                                     .set("chunks", row.chunks)
                                     .set("predicted_ms", pipelined_ms(typical_inputs(link, row.kernel), row.chunks))
                                     .set("bound_ms", bound)
                                     .set("median_over_bound", median_of(row) / bound)
                                     .set("fastest_over_bound", fastest_of(row.samples_ms) / bound)
                                     .set("result", row.result.passed() ? "correct" : "WRONG");
    const ScheduleRow* sequential = find_row(sweep, row.kernel, Schedule::sequential, 1);
    if (sequential != nullptr) out.set("sequential_over_median", median_of(*sequential) / median_of(row));
    const ScheduleRow* v2 = find_row(sweep, row.kernel, Schedule::v2_per_stage, row.chunks);
    if (row.schedule == Schedule::v1_per_chunk && v2 != nullptr) {
      out.set("v1_over_v2_percent", lab::percent_above(median_of(row), median_of(*v2)));
    }
  }
  table.note(
      "vs sequential: sequential's median over the row's; V1 vs V2: V1's median relative to V2's at the same "
      "chunks (1 chunk: the same work); model: the pipeline of overlap_model.hpp on section 1's medians; bound: "
      "the same parts at their fastest alone; CUDA_DEVICE_MAX_CONNECTIONS in this process: " +
      connections_label(sweep.connections));
  return table;
}

std::vector<lab::Finding> sweep_findings(const SweepRun& sweep) {
  const std::string wrong = first_wrong(sweep.rows, row_name);
  std::vector<lab::Finding> findings = {
      lab::correctness_check(
          "schedules_correct", "every schedule, chunk count and kernel gave the right result",
          wrong.empty() && !sweep.rows.empty(),
          wrong.empty() ? lab::count_text(sweep.rows.size(), "row", "rows") + ", each against the CPU reference"
                        : wrong)
          .with("rows_count", sweep.rows.size())};
  const ScheduleRow* sequential = find_row(sweep, "heavy", Schedule::sequential, 1);
  if (sequential == nullptr) return findings;
  const ScheduleRow* best = sequential;
  for (const ScheduleRow& row : sweep.rows) {
    if (row.kernel == "heavy" && median_of(row) < median_of(*best)) best = &row;
  }
  const double seq = median_of(*sequential), top = median_of(*best);
  findings.push_back(
      lab::timing_check("overlap_heavy", "overlap saves >= 10 % when the kernel is as long as the copies",
                        top < 0.9 * seq,
                        lab::format("the fastest median, %s, %.3f ms, against %.3f ms sequential: %.2fx its time "
                                    "(asked: under 0.9x)",
                                    row_name(*best).c_str(), top, seq, top / seq))
          .with("best_ms", top)
          .with("sequential_ms", seq));
  return findings;
}

// --- 3. the hardware's work queues ----------------------------------------------------

lab::ResultTable queue_schedule_table(const QueueRun& run) {
  lab::ResultTable table("queue_schedules",
                         "V1 and V2 (light kernel, " + lab::fixed(run.mib, 0) +
                             " MiB each way) in a child process per CUDA_DEVICE_MAX_CONNECTIONS",
                         "connections, chunks",
                         {{"v1_ms", "V1 median", "ms", 3},
                          {"v2_ms", "V2 median", "ms", 3},
                          {"v1_over_v2_percent", "V1 vs V2", "%", 1},
                          {"result", "result", "", 0}});
  for (const QueueChild& child : run.children) {
    if (!child.measured) continue;
    for (const QueueSchedules& s : child.schedules) {
      const double v1 = lab::median_or_nan(s.v1_ms), v2 = lab::median_or_nan(s.v2_ms);
      table.add_row(connections_label(child.seen) + ", " + std::to_string(s.chunks) + " chunks")
          .set("connections_asked", child.asked)
          .set("connections_seen", child.seen)
          .set("chunks", s.chunks)
          .set("v1_ms", v1)
          .set("v2_ms", v2)
          .set("v1_samples_ms", s.v1_ms)
          .set("v2_samples_ms", s.v2_ms)
          .set("v1_over_v2_percent", lab::percent_above(v1, v2))
          .set("result", s.correct ? "correct" : "WRONG");
    }
  }
  table.note("V1 vs V2: V1's median relative to V2's (positive: V2 was faster)");
  return table;
}

lab::ResultTable stream_order_table(const QueueRun& run) {
  lab::ResultTable table("stream_orders",
                         "Two spin kernels per stream, queued stream by stream (depth first) or kernel by kernel "
                         "(breadth first), in the same children",
                         "connections, streams",
                         {{"depth_first_ms", "depth first", "ms", 3},
                          {"breadth_first_ms", "breadth first", "ms", 3},
                          {"depth_first_lengths", "depth first", "kernels", 1},
                          {"breadth_first_lengths", "breadth first", "kernels", 1},
                          {"model_lengths", "model, depth first", "kernels", 0},
                          {"model_held", "within half a kernel", "", 0}});
  for (const QueueChild& child : run.children) {
    if (!child.measured) continue;
    for (const StreamOrder& o : child.orders) {
      const double depth = lab::median_or_nan(o.depth_first_ms), breadth = lab::median_or_nan(o.breadth_first_ms);
      lab::ResultTable::Row& row =
          table.add_row(connections_label(child.seen) + ", " + std::to_string(o.streams) + " streams")
              .set("connections_seen", child.seen)
              .set("streams", o.streams)
              .set("spin_ms", child.spin_ms)
              .set("depth_first_ms", depth)
              .set("breadth_first_ms", breadth)
              .set("depth_first_lengths", depth / child.spin_ms)
              .set("breadth_first_lengths", breadth / child.spin_ms);
      if (child.connections < 1) continue;  // an unreadable count: no model
      const int model = depth_first_kernel_lengths(o.streams, child.connections);
      row.set("model_lengths", model).set("model_held", std::fabs(depth / child.spin_ms - model) <= 0.5 ? "yes" : "no");
    }
  }
  table.note(
      "medians; kernels: the time in lengths of one spin kernel; model: ceil(streams / connections) + 1, "
      "streams spread round robin over the connections (overlap_model.hpp); breadth first: 2 whatever the count");
  return table;
}

std::vector<lab::Finding> queue_findings(const QueueRun& run) {
  if (!run.skipped.empty()) return {lab::skipped("queues", "work queues", run.skipped)};
  std::vector<lab::Finding> findings;
  std::string wrong;
  std::size_t measured = 0;
  for (const QueueChild& child : run.children) {
    if (!child.measured) {
      findings.push_back(lab::skipped("child_" + (child.asked.empty() ? std::string("default") : child.asked),
                                      "connections " + connections_label(child.asked), child.why_not));
      continue;
    }
    measured += 1;
    for (const QueueSchedules& s : child.schedules) {
      if (!s.correct && wrong.empty()) wrong = connections_label(child.seen) + ", " + std::to_string(s.chunks);
    }
  }
  if (measured == 0) return findings;
  findings.push_back(
      lab::correctness_check("queue_children_correct", "V1 and V2 correct in every child process", wrong.empty(),
                             wrong.empty() ? lab::count_text(measured, "child process", "child processes")
                                           : "wrong result at connections " + wrong + " chunks")
          .with("children_count", measured));
  return findings;
}

// --- 4. the schedules as CUPTI recorded them -------------------------------------------

namespace {

double span_ms(const std::vector<lab::Interval>& work) {
  if (work.empty()) return 0;
  double first = work.front().start_ns, last = work.front().end_ns;
  for (const lab::Interval& i : work) {
    first = std::min(first, i.start_ns);
    last = std::max(last, i.end_ns);
  }
  return (last - first) * 1e-6;
}

std::string recorded_name(const RecordedSchedule& run) {
  return std::string(schedule_name(run.schedule)) + ", " + lab::count_text(run.chunks, "chunk", "chunks");
}

}  // namespace

lab::ResultTable recorded_table(const std::vector<RecordedSchedule>& runs) {
  lab::ResultTable table("recorded", "One run of each schedule (light kernel) as CUPTI recorded it", "schedule",
                         {{"span_ms", "first start to last end", "ms", 3},
                          {"copy_in_busy_ms", "copy in ran", "ms", 3},
                          {"copy_out_busy_ms", "copy out ran", "ms", 3},
                          {"kernel_busy_ms", "kernel ran", "ms", 3},
                          {"in_and_out_ms", "in and out at once", "ms", 3},
                          {"copies_and_kernel_ms", "copies and kernel at once", "ms", 3}});
  for (const RecordedSchedule& run : runs) {
    if (!run.recorded) continue;
    table.add_row(recorded_name(run))
        .set("span_ms", span_ms(run.work))
        .set("copy_in_busy_ms", lab::busy_ms(run.work, "H"))
        .set("copy_out_busy_ms", lab::busy_ms(run.work, "D"))
        .set("kernel_busy_ms", lab::busy_ms(run.work, "K"))
        .set("in_and_out_ms", lab::overlap_ms(run.work, "H", "D"))
        .set("copies_and_kernel_ms", lab::overlap_ms(run.work, "HD", "K"));
  }
  table.note("ran: the union of that kind's intervals (copies of several streams at once count once)");
  return table;
}

std::vector<lab::Finding> recorded_findings(const std::vector<RecordedSchedule>& runs) {
  const std::string wrong = first_wrong(runs, recorded_name);
  std::vector<lab::Finding> findings = {
      lab::correctness_check("recorded_correct", "recorded runs correct", wrong.empty() && !runs.empty(),
                             wrong.empty() ? lab::count_text(runs.size(), "run", "runs") : wrong)
          .with("runs_count", runs.size())};
  for (const RecordedSchedule& run : runs) {  // a run recorded is in recorded_table; one that was not, says why
    if (run.recorded) continue;
    const char* id = run.schedule == Schedule::sequential     ? "recorded_sequential"
                     : run.schedule == Schedule::v1_per_chunk ? "recorded_v1"
                                                              : "recorded_v2";
    findings.push_back(lab::skipped(id, "recorded " + recorded_name(run), run.why_not));
  }
  return findings;
}

}  // namespace ch05
