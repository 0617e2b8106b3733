#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "command_line.hpp"
#include "vocabulary.hpp"
#include "wait_report.hpp"

namespace ch03 {

// Passes when every named result is correct (and there is one); else names the first that is not.
static lab::Finding all_correct(const std::string& id, const std::string& name,
                                const std::vector<std::pair<std::string, lab::Comparison>>& results) {
  const auto wrong = std::find_if(results.begin(), results.end(), [](const auto& r) { return !r.second.passed(); });
  return lab::correctness_check(id, name, !results.empty() && wrong == results.end(),
                                wrong != results.end() ? wrong->first + ": " + wrong->second.detail()
                                                       : lab::count_text(results.size(), "result", "results") +
                                                             ", exact comparison with the CPU")
      .with("result_count", results.size());
}

// --- 1. Events as a stopwatch --------------------------------------------------

lab::ResultTable stopwatch_table(const StopwatchRun& run) {
  lab::ResultTable table("stopwatch",
                         lab::format("A %.1f ms kernel, %s, each timed both ways at once", run.kernel_ms,
                                     lab::count_text(run.event_ms.size(), "sample", "samples").c_str()),
                         "timer",
                         {{"median", "median", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"vs_events_percent", "vs events", "%", 2}});
  table.add_row("events (cudaEventElapsedTime)").samples(run.event_ms, "ms");
  table.add_row("host timer, synchronised")
      .samples(run.host_ms, "ms")
      .set("vs_events_percent", lab::percent_above(lab::median_or_nan(run.host_ms), lab::median_or_nan(run.event_ms)));
  table.note("the host timer starts before cudaEventRecord(start) and stops when cudaEventSynchronize(stop) returns");
  return table;
}

// The medians agree within 5 %; the text says what the host timer read more per sample, and why.
std::vector<lab::Finding> stopwatch_findings(const StopwatchRun& run) {
  const double apart = lab::percent_above(lab::median_or_nan(run.host_ms), lab::median_or_nan(run.event_ms));
  std::vector<double> excess_us;  // per sample: host minus events
  for (std::size_t i = 0; i < run.event_ms.size() && i < run.host_ms.size(); ++i)
    excess_us.push_back((run.host_ms[i] - run.event_ms[i]) * 1e3);
  const double excess = lab::median_or_nan(excess_us);
  return {lab::timing_check("events_vs_host", "events and a synchronised host timer agree within 5 % on a long kernel",
                            std::fabs(apart) < 5.0,
                            lab::format("the host timer's median read %s; per sample it read a median of %.1f us more",
                                        lab::signed_percent(apart, 2).c_str(), excess) +
                                (excess > 0 ? ": the launch before the start event and the return from "
                                              "cudaEventSynchronize, which the events miss"
                                            : ""))
              .with("apart_percent", apart)
              .with("excess_us", excess)};
}

// --- 2. What an event costs ----------------------------------------------------

lab::ResultTable event_cost_table(const EventCostRun& run) {
  lab::ResultTable table(
      "event_costs", "What an event costs", "what",
      {{"median", "median", "us", 2}, {"min", "min", "us", 2}, {"max", "max", "us", 2}, {"count", "samples", "", 0}});
  table.add_row("empty event pair (GPU time)").samples(run.empty_pair_us, "us");
  table.add_row("cudaEventRecord, default event (host time)").samples(run.record_default_us, "us");
  table.add_row("cudaEventRecord, cudaEventDisableTiming (host time)").samples(run.record_disable_timing_us, "us");
  table.note("the empty pair: two events queued back to back behind a held stream, so the GPU meets them together");
  return table;
}

// cudaEventElapsedTime's documented resolution, "around 0.5 microseconds": a floor under it is not called a cost.
constexpr double kDocumentedResolutionUs = 0.5;

// The empty pair against the smallest difference between its readings (the timer grades them at least that
// finely: an upper bound on its step, not the step) and against the documented resolution.
std::vector<lab::Finding> event_cost_findings(const EventCostRun& run) {
  const double pair = lab::median_or_nan(run.empty_pair_us), step = lab::smallest_step(run.empty_pair_us, 1e-4);
  const std::string branch = step == 0                         ? "no_step"
                             : pair <= step                    ? "within_step"
                             : pair <= kDocumentedResolutionUs ? "within_resolution"
                                                               : "own_cost";
  std::string text = lab::format(
      "an empty pair read %.3f us; readings differed by as little as %.3f us (the timer grades at least that finely)",
      pair, step);
  if (branch == "no_step") text = lab::format("every empty pair read %.3f us: no difference to judge it by", pair);
  if (branch == "within_step") text += ": a floor no larger than that, which this run cannot tell from the grading";
  if (branch == "within_resolution")
    text +=
        ", yet the floor is within the documented resolution (about 0.5 us): not called the pair's own cost "
        "(section 6 subtracts it all the same)";
  if (branch == "own_cost")
    text += ", and above the documented resolution (around 0.5 us): the pair's cost; section 6 subtracts it";
  return {lab::named_observation("pair_floor." + branch, "the floor of an event pair", text)
              .with("pair_median_us", pair)
              .with("smallest_difference_us", step)
              .with("documented_resolution_us", kDocumentedResolutionUs)};
}

// --- 3. Waiting: spin or sleep -------------------------------------------------

constexpr double kSpinShare = 0.5;   // a waiting thread "spun" from this share of the wall time as CPU time
constexpr double kSleepShare = 0.2;  // and "slept" below this one

static double cpu_share(const WaitCase& c) { return c.cost.wall_ms > 0 ? c.cost.cpu_ms / c.cost.wall_ms : 0.0; }
static bool spun(const WaitCase& c) { return c.measured && cpu_share(c) >= kSpinShare; }
static bool slept(const WaitCase& c) { return c.measured && cpu_share(c) < kSleepShare; }

// @p f with the CPU share of each measured case, as "<key>_cpu_percent" (what spun() and slept() judge).
static lab::Finding with_shares(lab::Finding f, std::initializer_list<std::pair<const char*, const WaitCase*>> cases) {
  for (const auto& [key, c] : cases) {
    if (c->measured) f.with(std::string(key) + "_cpu_percent", 100 * cpu_share(*c));
  }
  return f;
}

static lab::Finding default_event(const WaitRun& run) {
  const WaitCase& c = run.default_event;
  std::string text = "under " + c.device_flag + " the waiting thread " + (spun(c) ? "spun" : "did not spin");
  if (spun(c) && c.device_flag == "cudaDeviceScheduleAuto") {
    text += lab::format(
        ", as cudaDeviceScheduleAuto does while the process has no more active CUDA contexts than "
        "logical cores (1 context, %u cores)",
        run.logical_cores);
  }
  const std::string branch = !c.measured ? "not_measured" : spun(c) ? "spun" : "did_not_spin";
  return with_shares(lab::named_observation("default_event." + branch, "a default event",
                                            c.measured ? text : "not measured: " + c.why_not),
                     {{"wait", &c}})
      .with("logical_cores", run.logical_cores);
}

static lab::Finding blocking_event(const WaitCase& c) {
  return with_shares(
      lab::timing_check(
          "blocking_event", "a cudaEventBlockingSync event lets the waiting thread sleep", c.measured && !spun(c),
          c.measured ? lab::format("CPU %.0f %% of the wait", 100 * cpu_share(c)) : "not measured: " + c.why_not),
      {{"wait", &c}});
}

// What cudaDeviceScheduleBlockingSync, set before the context, made sleep
// (asleep with it, spinning without it), and so which flag decides which call.
static lab::Finding flag_set_before(const WaitRun& run) {
  const WaitCase& event = run.flag_before_context;
  std::string made;  // cudaStreamSynchronize and/or cudaDeviceSynchronize
  int made_count = 0;
  bool others_slept = true;  // every other measured call slept with the flag
  for (const auto& [without, with] : {std::pair{&run.stream_sync, &run.flag_before_stream_sync},
                                      std::pair{&run.device_sync, &run.flag_before_device_sync}}) {
    if (slept(*with) && spun(*without)) made += (made_count++ > 0 ? " and " : "") + wait_call_name(with->call);
    others_slept = others_slept && (!with->measured || slept(*with));
  }
  std::string branch = "no_conclusion";
  std::string text =
      "no conclusion on which flag decides; compare the rows 'flag set before the context' with the "
      "same calls without it";
  if (!event.measured) {
    branch = "not_measured", text = "not measured: " + event.why_not;
  } else if (made_count > 0 && event.measured && !slept(event)) {
    const bool decided = slept(run.blocking_event);
    branch = decided ? "event_flag_decides" : "undecided";
    text = "it made " + made + " sleep (they spun without it), not cudaEventSynchronize on a default event; " +
           (decided ? "a cudaEventBlockingSync event slept without it: the event's own flag decides how "
                      "cudaEventSynchronize waits, as its page says, the device flag how " +
                          made + (made_count == 1 ? " waits" : " wait")
                    : "no cudaEventBlockingSync event slept without it: this run does not show what makes "
                      "cudaEventSynchronize sleep");
  } else if (slept(event) && spun(run.default_event) && others_slept) {
    branch = "reaches_event";
    text =
        "every measured call slept, cudaEventSynchronize on a default event too (it spun without the flag): "
        "the device flag reached that wait, which its page does not say";
  }
  return with_shares(lab::named_observation("flag_before_context." + branch,
                                            "cudaDeviceScheduleBlockingSync, set before the context", text),
                     {{"event", &event},
                      {"stream", &run.flag_before_stream_sync},
                      {"device", &run.flag_before_device_sync},
                      {"blocking_event", &run.blocking_event}})
      .with("calls_made_asleep_count", made_count);
}

// cudaDeviceScheduleBlockingSync set once the context existed: accepted, and did it reach the context?
static lab::Finding flag_set_after(const WaitRun& run) {
  const WaitCase& after = run.flag_after_context;
  const WaitCase& stream = run.flag_after_stream_sync;
  std::string branch = "cannot_tell";
  std::string text =
      "a default event's wait did not sleep, nor did cudaStreamSynchronize show the flag: this run "
      "cannot tell whether the flag reached the existing context";
  if (!after.measured) {
    branch = "not_measured", text = "not measured: " + after.why_not;
  } else if (after.set_flags_result != "cudaSuccess") {
    branch = "refused", text = "cudaSetDeviceFlags returned " + after.set_flags_result;
  } else if (slept(after)) {
    branch = spun(run.default_event) ? "took_effect" : "slept_anyway";
    text = spun(run.default_event)
               ? "a default event's wait slept, where it spun without the flag: the flag took effect"
               : "a default event's wait slept, but did not spin without the flag either: this "
                 "run does not show what the flag changed";
  } else if (slept(run.flag_before_context)) {
    branch = "context_kept_its_way";
    text =
        "a default event's wait did not sleep, where it did with the flag set before the context: the existing "
        "context kept its way of waiting";
  } else if (slept(stream) && spun(run.stream_sync)) {
    branch = "event_ignores_flag";
    text =
        "cudaStreamSynchronize slept, where it spun without the flag, so the flag reached the existing context; "
        "a default event's wait did not sleep under it";
  }
  return with_shares(lab::named_observation("flag_after_context." + branch,
                                            "cudaDeviceScheduleBlockingSync, set after the context", text),
                     {{"event", &after}, {"stream", &stream}});
}

lab::ResultTable wait_table(const WaitRun& run) {
  lab::ResultTable table(
      "waits", lab::format("Waiting %.1f ms for a kernel: three wait calls, two scheduling flags", run.kernel_ms),
      "how",
      {{"wait_call", "wait call", "", 0},
       {"schedule", "scheduling flag", "", 0},
       {"set_flags", "cudaSetDeviceFlags", "", 0},
       {"wall_ms", "wall", "ms", 2},
       {"cpu_ms", "CPU", "ms", 2},
       {"cpu_percent", "CPU / wall", "%", 0}});
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
        .set("event", c->event.empty() ? lab::Value() : lab::Value(c->event))
        .set("process", c->process)
        .set("device_flag", c->device_flag)
        .set("schedule", c->device_flag.rfind(prefix, 0) == 0 ? c->device_flag.substr(prefix.size()) : c->device_flag)
        .set("set_flags", c->set_flags_result.empty() ? lab::Value() : lab::Value(c->set_flags_result));
    if (c->measured) {
      row.set("wall_ms", c->cost.wall_ms).set("cpu_ms", c->cost.cpu_ms).set("cpu_percent", 100 * cpu_share(*c));
    } else {
      row.set("why_not", c->why_not);
    }
  }
  table.note(
      lab::format("the rows 'flag set ...' ran in two child processes (ch03_wait_child) that set "
                  "cudaDeviceScheduleBlockingSync, read back with cudaGetDeviceFlags; %u logical cores",
                  run.logical_cores));
  return table;
}

std::vector<lab::Finding> wait_findings(const WaitRun& run) {
  return {default_event(run), blocking_event(run.blocking_event), flag_set_before(run), flag_set_after(run)};
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

std::vector<lab::Finding> free_host_findings(const FreeHostRun& run) {
  return {lab::timing_check("host_worked", "the host worked while the kernel ran", run.polls > 0,
                            run.polls > 0 ? "cudaEventQuery answered not ready while the kernel ran, with CPU work "
                                            "between the polls"
                                          : "cudaEventQuery answered done at the first poll: the kernel had ended "
                                            "before the host looked")
              .with("polls", run.polls)};
}

// --- 5. Pitfall 1: what the events bracket ------------------------------------

lab::ResultTable bracketing_table(const BracketingRun& run) {
  lab::ResultTable table(
      "bracketing",
      lab::format("A %.1f MiB host-to-device copy (pinned) and c = a + b, %s per placement", run.copy_mib,
                  lab::count_text(run.after_copy_us.size(), "sample", "samples").c_str()),
      "where the events are", {{"median", "median", "us", 1}, {"min", "min", "us", 1}, {"max", "max", "us", 1}});
  table.add_row("start; copy; kernel; stop").samples(run.copy_and_kernel_us, "us");
  table.add_row("copy; start; kernel; stop").samples(run.after_copy_us, "us");
  table.add_row("start; copy; stop").samples(run.copy_only_us, "us");
  return table;
}

std::vector<lab::Finding> bracketing_findings(const BracketingRun& run) {
  const double both = lab::median_or_nan(run.copy_and_kernel_us);
  const double after = lab::median_or_nan(run.after_copy_us);
  return {lab::correctness_check("bracketing_result", "c = a + b correct after the bracketing loop",
                                 run.result.passed(), run.result.detail()),
          lab::timing_check("pair_contains_copy",
                            "a pair started before the copy reads more than the pair started after the copy",
                            both > after, lab::format("%.1f us against %.1f us", both, after))
              .with("copy_and_kernel_us", both)
              .with("after_copy_us", after)};
}

// --- 6. Pitfall 2: the launch gap, against CUPTI -------------------------------

namespace {

// One row of the comparison: an event figure and CUPTI's duration of the same launches.
struct Estimate {
  std::string name;
  const GapMethod* method;  // nullptr: a row computed from another (minus the empty pair)
  double events_us;         // median, or median minus the empty pair
  double cupti_us;          // NaN when CUPTI gave none
  bool warm;                // the L2 was not flushed
};

std::vector<Estimate> estimates(const LaunchGapSize& s) {
  const auto row = [&](const char* name, const GapMethod& m, bool warm, bool minus_pair) {
    return Estimate{name, minus_pair ? nullptr : &m,
                    lab::median_or_nan(m.events_us) - (minus_pair ? s.empty_pair_us : 0.0),
                    lab::median_or_nan(m.cupti_us), warm};
  };
  return {row("back to back", s.back_to_back, true, false),
          row("isolated", s.isolated, true, false),
          row("blocked stream", s.blocked, true, false),
          row("blocked stream - empty pair", s.blocked, true, true),
          row("blocked stream, L2 flushed", s.blocked_flushed, false, false),
          row("blocked stream, L2 flushed - empty pair", s.blocked_flushed, false, true)};
}

}  // namespace

static std::string why_no_cupti(const LaunchGapSize& s) {
  for (const GapMethod* m : {&s.back_to_back, &s.isolated, &s.blocked, &s.blocked_flushed}) {
    if (!m->cupti_missing.empty()) return m->cupti_missing;
  }
  return "no records";
}

static std::string size_text(const LaunchGapSize& s) { return lab::format_count(s.n) + " floats"; }

static lab::Finding launch_gap_results(const LaunchGapRun& run) {
  std::vector<std::pair<std::string, lab::Comparison>> results;  // c after each timing loop
  for (const LaunchGapSize* s : {&run.small, &run.large}) {
    for (const Estimate& e : estimates(*s)) {
      if (e.method != nullptr) results.emplace_back(size_text(*s) + ", " + e.name, e.method->result);
    }
  }
  return all_correct("launch_gap_results", "c = a + b correct after every timing loop", results);
}

// The launch gap (isolated minus blocked stream): a timing check at --n (@p judged), large beside the kernel there.
static lab::Finding launch_gap(const LaunchGapSize& s, bool judged) {
  const double isolated = lab::median_or_nan(s.isolated.events_us);
  const double blocked = lab::median_or_nan(s.blocked.events_us);
  const std::string text = lab::format("a lone launch's events held %.2f us of launch gap", isolated - blocked);
  return (judged ? lab::timing_check("gap_" + s.option,
                                     "at " + size_text(s) + " the blocked stream reads less than a lone launch",
                                     blocked < isolated && blocked > 0, text)
                 : lab::named_observation("gap_" + s.option, "the launch gap at " + size_text(s), text))
      .with("isolated_us", isolated)
      .with("blocked_us", blocked);
}

// The warm event method closest to CUPTI's kernel duration, against the page's benchmark (within 5 %).
static lab::Finding closest_to_cupti(const LaunchGapSize& s) {
  constexpr double kBenchmarkTolerance = 0.05;
  const std::string id = "closest_to_cupti_" + s.option;
  const std::string name = "the event method closest to CUPTI at " + size_text(s);
  const std::vector<Estimate> all = estimates(s);
  const auto off = [](const Estimate& e) { return lab::percent_above(e.events_us, e.cupti_us); };
  const Estimate* best = nullptr;
  for (const Estimate& e : all) {
    if (e.warm && !std::isnan(e.cupti_us) && (best == nullptr || std::fabs(off(e)) < std::fabs(off(*best)))) best = &e;
  }
  if (best == nullptr)
    return lab::named_observation(id + ".no_cupti", name, "CUPTI did not record: " + why_no_cupti(s));
  const bool met = std::fabs(off(*best)) <= 100 * kBenchmarkTolerance;
  return lab::named_observation(id + (met ? ".within_benchmark" : ".outside_benchmark"), name,
                                lab::format("%s read %s against its launches' CUPTI median: %s %.0f %%",
                                            best->name.c_str(), lab::signed_percent(off(*best), 1).c_str(),
                                            met ? "within" : "NOT within", 100 * kBenchmarkTolerance))
      .with("events_us", best->events_us)
      .with("cupti_us", best->cupti_us);
}

lab::ResultTable launch_gap_table(const LaunchGapSize& size) {
  lab::ResultTable table("launch_gap_" + size.option,
                         "c = a + b on " + size_text(size) + ", " +
                             lab::count_text(size.isolated.events_us.size(), "sample", "samples") + " per method",
                         "how the samples were queued",
                         {{"median", "events median", "us", 2},
                          {"min", "min", "us", 2},
                          {"max", "max", "us", 2},
                          {"cupti_median_us", "CUPTI kernel median", "us", 2},
                          {"vs_cupti_percent", "events vs CUPTI", "%", 1},
                          {"cupti_x_warm", "CUPTI x warm", "", 2},
                          {"result", "c = a + b", "", 0}});
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

std::vector<lab::Finding> launch_gap_findings(const LaunchGapRun& run) {
  return {launch_gap_results(run), launch_gap(run.small, true), closest_to_cupti(run.small),
          launch_gap(run.large, false), closest_to_cupti(run.large)};
}

// --- 7. Timing many streams ----------------------------------------------------

static lab::Finding many_streams_results(const ManyStreamsRun& run) {
  std::vector<std::pair<std::string, lab::Comparison>> results;
  for (std::size_t i = 0; i < run.results.size(); ++i)
    results.emplace_back(lab::format("stream %zu", i), run.results[i]);
  return all_correct("many_streams_results", "c = a + b correct on every stream", results);
}

static lab::Finding own_pairs(const ManyStreamsRun& run) {
  const double longest =
      run.per_stream_ms.empty() ? 0 : *std::max_element(run.per_stream_ms.begin(), run.per_stream_ms.end());
  const double times = longest / run.one_kernel_ms;
  return lab::named_observation(
             times > 1.5 ? "own_pairs.held_more" : "own_pairs.no_wait", "each stream's own pair",
             lab::format("the longest read %.1fx one kernel alone", times) +
                 (times > 1.5 ? ": likely its kernel waited for the GPU the other streams held (this section records "
                                "no timeline); time such work from the earliest begin to the latest end event"
                              : ": the kernels did not wait for each other here"))
      .with("longest_over_one_kernel", times);
}

static lab::Finding whole(const ManyStreamsRun& run) {
  const double sum = run.one_kernel_ms * static_cast<double>(run.per_stream_ms.size());
  const double share = run.earliest_begin_to_latest_end_ms / sum;
  std::string branch = "overlapped", text = "the kernels overlapped";
  if (share >= 0.95) {
    branch = "little_saved";
    text =
        "little time was saved, and whether the kernels overlapped this does not tell (kernels that each use "
        "most of the memory bandwidth take about their sum either way)";
  } else if (share >= 0.75) {
    branch = "part_saved", text = "part of the kernels' time overlapped, or they ran faster together than alone";
  }
  const std::string read =
      lab::format("earliest begin to latest end read %.0f %% of the kernels run one after another: ", 100 * share);
  return lab::named_observation("whole." + branch, "the whole", read + text)
      .with("whole_percent_of_sum", 100 * share)
      .with("sum_ms", sum);
}

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
  return table;
}

std::vector<lab::Finding> many_streams_findings(const ManyStreamsRun& run) {
  return {many_streams_results(run), own_pairs(run), whole(run)};
}

// --- 8. Pitfall 3: events on another stream -----------------------------------

lab::ResultTable wrong_stream_table(const WrongStreamRun& run) {
  lab::ResultTable table("wrong_stream",
                         "c = a + b on " + lab::format_count(run.n) + " floats, each launch timed four ways", "timer",
                         {{"median", "median", "us", 2},
                          {"min", "min", "us", 2},
                          {"max", "max", "us", 2},
                          {"vs_host", "vs host", "%", 1}});
  const double host = lab::median_or_nan(run.host_us);
  const auto row = [&](const char* name, const std::vector<double>& us) {
    table.add_row(name).samples(us, "us").set("vs_host", lab::percent_above(lab::median_or_nan(us), host));
  };
  row("events on the work's stream", run.own_stream_us);
  row("events on another stream", run.other_stream_us);
  row("another stream, fork and join (cudaStreamWaitEvent)", run.joined_us);
  row("host timer, to cudaStreamSynchronize(work)", run.host_us);
  table.note(
      "both streams made with cudaStreamNonBlocking; fork and join: the work's stream waits for that pair's start, "
      "and its stop waits for the work; the host timer starts before the first cudaEventRecord");
  return table;
}

// Trust the pair that agrees with a host timer of the same work: within 50 us or 25 %, whichever is larger
// (the host also times the launch call and the wait's return: section 1). The fix's pair is judged the same way.
std::vector<lab::Finding> wrong_stream_findings(const WrongStreamRun& run) {
  const double own = lab::median_or_nan(run.own_stream_us), other = lab::median_or_nan(run.other_stream_us);
  const double joined = lab::median_or_nan(run.joined_us);
  const double host = lab::median_or_nan(run.host_us), short_percent = 100 * (own - other) / own;
  const auto agrees = [host](double pair) { return std::fabs(host - pair) <= std::max(50.0, 0.25 * host); };
  const std::string branch = !agrees(own)      ? "unconfirmed"
                             : !agrees(other)  ? "own_stream"
                             : other < own / 2 ? "too_short"
                                               : "both_agree";
  const std::string text =
      branch == "own_stream"
          ? lab::format(
                "trust the pair on the work's stream (%.1f us; host %.1f us): the one on another stream read "
                "%.1f us, %.0f %% short; its stop had completed before the work in %zu of %zu samples",
                own, host, other, short_percent, run.unfinished, run.host_us.size())
      : branch == "too_short"  ? "the pairs differ within the host timer's own overhead: too short a kernel to tell"
      : branch == "both_agree" ? "both pairs agree with the host timer: the other stream's events waited for the work"
                               : "the pair on the work's stream disagrees with the host timer: trust neither";
  return {
      lab::correctness_check("wrong_stream_result", "c = a + b correct after the wrong-stream loop",
                             run.result.passed(), run.result.detail()),
      lab::timing_check("own_pair_vs_host", "the pair on the work's stream agrees with the host timer", agrees(own),
                        lab::format("%.1f us against %.1f us", own, host)),
      lab::timing_check("ordered_pair_vs_host", "the other stream's pair, fork and join, agrees with the host timer",
                        agrees(joined), lab::format("%.1f us against %.1f us", joined, host))
          .with("joined_us", joined),
      lab::named_observation("trust." + branch, "which reading to trust", text)
          .with("own_stream_us", own)
          .with("other_stream_us", other)
          .with("host_us", host)
          .with("short_percent", short_percent)
          .with("unfinished", run.unfinished)};
}

}  // namespace ch03
