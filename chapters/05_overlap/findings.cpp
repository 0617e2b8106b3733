#include "findings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "vocabulary.hpp"

namespace ch05 {

namespace {

std::string row_name(const ScheduleRow& row) {
  return row.kernel + " " + schedule_name(row.schedule) + " " + lab::count_text(row.chunks, "chunk", "chunks");
}

double predicted_ms(const ScheduleRow& row, const LinkRun& link) {
  return pipelined_ms(typical_inputs(link, row.kernel), row.chunks);
}

double bound_ms(const ScheduleRow& row, const LinkRun& link) { return overlap_bound_ms(best_inputs(link, row.kernel)); }

std::string connections_label(const std::string& value) { return value.empty() ? "default (unset)" : value; }

// A connection count as an id's part: "1", "32", "default".
std::string connections_id(const std::string& value) { return value.empty() ? "default" : value; }

// The largest (or smallest) |V1 - V2| gap in % a child measured over its chunk counts (0 without any).
double gap_percent(const QueueChild& child, bool largest) {
  std::vector<double> gaps;
  for (const QueueSchedules& s : child.schedules) {
    gaps.push_back(std::fabs(lab::percent_above(lab::median_or_nan(s.v1_ms), lab::median_or_nan(s.v2_ms))));
  }
  if (gaps.empty()) return 0;
  return largest ? *std::max_element(gaps.begin(), gaps.end()) : *std::min_element(gaps.begin(), gaps.end());
}

const QueueChild* child_asked(const QueueRun& run, const std::string& asked) {
  for (const QueueChild& child : run.children) {
    if (child.asked == asked && child.measured) return &child;
  }
  return nullptr;
}

}  // namespace

// --- 1. the link and the kernels ---------------------------------------------------

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

// The lower bound of one kernel and what sets it (bound_light.<branch>, bound_heavy.<branch>).
lab::Finding bound_finding(const LinkRun& link, const std::string& kernel) {
  const LinkAndKernel best = best_inputs(link, kernel);
  const std::string term = bound_term(best);
  const std::string what = term == "kernel"       ? "the " + kernel + " kernel"
                           : term == "one_engine" ? "copy in + copy out (one copy engine: the directions take turns)"
                           : term == "both_directions" ? "both directions at once"
                           : term == "copy_in"         ? "the copy in"
                                                       : "the copy out";
  const double bound = overlap_bound_ms(best);
  return lab::named_observation("bound_" + kernel + "." + term, "lower bound, " + kernel + " kernel",
                                lab::format("%.3f ms, set by %s at its fastest: no schedule finishes sooner unless a "
                                            "resource runs faster inside it than alone (section 2 says if one did)",
                                            bound, what.c_str()))
      .with("bound_ms", bound)
      .with("h2d_ms", best.h2d_ms)
      .with("d2h_ms", best.d2h_ms)
      .with("both_ms", best.both_ms)
      .with("kernel_ms", best.kernel_ms);
}

std::vector<lab::Finding> bound_findings(const LinkRun& link) {
  return {bound_finding(link, "light"), bound_finding(link, "heavy")};
}

// --- 2. the sweep --------------------------------------------------------------------

lab::ResultTable sweep_table(const SweepRun& sweep, const LinkRun& link) {
  lab::ResultTable table("schedules", "The schedules: events on the legacy default stream around each run", "row",
                         {{"median", "median", "ms", 3},
                          {"min", "fastest", "ms", 3},
                          {"max", "slowest", "ms", 3},
                          {"predicted_ms", "model", "ms", 3},
                          {"bound_ms", "lower bound", "ms", 3},
                          {"median_over_bound", "median / bound", "", 2},
                          {"result", "result", "", 0}});
  for (const ScheduleRow& row : sweep.rows) {
    const double bound = bound_ms(row, link);
    table.add_row(row_name(row))
        .samples(row.samples_ms, "ms")
        .set("kernel", row.kernel)
        .set("schedule", schedule_name(row.schedule))
        .set("chunks", row.chunks)
        .set("predicted_ms", predicted_ms(row, link))
        .set("bound_ms", bound)
        .set("median_over_bound", lab::median_or_nan(row.samples_ms) / bound)
        .set("result", row.result.passed() ? "correct" : "WRONG");
  }
  table.note(
      "model: the pipeline of overlap_model.hpp on the medians of section 1; lower bound: the same "
      "resources at their fastest; CUDA_DEVICE_MAX_CONNECTIONS in this process: " +
      connections_label(sweep.connections));
  return table;
}

lab::Finding schedules_correct(const SweepRun& sweep) {
  std::string wrong;
  for (const ScheduleRow& row : sweep.rows) {
    if (!row.result.passed() && wrong.empty()) wrong = row_name(row) + ": " + row.result.detail();
  }
  return lab::correctness_check(
             "schedules_correct", "every schedule, chunk count and kernel gave the right result",
             wrong.empty() && !sweep.rows.empty(),
             wrong.empty() ? lab::count_text(sweep.rows.size(), "row", "rows") + ", each against the CPU reference"
                           : wrong)
      .with("rows_count", sweep.rows.size());
}

// The fastest median of @p kernel's rows against its sequential row (overlap_<kernel>); with the
// heavy kernel (copies and kernel of similar length) overlap must save a lot: a timing check.
lab::Finding overlap_finding(const SweepRun& sweep, const LinkRun& link, const std::string& kernel,
                             const ScheduleRow& sequential) {
  const ScheduleRow* best = &sequential;
  for (const ScheduleRow& row : sweep.rows) {
    if (row.kernel == kernel && lab::median_or_nan(row.samples_ms) < lab::median_or_nan(best->samples_ms)) best = &row;
  }
  const double seq = lab::median_or_nan(sequential.samples_ms), top = lab::median_or_nan(best->samples_ms);
  const double bound = bound_ms(*best, link), predicted = predicted_ms(*best, link);
  const std::string text = lab::format("the fastest median, %s, %.3f ms, against %.3f ms sequential: %.2fx",
                                       row_name(*best).c_str(), top, seq, seq / top);
  lab::Finding f =
      kernel == "heavy"
          ? lab::timing_check("overlap_heavy", "overlap saves time when the kernel is as long as the copies",
                              top < 0.9 * seq, text + " (the check: under 0.9x sequential)")
          : lab::named_observation("overlap_" + kernel, "overlap, " + kernel + " kernel", text);
  return f.with("best_ms", top).with("sequential_ms", seq).with("bound_ms", bound).with("predicted_ms", predicted);
}

// Rows whose fastest run beat their lower bound: said with the numbers, never hidden.
lab::Finding rows_beating_bound(const SweepRun& sweep, const LinkRun& link) {
  std::string beaten, closest_text = "none";
  std::size_t beaten_count = 0;
  double closest = std::numeric_limits<double>::infinity();
  for (const ScheduleRow& row : sweep.rows) {
    const double bound = bound_ms(row, link), row_best = fastest_of(row.samples_ms);
    if (row_best < bound) {
      beaten_count += 1;
      beaten += lab::format("%s%s %.3f ms < %.3f ms (%s)", beaten.empty() ? "" : "; ", row_name(row).c_str(), row_best,
                            bound, lab::signed_percent(lab::percent_above(row_best, bound), 0).c_str());
    } else if (row_best / bound < closest) {
      closest = row_best / bound;
      closest_text = lab::format("%s at %.3f ms, %.1f %% above its bound of %.3f ms", row_name(row).c_str(), row_best,
                                 100 * (closest - 1), bound);
    }
  }
  const std::string name = "rows faster than the lower bound";
  if (beaten_count == 0) {
    return lab::named_observation("beat_bound.none", name,
                                  "none: every row's fastest run took at least its bound; the closest, " + closest_text)
        .with("closest_above_percent", 100 * (closest - 1));
  }
  return lab::named_observation("beat_bound.some", name,
                                lab::format("%zu row(s) had a run faster than their bound: %s. There a resource went "
                                            "faster inside the schedule than in each of its measurements alone "
                                            "(section 1's table): those measurements do not bound those rows.",
                                            beaten_count, beaten.c_str()))
      .with("rows_count", beaten_count);
}

// V1 against V2 at each kernel and chunk count; 1 chunk (the very same work) gives the run's noise.
lab::Finding v1_against_v2(const SweepRun& sweep) {
  int within = 0, v1_faster = 0, v2_faster = 0;
  double largest = 0, same_work = 0;
  std::string apart;  // " (light/8 -12.0 %, ..." for each pair more than 5 % apart
  for (const ScheduleRow& v1 : sweep.rows) {
    for (const ScheduleRow& v2 : sweep.rows) {
      if (v1.schedule != Schedule::v1_per_chunk || v2.schedule != Schedule::v2_per_stage || v2.kernel != v1.kernel ||
          v2.chunks != v1.chunks) {
        continue;
      }
      const double gap = lab::percent_above(lab::median_or_nan(v1.samples_ms), lab::median_or_nan(v2.samples_ms));
      if (v1.chunks == 1) {  // the very same work: the run's noise, not a difference between schedules
        same_work = std::max(same_work, std::fabs(gap));
        continue;
      }
      largest = std::max(largest, std::fabs(gap));
      if (std::fabs(gap) <= 5) {
        within += 1;
        continue;
      }
      (gap > 0 ? v2_faster : v1_faster) += 1;
      apart += lab::format("%s%s/%d %s", apart.empty() ? " (" : ", ", v1.kernel.c_str(), v1.chunks,
                           lab::signed_percent(gap, 1).c_str());
    }
  }
  return lab::named_observation(
             "v1_against_v2",
             "V1 against V2 in this process (connections: " + connections_label(sweep.connections) + ")",
             lab::format(
                 "%d pair(s) within 5 %%, %d with V2 faster, %d with V1 faster%s; the largest gap %.1f %%. At 1 "
                 "chunk, where V1 and V2 queue the very same work (left out of these counts), their medians "
                 "were up to %.1f %% apart.",
                 within, v2_faster, v1_faster, apart.empty() ? "" : (apart + ", V1's median relative to V2's)").c_str(),
                 largest, same_work))
      .with("within_count", within)
      .with("v2_faster_count", v2_faster)
      .with("v1_faster_count", v1_faster)
      .with("largest_gap_percent", largest)
      .with("same_work_gap_percent", same_work);
}

std::vector<lab::Finding> sweep_findings(const SweepRun& sweep, const LinkRun& link) {
  std::vector<lab::Finding> findings = {schedules_correct(sweep)};
  for (const ScheduleRow& row : sweep.rows) {  // one sequential row per kernel
    if (row.schedule == Schedule::sequential) findings.push_back(overlap_finding(sweep, link, row.kernel, row));
  }
  findings.push_back(rows_beating_bound(sweep, link));
  findings.push_back(v1_against_v2(sweep));
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
                          {"v1_over_v2_percent", "V1 vs V2", "%", 0},
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
                          {"model_lengths", "model, depth first", "kernels", 0}});
  for (const QueueChild& child : run.children) {
    if (!child.measured) continue;
    const int connections = child.connections;
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
      if (connections > 0) row.set("model_lengths", depth_first_kernel_lengths(o.streams, connections));
    }
  }
  table.note(
      "medians; kernels: the time in lengths of one spin kernel; model: ceil(streams / connections) + 1, "
      "streams spread round robin over the connections (overlap_model.hpp); breadth first: 2 whatever the count");
  return table;
}

// Every child that ran: both schedules right at every chunk count (queue_children_correct).
lab::Finding children_correct(const QueueRun& run) {
  std::string wrong;
  std::size_t measured = 0;
  for (const QueueChild& child : run.children) {
    measured += child.measured ? 1 : 0;
    for (const QueueSchedules& s : child.schedules) {
      if (child.measured && !s.correct && wrong.empty())
        wrong = connections_label(child.seen) + ", " + std::to_string(s.chunks);
    }
  }
  return lab::correctness_check("queue_children_correct", "V1 and V2 correct in every child process", wrong.empty(),
                                wrong.empty() ? lab::count_text(measured, "child process", "child processes")
                                              : "wrong result at connections " + wrong + " chunks")
      .with("children_count", measured);
}

// Does the issue order matter more with one connection than with the default (issue_order.<branch>)?
lab::Finding issue_order(const QueueChild& one, const QueueChild& usual) {
  const double gap_one = gap_percent(one, true), gap_usual = gap_percent(usual, true);
  const double smallest_one = gap_percent(one, false);
  const std::string numbers = lab::format(
      "V1 and V2 were up to %.1f %% apart with 1 connection and up to %.1f %% with the default", gap_one, gap_usual);
  std::string branch = "not_decisive", text =
                                           ": not by the margin this finding asks before it calls the order "
                                           "decisive (over 10 % and over twice the default's)";
  if (gap_one > 10 && gap_one > 2 * gap_usual && smallest_one > 10) {
    branch = "every_count";
    text =
        ": with one work queue, the order in which the host queued the same work changed its time at every chunk "
        "count measured (the children time the schedules; they do not record how they overlapped)";
  } else if (gap_one > 10 && gap_one > 2 * gap_usual) {
    branch = "not_every_count";
    text = lab::format(", but with 1 connection not at every chunk count (the smallest gap: %.1f %%)", smallest_one);
  }
  return lab::named_observation("issue_order." + branch, "issue order and connections", numbers + text)
      .with("one_connection_gap_percent", gap_one)
      .with("default_gap_percent", gap_usual)
      .with("one_connection_smallest_gap_percent", smallest_one);
}

// Streams that share a connection: does depth first serialize them as the model says
// (shared_connections_<count>.matched or .not_matched)? The lengths are in stream_order_table.
lab::Finding shared_connections(const QueueChild& child, int connections) {
  std::size_t matched = 0;
  std::string shared;
  bool breadth_took_two = true;  // where streams share connections, breadth first took 2 lengths (within half)
  for (const StreamOrder& o : child.orders) {
    const double depth = lab::median_or_nan(o.depth_first_ms) / child.spin_ms;
    const double breadth = lab::median_or_nan(o.breadth_first_ms) / child.spin_ms;
    if (std::fabs(depth - depth_first_kernel_lengths(o.streams, connections)) <= 0.5) matched += 1;
    if (o.streams <= connections) continue;
    shared += (shared.empty() ? "" : ", ") + std::to_string(o.streams);
    if (std::fabs(breadth - 2) > 0.5) breadth_took_two = false;
  }
  const std::string id = "shared_connections_" + connections_id(child.seen);
  const std::string name = "streams sharing connections (" + connections_label(child.seen) + ")";
  if (matched != child.orders.size()) {
    return lab::named_observation(id + ".not_matched", name,
                                  lab::format("depth first matched the model within half a kernel at %zu of %zu "
                                              "stream counts: the driver did not spread or serialize these streams "
                                              "as the model assumes",
                                              matched, child.orders.size()))
        .with("matched_count", matched);
  }
  // Only stream counts above the connections share one: only there can the model's false dependencies appear.
  const std::string text =
      "depth first matched the model within half a kernel at every stream count; " +
      (shared.empty() ? lab::format("none exceeded the %d connection(s), so no stream shared one", connections)
                      : lab::format("at %s streams, more than the %d connection(s), streams waited behind other "
                                    "streams' unrelated work (false dependencies), and breadth first %s 2 lengths",
                                    shared.c_str(), connections, breadth_took_two ? "kept to" : "did not keep to"));
  return lab::named_observation(id + ".matched", name, text)
      .with("matched_count", matched)
      .with("breadth_took_two", breadth_took_two);
}

std::vector<lab::Finding> queue_findings(const QueueRun& run) {
  if (!run.skipped.empty())
    return {lab::named_observation("queues_skipped", "work queues", "not measured: " + run.skipped)};
  std::vector<lab::Finding> findings;
  for (const QueueChild& child : run.children) {
    const std::string id = "child_" + connections_id(child.asked),
                      name = "connections " + connections_label(child.asked);
    if (!child.measured) {
      findings.push_back(lab::named_observation(id + ".not_measured", name, "not measured: " + child.why_not));
    } else if (child.seen != child.asked) {
      findings.push_back(lab::named_observation(
          id + ".saw_other", name, "the child saw CUDA_DEVICE_MAX_CONNECTIONS = " + connections_label(child.seen)));
    }
  }
  if (std::any_of(run.children.begin(), run.children.end(), [](const QueueChild& c) { return c.measured; })) {
    findings.push_back(children_correct(run));
  }
  const QueueChild *one = child_asked(run, "1"), *usual = child_asked(run, "");
  if (one != nullptr && usual != nullptr) findings.push_back(issue_order(*one, *usual));
  for (const QueueChild& child : run.children) {
    const int connections = child.connections;
    if (child.measured && connections > 0) findings.push_back(shared_connections(child, connections));
  }
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
  std::string wrong;
  for (const RecordedSchedule& run : runs) {
    if (!run.result.passed() && wrong.empty()) wrong = recorded_name(run) + ": " + run.result.detail();
  }
  std::vector<lab::Finding> findings = {
      lab::correctness_check("recorded_correct", "recorded runs correct", wrong.empty() && !runs.empty(),
                             wrong.empty() ? lab::count_text(runs.size(), "run", "runs") : wrong)
          .with("runs_count", runs.size())};
  for (const RecordedSchedule& run : runs) {  // a run recorded is in recorded_table; one that was not, says why
    if (!run.recorded) {
      std::string id = schedule_name(run.schedule);  // "sequential", "V1", "V2" -> recorded_sequential, _v1, _v2
      std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
      findings.push_back(lab::named_observation("recorded_" + id + ".not_recorded", "recorded " + recorded_name(run),
                                                "not recorded: " + run.why_not));
    }
  }
  return findings;
}

}  // namespace ch05
