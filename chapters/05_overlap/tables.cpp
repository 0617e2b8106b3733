#include "tables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>

#include "checks.hpp"
#include "overlap_model.hpp"
#include "vocabulary.hpp"

namespace ch05 {

std::string row_name(const ScheduleRow& row) {
  return row.kernel + " " + schedule_name(row.schedule) + " " + lab::count_text(row.chunks, "chunk", "chunks");
}

std::string recorded_name(const RecordedSchedule& run) {
  return std::string(schedule_name(run.schedule)) + ", " + lab::count_text(run.chunks, "chunk", "chunks");
}

std::string connections_label(const std::string& value) { return value.empty() ? "default (unset)" : value; }

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
  const std::string heavy = "heavy kernel, " + std::to_string(link.heavy_steps) + " steps (K)";
  for (const auto& [name, samples, bytes] : {std::tuple{"copy in alone (H)", &link.h2d_ms, link.bytes},
                                             {"copy out alone (D)", &link.d2h_ms, link.bytes},
                                             {"both directions at once (B)", &link.both_ms, 2 * link.bytes},
                                             {"light kernel, 1 step (K)", &link.light_ms, 0.0},
                                             {heavy.c_str(), &link.heavy_ms, 0.0}}) {
    lab::ResultTable::Row& row = table.add_row(name).samples(*samples, "ms");
    if (bytes > 0) row.set("gbps_at_fastest", lab::gigabytes_per_second(bytes, fastest_of(*samples)));
  }
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
    const double bound = overlap_bound_ms(best_inputs(link, row.kernel)), median = lab::median_or_nan(row.samples_ms);
    const double sequential = median_ms(sweep, row.kernel, Schedule::sequential, 1);
    const double v2 = median_ms(sweep, row.kernel, Schedule::v2_per_stage, row.chunks);
    lab::ResultTable::Row& out = table.add_row(row_name(row)).samples(row.samples_ms, "ms");
    out.set("kernel", row.kernel).set("schedule", schedule_name(row.schedule)).set("chunks", row.chunks);
    out.set("predicted_ms", pipelined_ms(typical_inputs(link, row.kernel), row.chunks)).set("bound_ms", bound);
    out.set("median_over_bound", median / bound).set("fastest_over_bound", fastest_of(row.samples_ms) / bound);
    out.set("result", row.result.passed() ? "correct" : "WRONG");
    if (!std::isnan(sequential)) out.set("sequential_over_median", sequential / median);
    if (row.schedule == Schedule::v1_per_chunk && !std::isnan(v2))
      out.set("v1_over_v2_percent", lab::percent_above(median, v2));
  }
  table.note(
      "vs sequential: sequential's median over the row's; V1 vs V2: V1's median relative to V2's at the same "
      "chunks (1 chunk: the same work); model: the pipeline of overlap_model.hpp on section 1's medians; bound: "
      "the same parts at their fastest alone; CUDA_DEVICE_MAX_CONNECTIONS in this process: " +
      connections_label(sweep.connections));
  return table;
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
    for (const QueueSchedules& s : child.measured() ? child.schedules : std::vector<QueueSchedules>{}) {
      const double v1 = lab::median_or_nan(s.v1_ms), v2 = lab::median_or_nan(s.v2_ms);
      lab::ResultTable::Row& row =
          table.add_row(connections_label(child.seen) + ", " + std::to_string(s.chunks) + " chunks");
      row.set("connections_asked", child.asked).set("connections_seen", child.seen).set("chunks", s.chunks);
      row.set("v1_ms", v1).set("v2_ms", v2).set("v1_samples_ms", s.v1_ms).set("v2_samples_ms", s.v2_ms);
      row.set("v1_over_v2_percent", lab::percent_above(v1, v2)).set("result", s.correct ? "correct" : "WRONG");
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
    // The connections as a number: 8 when unset (the documented default), 0 when unreadable (no model).
    const int connections = child.seen.empty() ? 8 : std::atoi(child.seen.c_str());
    for (const StreamOrder& o : child.measured() ? child.orders : std::vector<StreamOrder>{}) {
      const double depth = lab::median_or_nan(o.depth_first_ms), breadth = lab::median_or_nan(o.breadth_first_ms);
      lab::ResultTable::Row& row =
          table.add_row(connections_label(child.seen) + ", " + std::to_string(o.streams) + " streams");
      row.set("connections_seen", child.seen).set("streams", o.streams).set("spin_ms", child.spin_ms);
      row.set("depth_first_ms", depth).set("breadth_first_ms", breadth);
      row.set("depth_first_lengths", depth / child.spin_ms).set("breadth_first_lengths", breadth / child.spin_ms);
      if (connections < 1) continue;
      const int model = depth_first_kernel_lengths(o.streams, connections);
      row.set("model_lengths", model).set("model_held", model_held(depth / child.spin_ms, model) ? "yes" : "no");
    }
  }
  table.note(
      "medians; kernels: the time in lengths of one spin kernel; model: ceil(streams / connections) + 1, "
      "streams spread round robin over the connections (overlap_model.hpp); breadth first: 2 whatever the count");
  return table;
}

// --- 4. the schedules as CUPTI recorded them -------------------------------------------

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
    double first = run.work.empty() ? 0 : run.work.front().start_ns, last = first;
    for (const lab::Interval& i : run.work) first = std::min(first, i.start_ns), last = std::max(last, i.end_ns);
    lab::ResultTable::Row& row = table.add_row(recorded_name(run)).set("span_ms", (last - first) * 1e-6);
    row.set("copy_in_busy_ms", lab::busy_ms(run.work, "H")).set("copy_out_busy_ms", lab::busy_ms(run.work, "D"));
    row.set("kernel_busy_ms", lab::busy_ms(run.work, "K")).set("in_and_out_ms", lab::overlap_ms(run.work, "H", "D"));
    row.set("copies_and_kernel_ms", lab::overlap_ms(run.work, "HD", "K"));
  }
  table.note("ran: the union of that kind's intervals (copies of several streams at once count once)");
  return table;
}

}  // namespace ch05
