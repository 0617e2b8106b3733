#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "statistics.hpp"

namespace ch05 {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string fixed(double value, int decimals) { return lab::fixed(value, decimals); }

// "+2.5 %" or "-3.8 %": a difference always shows its sign (0 decimals unless asked).
std::string signed_percent(double percent, int decimals = 0) { return lab::signed_percent(percent, decimals); }

lab::Finding (&observe)(const std::string&, const std::string&) = lab::named_observation;  // "name: text"

double fastest(const std::vector<double>& v) { return v.empty() ? kNaN : *std::min_element(v.begin(), v.end()); }
double slowest(const std::vector<double>& v) { return v.empty() ? kNaN : *std::max_element(v.begin(), v.end()); }
double typical(const std::vector<double>& v) { return v.empty() ? kNaN : lab::median(v); }

std::string spread(const std::vector<double>& v) {
  return std::to_string(v.size()) + " samples: fastest " + fixed(fastest(v), 3) + ", median " + fixed(typical(v), 3) +
         ", slowest " + fixed(slowest(v), 3) + " ms";
}

const std::vector<double>& kernel_samples(const LinkRun& link, const std::string& kernel) {
  return kernel == "heavy" ? link.heavy_ms : link.light_ms;
}

LinkAndKernel inputs(const LinkRun& link, const std::string& kernel, double (*statistic)(const std::vector<double>&)) {
  LinkAndKernel m;
  m.bytes = link.bytes;
  m.copy_engines = link.copy_engines;
  m.h2d_ms = statistic(link.h2d_ms);
  m.d2h_ms = statistic(link.d2h_ms);
  m.both_ms = statistic(link.both_ms);
  m.kernel_ms = statistic(kernel_samples(link, kernel));
  return m;
}

// What sets the bound, and the samples of that resource.
struct Limit {
  std::string what;
  const std::vector<double>* samples;
};

Limit limit_of(const LinkRun& link, const std::string& kernel) {
  const LinkAndKernel best = best_inputs(link, kernel);
  const double bound = overlap_bound_ms(best);
  if (best.kernel_ms >= bound) return {"the " + kernel + " kernel", &kernel_samples(link, kernel)};
  if (link.copy_engines < 2) return {"copy in + copy out (one copy engine: the directions take turns)", &link.h2d_ms};
  if (best.both_ms >= bound) return {"both directions at once", &link.both_ms};
  if (best.h2d_ms >= bound) return {"the copy in", &link.h2d_ms};
  return {"the copy out", &link.d2h_ms};
}

std::string row_name(const ScheduleRow& row) {
  return row.kernel + " " + schedule_name(row.schedule) + " " + std::to_string(row.chunks) +
         (row.chunks == 1 ? " chunk" : " chunks");
}

double predicted_ms(const ScheduleRow& row, const LinkRun& link) {
  return pipelined_ms(typical_inputs(link, row.kernel), row.chunks);
}

double bound_ms(const ScheduleRow& row, const LinkRun& link) { return overlap_bound_ms(best_inputs(link, row.kernel)); }

std::vector<std::string> kernels_of(const SweepRun& sweep) {
  std::vector<std::string> names;
  for (const ScheduleRow& row : sweep.rows) {
    if (std::find(names.begin(), names.end(), row.kernel) == names.end()) names.push_back(row.kernel);
  }
  return names;
}

std::string connections_label(const std::string& value) { return value.empty() ? "default (unset)" : value; }

// The connections a child had: its variable as a number, 8 when unset (the documented default), 0 if unreadable.
int connections_of(const QueueChild& child) {
  if (child.seen.empty()) return 8;
  char* end = nullptr;
  const long value = std::strtol(child.seen.c_str(), &end, 10);
  return end != nullptr && *end == '\0' && value >= 1 ? static_cast<int>(value) : 0;
}

std::vector<double> numbers_from(const std::string& text, bool& ok) {
  std::vector<double> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || end == nullptr || *end != '\0' || !(v >= 0)) ok = false;
    values.push_back(v);
  }
  if (values.empty()) ok = false;
  return values;
}

// The largest |V1 - V2| gap (in %) a child measured, over its chunk counts.
double largest_gap(const QueueChild& child) {
  double largest = 0;
  for (const QueueSchedules& s : child.schedules) {
    largest = std::max(largest, std::fabs(v1_over_v2_percent(typical(s.v1_ms), typical(s.v2_ms))));
  }
  return largest;
}

// The smallest |V1 - V2| gap over the child's chunk counts, in percent (0 without schedules).
double smallest_gap(const QueueChild& child) {
  double smallest = child.schedules.empty() ? 0 : std::numeric_limits<double>::infinity();
  for (const QueueSchedules& s : child.schedules) {
    smallest = std::min(smallest, std::fabs(v1_over_v2_percent(typical(s.v1_ms), typical(s.v2_ms))));
  }
  return smallest;
}

const QueueChild* child_asked(const QueueRun& run, const std::string& asked) {
  for (const QueueChild& child : run.children) {
    if (child.asked == asked && child.measured) return &child;
  }
  return nullptr;
}

}  // namespace

const char* schedule_name(Schedule schedule) {
  switch (schedule) {
    case Schedule::sequential: return "sequential";
    case Schedule::v1_per_chunk: return "V1";
    case Schedule::v2_per_stage: return "V2";
  }
  return "?";
}

LinkAndKernel typical_inputs(const LinkRun& link, const std::string& kernel) { return inputs(link, kernel, typical); }
LinkAndKernel best_inputs(const LinkRun& link, const std::string& kernel) { return inputs(link, kernel, fastest); }

double v1_over_v2_percent(double v1_ms, double v2_ms) { return 100.0 * (v1_ms - v2_ms) / v2_ms; }

// --- 1. the link and the kernels ---------------------------------------------------

lab::ResultTable link_table(const LinkRun& link) {
  lab::ResultTable table("The copies and the kernels alone, " + fixed(link.bytes / (1 << 20), 0) +
                             " MiB each way, pinned (sampled before and after the sweep)",
                         "what",
                         {{"min", "fastest", "ms", 3},
                          {"median", "median", "ms", 3},
                          {"max", "slowest", "ms", 3},
                          {"count", "samples", "", 0},
                          {"gbps_at_fastest", "at the fastest", "GB/s", 1}});
  auto add = [&](const std::string& name, const std::vector<double>& samples, double bytes) {
    lab::ResultTable::Row& row = table.add_row(name);
    row.samples(samples, "ms");
    if (bytes > 0) row.set("gbps_at_fastest", bytes / (fastest(samples) * 1e6));
  };
  add("copy in alone (H)", link.h2d_ms, link.bytes);
  add("copy out alone (D)", link.d2h_ms, link.bytes);
  add("both directions at once (B)", link.both_ms, 2 * link.bytes);
  add("light kernel, 1 step (K)", link.light_ms, 0);
  add("heavy kernel, " + std::to_string(link.heavy_steps) + " steps (K)", link.heavy_ms, 0);
  table.note("copy engines (asyncEngineCount): " + std::to_string(link.copy_engines) + "; heavy kernel steps " +
             (link.heavy_calibrated ? "chosen to take about as long as the copy in" : "set by --heavy-iterations") +
             "; B counts the bytes of both directions");
  return table;
}

std::vector<lab::Finding> bound_findings(const LinkRun& link) {
  std::vector<lab::Finding> findings;
  for (const std::string kernel : {"light", "heavy"}) {
    const LinkAndKernel best = best_inputs(link, kernel);
    const Limit limit = limit_of(link, kernel);
    findings.push_back(observe(
        "lower bound, " + kernel + " kernel",
        fixed(overlap_bound_ms(best), 3) + " ms, set by " + limit.what + " at its fastest (" + spread(*limit.samples) +
            "). At their fastest: copy in " + fixed(best.h2d_ms, 3) + ", copy out " + fixed(best.d2h_ms, 3) +
            ", both at once " + fixed(best.both_ms, 3) + ", kernel " + fixed(best.kernel_ms, 3) +
            " ms. A schedule copies every byte in and out and runs the kernel over every element, so it cannot "
            "finish sooner unless one of these runs faster inside it than in any of its measurements alone "
            "(section 2 says whether a row did)."));
  }
  return findings;
}

// --- 2. the sweep --------------------------------------------------------------------

lab::ResultTable sweep_table(const SweepRun& sweep, const LinkRun& link) {
  lab::ResultTable table("The schedules: events on the legacy default stream around each run", "row",
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
        .set("median_over_bound", typical(row.samples_ms) / bound)
        .set("result", row.result.passed() ? "correct" : "WRONG");
  }
  table.note(
      "model: the pipeline of overlap_model.hpp on the medians of section 1; lower bound: the same "
      "resources at their fastest; CUDA_DEVICE_MAX_CONNECTIONS in this process: " +
      connections_label(sweep.connections));
  return table;
}

std::vector<lab::Finding> sweep_findings(const SweepRun& sweep, const LinkRun& link) {
  std::vector<lab::Finding> findings;
  std::string wrong;
  for (const ScheduleRow& row : sweep.rows) {
    if (!row.result.passed() && wrong.empty()) wrong = row_name(row) + ": " + row.result.detail();
  }
  findings.push_back(lab::correctness_check(
      "every schedule, chunk count and kernel gave the right result", wrong.empty() && !sweep.rows.empty(),
      wrong.empty() ? std::to_string(sweep.rows.size()) + " rows, each against the CPU reference" : wrong));

  for (const std::string& kernel : kernels_of(sweep)) {
    const ScheduleRow* sequential = nullptr;
    const ScheduleRow* best = nullptr;
    for (const ScheduleRow& row : sweep.rows) {
      if (row.kernel != kernel) continue;
      if (row.schedule == Schedule::sequential) sequential = &row;
      if (best == nullptr || typical(row.samples_ms) < typical(best->samples_ms)) best = &row;
    }
    if (sequential == nullptr) continue;
    const double seq = typical(sequential->samples_ms), top = typical(best->samples_ms);
    const std::string text = "the fastest median, " + row_name(*best) + ", " + fixed(top, 3) + " ms, against " +
                             fixed(seq, 3) + " ms sequential: " + fixed(seq / top, 2) + "x; it is " +
                             fixed(top / bound_ms(*best, link), 2) + "x the lower bound (" +
                             fixed(bound_ms(*best, link), 3) + " ms); the model predicted " +
                             fixed(predicted_ms(*best, link), 3) + " ms for it";
    if (kernel == "heavy") {  // copies and kernel of similar length: overlap must save a lot
      findings.push_back(lab::timing_check("overlap saves time when the kernel is as long as the copies",
                                           top < 0.9 * seq, text + " (the check: under 0.9x sequential)"));
    } else {
      findings.push_back(observe("overlap, " + kernel + " kernel", text));
    }
  }

  // Rows whose fastest run beat their lower bound: said with the numbers, never hidden.
  std::string beaten, closest_text;
  int beaten_count = 0;
  double closest = std::numeric_limits<double>::infinity();
  for (const ScheduleRow& row : sweep.rows) {
    const double bound = bound_ms(row, link), row_best = fastest(row.samples_ms);
    if (row_best < bound) {
      beaten_count += 1;
      beaten += (beaten.empty() ? "" : "; ") + row_name(row) + " " + fixed(row_best, 3) + " ms < " + fixed(bound, 3) +
                " ms (" + signed_percent(100 * (row_best - bound) / bound) + ")";
    } else if (row_best / bound < closest) {
      closest = row_best / bound;
      closest_text = row_name(row) + " at " + fixed(row_best, 3) + " ms, " + fixed(100 * (closest - 1), 1) +
                     " % above its bound of " + fixed(bound, 3) + " ms";
    }
  }
  if (beaten_count > 0) {
    findings.push_back(observe(
        "rows faster than the lower bound",
        std::to_string(beaten_count) + " row(s) had a run faster than their bound: " + beaten +
            ". In those runs a resource went faster inside the schedule than in every one of its measurements alone "
            "(both directions at once: " +
            spread(link.both_ms) + "; copy in alone: " + spread(link.h2d_ms) +
            "): the bound is made of measurements, and this run's do not bound those rows."));
  } else {
    findings.push_back(observe("rows faster than the lower bound",
                               "none: every row's fastest run took at least its bound; the closest, " +
                                   (closest_text.empty() ? std::string("none") : closest_text)));
  }

  // V1 against V2 at each kernel and chunk count.
  int within = 0, v1_faster = 0, v2_faster = 0;
  double largest = 0, same_work = 0;
  std::string largest_text = "none", apart;
  for (const ScheduleRow& v1 : sweep.rows) {
    if (v1.schedule != Schedule::v1_per_chunk) continue;
    for (const ScheduleRow& v2 : sweep.rows) {
      if (v2.schedule != Schedule::v2_per_stage || v2.kernel != v1.kernel || v2.chunks != v1.chunks) continue;
      const double gap = v1_over_v2_percent(typical(v1.samples_ms), typical(v2.samples_ms));
      if (v1.chunks == 1) {  // the very same work: the run's noise, not a difference between schedules
        same_work = std::max(same_work, std::fabs(gap));
        continue;
      }
      if (std::fabs(gap) <= 5) {
        within += 1;
      } else {
        (gap > 0 ? v2_faster : v1_faster) += 1;
        apart +=
            (apart.empty() ? "" : ", ") + v1.kernel + "/" + std::to_string(v1.chunks) + " " + signed_percent(gap, 1);
      }
      if (std::fabs(gap) > largest) {
        largest = std::fabs(gap);
        largest_text = v1.kernel + "/" + std::to_string(v1.chunks) + " (" + signed_percent(gap, 1) + ")";
      }
    }
  }
  findings.push_back(
      observe("V1 against V2 in this process (connections: " + connections_label(sweep.connections) + ")",
              std::to_string(within) + " pair(s) within 5 %, " + std::to_string(v2_faster) + " with V2 faster, " +
                  std::to_string(v1_faster) + " with V1 faster" +
                  (apart.empty() ? "" : " (" + apart + ", V1's median relative to V2's)") +
                  "; the largest gap: " + largest_text +
                  ". At 1 chunk, where V1 and V2 queue the very same work (left out of "
                  "these counts), their medians were up to " +
                  fixed(same_work, 1) + " % apart."));
  return findings;
}

// --- 3. the hardware's work queues ----------------------------------------------------

bool read_child_output(const std::string& text, QueueChild& child) {
  child.measured = false;
  child.schedules.clear();
  child.orders.clear();
  std::istringstream lines(text);
  std::string line;
  bool ok = true, done = false, saw_connections = false;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "connections") {
      words >> child.seen;
      if (child.seen == "unset") child.seen.clear();
      saw_connections = true;
    } else if (kind == "schedules") {
      QueueSchedules s;
      int correct = -1;
      std::string v1, v2;
      words >> s.chunks >> correct >> v1 >> v2;
      s.correct = correct == 1;
      s.v1_ms = numbers_from(v1, ok);
      s.v2_ms = numbers_from(v2, ok);
      if (s.chunks < 1 || (correct != 0 && correct != 1)) ok = false;
      child.schedules.push_back(s);
    } else if (kind == "spin") {
      words >> child.spin_ms;
      if (!(child.spin_ms > 0)) ok = false;
    } else if (kind == "orders") {
      StreamOrder o;
      std::string depth, breadth;
      words >> o.streams >> depth >> breadth;
      o.depth_first_ms = numbers_from(depth, ok);
      o.breadth_first_ms = numbers_from(breadth, ok);
      if (o.streams < 1) ok = false;
      child.orders.push_back(o);
    } else if (kind == "done") {
      done = true;
    }
  }
  if (!ok || !done || !saw_connections || child.schedules.empty() || child.orders.empty()) {
    child.why_not = "ch05_queue_child's output could not be read" + std::string(done ? "" : " (no final 'done' line)");
    return false;
  }
  child.measured = true;
  return true;
}

lab::ResultTable queue_schedule_table(const QueueRun& run) {
  lab::ResultTable table("V1 and V2 (light kernel, " + fixed(run.mib, 0) +
                             " MiB each way) in a child process per CUDA_DEVICE_MAX_CONNECTIONS",
                         "connections, chunks",
                         {{"v1_ms", "V1 median", "ms", 3},
                          {"v2_ms", "V2 median", "ms", 3},
                          {"v1_over_v2_percent", "V1 vs V2", "%", 0},
                          {"result", "result", "", 0}});
  for (const QueueChild& child : run.children) {
    if (!child.measured) continue;
    for (const QueueSchedules& s : child.schedules) {
      const double v1 = typical(s.v1_ms), v2 = typical(s.v2_ms);
      table.add_row(connections_label(child.seen) + ", " + std::to_string(s.chunks) + " chunks")
          .set("connections_asked", child.asked)
          .set("connections_seen", child.seen)
          .set("chunks", s.chunks)
          .set("v1_ms", v1)
          .set("v2_ms", v2)
          .set("v1_samples_ms", s.v1_ms)
          .set("v2_samples_ms", s.v2_ms)
          .set("v1_over_v2_percent", v1_over_v2_percent(v1, v2))
          .set("result", s.correct ? "correct" : "WRONG");
    }
  }
  table.note("V1 vs V2: V1's median relative to V2's (positive: V2 was faster)");
  return table;
}

lab::ResultTable stream_order_table(const QueueRun& run) {
  lab::ResultTable table(
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
    const int connections = connections_of(child);
    for (const StreamOrder& o : child.orders) {
      lab::ResultTable::Row& row =
          table.add_row(connections_label(child.seen) + ", " + std::to_string(o.streams) + " streams")
              .set("connections_seen", child.seen)
              .set("streams", o.streams)
              .set("spin_ms", child.spin_ms)
              .set("depth_first_ms", typical(o.depth_first_ms))
              .set("breadth_first_ms", typical(o.breadth_first_ms))
              .set("depth_first_lengths", typical(o.depth_first_ms) / child.spin_ms)
              .set("breadth_first_lengths", typical(o.breadth_first_ms) / child.spin_ms);
      if (connections > 0) row.set("model_lengths", depth_first_kernel_lengths(o.streams, connections));
    }
  }
  table.note(
      "medians; kernels: the time in lengths of one spin kernel; model: ceil(streams / connections) + 1, "
      "streams spread round robin over the connections (overlap_model.hpp); breadth first: 2 whatever the count");
  return table;
}

std::vector<lab::Finding> queue_findings(const QueueRun& run) {
  std::vector<lab::Finding> findings;
  if (!run.skipped.empty()) {
    findings.push_back(observe("work queues", "not measured: " + run.skipped));
    return findings;
  }
  std::string wrong;
  int measured = 0;
  for (const QueueChild& child : run.children) {
    if (!child.measured) {
      findings.push_back(observe("connections " + connections_label(child.asked), "not measured: " + child.why_not));
      continue;
    }
    measured += 1;
    for (const QueueSchedules& s : child.schedules) {
      if (!s.correct && wrong.empty()) {
        wrong = "connections " + connections_label(child.seen) + ", " + std::to_string(s.chunks) + " chunks";
      }
    }
    if (child.seen != child.asked) {
      findings.push_back(observe("connections " + connections_label(child.asked),
                                 "the child saw CUDA_DEVICE_MAX_CONNECTIONS = " + connections_label(child.seen)));
    }
  }
  if (measured > 0) {
    findings.push_back(lab::correctness_check(
        "V1 and V2 correct in every child process", wrong.empty(),
        wrong.empty() ? std::to_string(measured) + " child process(es), each schedule against the CPU reference"
                      : "wrong result at " + wrong));
  }

  // Does the issue order matter more with one connection than with the default?
  const QueueChild* one = child_asked(run, "1");
  const QueueChild* usual = child_asked(run, "");
  if (one != nullptr && usual != nullptr) {
    const double gap_one = largest_gap(*one), gap_usual = largest_gap(*usual);
    const std::string numbers = "V1 and V2 were up to " + fixed(gap_one, 1) + " % apart with 1 connection and up to " +
                                fixed(gap_usual, 1) + " % with the default";
    const double smallest_one = smallest_gap(*one);
    if (gap_one > 10 && gap_one > 2 * gap_usual && smallest_one > 10) {
      findings.push_back(observe("issue order and connections",
                                 numbers + ": with one work queue, the order in which the host queued the same "
                                           "work changed its time at every chunk count measured (the children "
                                           "time the schedules; they do not record how they overlapped)"));
    } else if (gap_one > 10 && gap_one > 2 * gap_usual) {
      findings.push_back(observe(
          "issue order and connections",
          numbers + ", but with 1 connection not at every chunk count (the smallest gap: " + fixed(smallest_one, 1) +
              " %): one run of each does not show the order deciding the time"));
    } else if (fixed(gap_one, 1) != fixed(gap_usual, 1) && gap_one > gap_usual) {
      findings.push_back(observe("issue order and connections",
                                 numbers + ": larger with one connection, but not by the margin this finding asks "
                                           "before it calls the order decisive (over 10 % and over twice the "
                                           "default's)"));
    } else {
      findings.push_back(observe("issue order and connections",
                                 numbers + ": in this run the order mattered no more with one connection than "
                                           "with the default"));
    }
  }

  // Streams that share a connection: does depth first serialize them as the model says?
  for (const QueueChild& child : run.children) {
    if (!child.measured) continue;
    const int connections = connections_of(child);
    if (connections == 0) continue;
    int matched = 0;
    std::string lengths, shared, alone;
    bool breadth_took_two = true;  // where streams share connections, breadth first took 2 lengths (within half)
    for (const StreamOrder& o : child.orders) {
      const double depth = typical(o.depth_first_ms) / child.spin_ms;
      const double breadth = typical(o.breadth_first_ms) / child.spin_ms;
      const int model = depth_first_kernel_lengths(o.streams, connections);
      if (std::fabs(depth - model) <= 0.5) matched += 1;
      lengths += (lengths.empty() ? "" : "; ") + std::to_string(o.streams) + " streams: " + fixed(depth, 1) +
                 " (model " + std::to_string(model) + "), breadth first " + fixed(breadth, 1);
      std::string& list = o.streams > connections ? shared : alone;
      list += (list.empty() ? "" : ", ") + std::to_string(o.streams);
      if (o.streams > connections && std::fabs(breadth - 2) > 0.5) breadth_took_two = false;
    }
    const std::string name = "streams sharing connections (" + connections_label(child.seen) + ")";
    const std::string counted = "depth first took, in kernel lengths, " + lengths + ". ";
    if (matched == static_cast<int>(child.orders.size())) {
      // Only stream counts above the connections share one: only there can the model's false dependencies appear.
      std::string text = counted + "Every count matched the model within half a kernel";
      if (!shared.empty()) {
        text += ": at " + shared + " streams, more than the " + std::to_string(connections) +
                " connection(s), depth first took the model's ceil(streams / connections) + 1 lengths, the time of "
                "streams that wait behind other streams' unrelated work (false dependencies)" +
                (breadth_took_two ? ", and queuing kernel by kernel avoided it (2 lengths)"
                                  : "; breadth first did not keep to 2 lengths");
      }
      if (!alone.empty()) {
        text += std::string(shared.empty() ? ": " : "; ") + "at " + alone + " streams, no more than the " +
                std::to_string(connections) +
                " connection(s), the model has no stream share one, and depth first "
                "took its 2 lengths";
      }
      findings.push_back(observe(name, text));
    } else {
      findings.push_back(observe(name, counted + std::to_string(matched) + " of " +
                                           std::to_string(child.orders.size()) +
                                           " counts matched the model within half a kernel: the driver did not "
                                           "spread or serialize these streams as the model assumes"));
    }
  }
  return findings;
}

std::vector<lab::Background> queue_background() {
  return {
      {"CUDA_DEVICE_MAX_CONNECTIONS sets the number of compute and copy engine concurrent connections (work queues) "
       "from the host to each device of compute capability 3.5 and above, 1 to 32 (default 8); it is the preferred "
       "number, and the driver may allocate a different one. Section 3 sets it in the environment of child "
       "processes, each of which starts with it set.",
       "CUDA C++ Programming Guide (CUDA 12 editions), CUDA Environment Variables; GPU Deployment and Management "
       "Guide, MPS, CUDA_DEVICE_MAX_CONNECTIONS"},
      {"With more streams than connections, streams alias to connections, which can create false dependencies "
       "between them: a stream can wait for another stream's unrelated work. (That one connection starts its work "
       "in the order it was queued is this chapter's model, overlap_model.hpp, which section 3's table tests.)",
       "NVIDIA Developer Forums, \"How many streams? Maximum number of streams\" (answer by NVIDIA)"},
      {"In NVIDIA's article, V1 and V2 differed because of the hardware's queues: with one copy engine (C1060), V1 "
       "queues chunk i's copy out (which waits for its kernel) ahead of chunk i+1's copy in in the same engine queue; "
       "on the C2050 (two copy engines, one compute queue), kernels queued back to back in different streams delayed "
       "the signal of each kernel's completion until all had finished, which held V2's copies out back. Hyper-Q "
       "(compute capability 3.5 and later, several hardware work queues) is why, in the article's words, the launch "
       "order no longer needs to be tailored to the device.",
       "NVIDIA Developer Blog, \"How to Overlap Data Transfers in CUDA C/C++\" (M. Harris)"},
  };
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
  return std::string(schedule_name(run.schedule)) + ", " + std::to_string(run.chunks) +
         (run.chunks == 1 ? " chunk" : " chunks");
}

}  // namespace

lab::ResultTable recorded_table(const std::vector<RecordedSchedule>& runs) {
  lab::ResultTable table("One run of each schedule (light kernel) as CUPTI recorded it", "schedule",
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
  std::vector<lab::Finding> findings;
  std::string wrong;
  for (const RecordedSchedule& run : runs) {
    if (!run.result.passed() && wrong.empty()) wrong = recorded_name(run) + ": " + run.result.detail();
  }
  findings.push_back(lab::correctness_check("recorded runs correct", wrong.empty() && !runs.empty(),
                                            wrong.empty() ? std::to_string(runs.size()) + " runs" : wrong));
  for (const RecordedSchedule& run : runs) {
    const std::string name = "recorded " + recorded_name(run);
    if (!run.recorded) {
      findings.push_back(observe(name, "not recorded: " + run.why_not));
      continue;
    }
    const double span = span_ms(run.work);
    const double copies = lab::busy_ms(run.work, "HD");
    const double at_once = lab::overlap_ms(run.work, "H", "D") + lab::overlap_ms(run.work, "HD", "K");
    if (at_once > 0.01 * span) {
      findings.push_back(observe(
          name, "copies ran " + fixed(copies, 3) + " ms of the " + fixed(span, 3) +
                    " ms span; copies in and out ran together for " + fixed(lab::overlap_ms(run.work, "H", "D"), 3) +
                    " ms, copies and kernels for " + fixed(lab::overlap_ms(run.work, "HD", "K"), 3) + " ms"));
    } else {
      findings.push_back(observe(name, "nothing overlapped: copies ran " + fixed(copies, 3) + " ms and kernels " +
                                           fixed(lab::busy_ms(run.work, "K"), 3) + " ms of the " + fixed(span, 3) +
                                           " ms span, one after the other"));
    }
  }
  return findings;
}

}  // namespace ch05
