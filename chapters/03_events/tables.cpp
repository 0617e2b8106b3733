#include "tables.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "checks.hpp"
#include "command_line.hpp"
#include "vocabulary.hpp"

namespace ch03 {

// The columns of a row of samples in @p unit: median (headed @p median), min and max, then @p more.
static std::vector<lab::Column> spread(const char* unit, int decimals, std::vector<lab::Column> more = {},
                                       const char* median = "median") {
  more.insert(more.begin(),
              {{"median", median, unit, decimals}, {"min", "min", unit, decimals}, {"max", "max", unit, decimals}});
  return more;
}

// --- 1. Events as a stopwatch --------------------------------------------------

lab::ResultTable stopwatch_table(const StopwatchRun& run) {
  lab::ResultTable table("stopwatch",
                         lab::format("A %.1f ms kernel, %s, each timed both ways at once", run.kernel_ms,
                                     lab::count_text(run.event_ms.size(), "sample", "samples").c_str()),
                         "timer", spread("ms", 3, {{"vs_events_percent", "vs events", "%", 2}}));
  table.add_row("events (cudaEventElapsedTime)").samples(run.event_ms, "ms");
  table.add_row("host timer, synchronised")
      .samples(run.host_ms, "ms")
      .set("vs_events_percent", lab::percent_above(lab::median_or_nan(run.host_ms), lab::median_or_nan(run.event_ms)));
  table.note("the host timer starts before cudaEventRecord(start) and stops when cudaEventSynchronize(stop) returns");
  return table;
}

// --- 2. What an event costs ----------------------------------------------------

lab::ResultTable event_cost_table(const EventCostRun& run) {
  lab::ResultTable table(
      "event_costs", "What an event costs", "what",
      spread("us", 2, {{"smallest_difference_us", "smallest difference", "us", 3}, {"count", "samples", "", 0}}));
  table.add_row("empty event pair (GPU time)")
      .samples(run.empty_pair_us, "us")
      .set("smallest_difference_us", lab::smallest_step(run.empty_pair_us, 1e-4));
  table.add_row("cudaEventRecord, default event (host time)").samples(run.record_default_us, "us");
  table.add_row("cudaEventRecord, cudaEventDisableTiming (host time)").samples(run.record_disable_timing_us, "us");
  table.note(
      "the empty pair: two events queued back to back behind a held stream; smallest difference: between two of "
      "its readings");
  return table;
}

// --- 3. Waiting: spin or sleep -------------------------------------------------

lab::ResultTable wait_table(const WaitRun& run) {
  lab::ResultTable table(
      "waits", lab::format("Waiting %.1f ms for a kernel: three wait calls, two scheduling flags", run.kernel_ms),
      "how",
      {{"wait_call", "wait call", "", 0},
       {"schedule", "scheduling flag", "", 0},
       {"set_flags", "cudaSetDeviceFlags", "", 0},
       {"wall_ms", "wall", "ms", 2},
       {"cpu_ms", "CPU", "ms", 2},
       {"cpu_percent", "CPU / wall", "%", 0},
       {"thread", "thread", "", 0}});
  const std::string prefix = "cudaDeviceSchedule";  // the "scheduling flag" column shows "Auto", "BlockingSync"
  for (const auto& [name, c] : {std::pair<const char*, const WaitCase*>{"default event", &run.default_event},
                                {"cudaEventBlockingSync event", &run.blocking_event},
                                {"the stream", &run.stream_sync},
                                {"the device", &run.device_sync},
                                {"default event, flag set before the context", &run.flag_before_context},
                                {"the stream, flag set before the context", &run.flag_before_stream_sync},
                                {"the device, flag set before the context", &run.flag_before_device_sync},
                                {"default event, flag set after the context", &run.flag_after_context},
                                {"the stream, flag set after the context", &run.flag_after_stream_sync}}) {
    lab::ResultTable::Row& row = table.add_row(name);
    row.set("wait_call", wait_call_name(c->call))
        .set("schedule", c->device_flag.rfind(prefix, 0) == 0 ? c->device_flag.substr(prefix.size()) : c->device_flag)
        .set("set_flags", c->set_flags_result.empty() ? lab::Value() : lab::Value(c->set_flags_result));
    if (c->measured) {
      row.set("wall_ms", c->cost.wall_ms).set("cpu_ms", c->cost.cpu_ms).set("cpu_percent", 100 * cpu_share(*c));
      row.set("thread", spun(*c) ? "spun" : slept(*c) ? "slept" : "between");
    } else {
      row.set("why_not", c->why_not);
    }
  }
  table.note(
      lab::format("the rows 'flag set ...' ran in two child processes (ch03_wait_child) that set "
                  "cudaDeviceScheduleBlockingSync, read back with cudaGetDeviceFlags; %u logical cores; "
                  "spun: CPU / wall from 50 %%, slept: below 20 %%",
                  run.logical_cores));
  return table;
}

// --- 4. The host stays free ----------------------------------------------------

lab::ResultTable free_host_table(const FreeHostRun& run) {
  lab::ResultTable table("free_host", "Polling cudaEventQuery while a kernel runs", "what",
                         {{"kernel_ms", "kernel (events)", "ms", 3},
                          {"host_ms", "host until done", "ms", 3},
                          {"polls", "polls", "", 0},
                          {"work_iterations", "CPU work", "iterations", 0}});
  table.add_row("poll, then a slice of CPU work")
      .set("kernel_ms", run.kernel_ms)
      .set("host_ms", run.host_ms)
      .set("polls", run.polls)
      .set("work_iterations", run.work_iterations);
  return table;
}

// --- 5. Pitfall 1: what the events bracket ------------------------------------

lab::ResultTable bracketing_table(const BracketingRun& run) {
  lab::ResultTable table(
      "bracketing",
      lab::format("A %.1f MiB host-to-device copy (pinned) and c = a + b, %s per placement", run.copy_mib,
                  lab::count_text(run.after_copy_us.size(), "sample", "samples").c_str()),
      "where the events are", spread("us", 1));
  table.add_row("start; copy; kernel; stop").samples(run.copy_and_kernel_us, "us");
  table.add_row("copy; start; kernel; stop").samples(run.after_copy_us, "us");
  table.add_row("start; copy; stop").samples(run.copy_only_us, "us");
  return table;
}

// --- 6. Pitfall 2: the launch gap, against CUPTI -------------------------------

lab::ResultTable launch_gap_table(const LaunchGapSize& size) {
  lab::ResultTable table("launch_gap_" + size.option,
                         "c = a + b on " + size_text(size) + ", " +
                             lab::count_text(size.isolated.events_us.size(), "sample", "samples") + " per method",
                         "how the samples were queued",
                         spread("us", 2,
                                {{"cupti_median_us", "CUPTI kernel median", "us", 2},
                                 {"vs_cupti_percent", "events vs CUPTI", "%", 1},
                                 {"cupti_x_warm", "CUPTI x warm", "", 2},
                                 {"result", "c = a + b", "", 0}},
                                "events median"));
  const double warm_cupti_us = lab::median_or_nan(size.blocked.cupti_us);  // the flushed rows' kernel against it
  bool all_recorded = true;
  for (const Estimate& e : estimates(size)) {
    lab::ResultTable::Row& row = table.add_row(e.name);
    row.set("n", size.n);
    if (e.method != nullptr) {
      row.samples(e.method->events_us, "us");
      if (!e.method->cupti_us.empty()) row.set("cupti_samples_us", e.method->cupti_us);
      row.set("result", e.method->result.passed() ? "correct" : "WRONG");
      all_recorded = all_recorded && e.method->cupti_missing.empty();
    } else {
      row.set("median", e.events_us).set("empty_pair_us", size.empty_pair_us);
    }
    if (!std::isnan(e.cupti_us)) {
      row.set("cupti_median_us", e.cupti_us).set("vs_cupti_percent", lab::percent_above(e.events_us, e.cupti_us));
      if (!e.warm && e.method != nullptr) row.set("cupti_x_warm", e.cupti_us / warm_cupti_us);
    }
  }
  table.note(lab::format("\"- empty pair\": minus the median of two events back to back (%.2f us, section 2); L2 "
                         "flushed: %.0f MiB written before each sample; CUPTI: the kernels of the same launches",
                         size.empty_pair_us, static_cast<double>(size.l2_flush_bytes) / lab::kMiB) +
             (all_recorded ? "" : "; \"-\": " + why_no_cupti(size)));
  return table;
}

// --- 7. Timing many streams ----------------------------------------------------

lab::ResultTable many_streams_table(const ManyStreamsRun& run) {
  lab::ResultTable table("many_streams",
                         lab::count_text(run.per_stream_ms.size(), "stream", "streams") +
                             ", each c = a + b on its own arrays, with its own begin and end event",
                         "what", {{"ms", "time", "ms", 3}, {"x_one_kernel", "x one kernel alone", "", 2}});
  const double one = run.one_kernel_ms;
  for (std::size_t i = 0; i < run.per_stream_ms.size(); ++i) {
    table.add_row(lab::format("stream %zu: its own pair", i))
        .set("ms", run.per_stream_ms[i])
        .set("x_one_kernel", run.per_stream_ms[i] / one);
  }
  table.add_row("whole: earliest begin to latest end")
      .set("ms", run.earliest_begin_to_latest_end_ms)
      .set("x_one_kernel", run.earliest_begin_to_latest_end_ms / one);
  table.add_row("whole: host timer, synchronised").set("ms", run.host_ms).set("x_one_kernel", run.host_ms / one);
  table.add_row("one kernel alone (median, back to back)").set("ms", one).set("x_one_kernel", 1.0);
  const double count = static_cast<double>(run.per_stream_ms.size());
  table.add_row(lab::format("%.0f x one kernel alone (computed)", count))
      .set("ms", count * one)
      .set("x_one_kernel", count);
  return table;
}

// --- 8. Pitfall 3: events on another stream -----------------------------------

lab::ResultTable wrong_stream_table(const WrongStreamRun& run) {
  lab::ResultTable table(
      "wrong_stream", "c = a + b on " + lab::format_count(run.n) + " floats, each launch timed four ways", "timer",
      spread("us", 2, {{"vs_host", "vs host", "%", 1}, {"unfinished", "work unfinished at its stop", "", 0}}));
  const double host = lab::median_or_nan(run.host_us);
  const auto row = [&](const char* name, const std::vector<double>& us) -> lab::ResultTable::Row& {
    return table.add_row(name).samples(us, "us").set("vs_host", lab::percent_above(lab::median_or_nan(us), host));
  };
  row("events on the work's stream", run.own_stream_us);
  row("events on another stream", run.other_stream_us).set("unfinished", run.unfinished);
  row("another stream, fork and join (cudaStreamWaitEvent)", run.joined_us);
  row("host timer, to cudaStreamSynchronize(work)", run.host_us);
  table.note(
      "both streams made with cudaStreamNonBlocking; fork and join: the work's stream waits for that pair's start, "
      "and its stop waits for the work; the host timer starts before the first cudaEventRecord; work unfinished: "
      "samples whose work's stop event was not ready once this pair's stop had completed");
  return table;
}

}  // namespace ch03
