#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "statistics.hpp"

namespace ch03 {

namespace {

std::string fixed(double value, int decimals) { return lab::fixed(value, decimals); }

// "+2.5 %" or "-3.8 %": a difference always shows its sign (1 decimal unless asked).
std::string signed_percent(double percent, int decimals = 1) { return lab::signed_percent(percent, decimals); }

double percent_above(double value, double reference) { return 100.0 * (value - reference) / reference; }

constexpr auto& median_of = lab::median_or_nan;  // NaN when there are no samples

lab::Finding (&observe)(const std::string&, const std::string&) = lab::named_observation;  // "name: text"

std::string count_text(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

}  // namespace

// --- 1. Events as a stopwatch --------------------------------------------------

lab::ResultTable stopwatch_table(const StopwatchRun& run) {
  lab::ResultTable table("A " + fixed(run.kernel_ms, 1) + " ms kernel, " +
                             count_text(run.event_ms.size(), "sample", "samples") + ", each timed both ways at once",
                         "timer",
                         {{"median", "median", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"vs_events_percent", "vs events", "%", 2}});
  table.add_row("events (cudaEventElapsedTime)").samples(run.event_ms, "ms");
  table.add_row("host timer, synchronised")
      .samples(run.host_ms, "ms")
      .set("vs_events_percent", percent_above(median_of(run.host_ms), median_of(run.event_ms)));
  table.note("the host timer starts before cudaEventRecord(start) and stops when cudaEventSynchronize(stop) returns");
  return table;
}

std::vector<lab::Finding> stopwatch_findings(const StopwatchRun& run) {
  const double events = median_of(run.event_ms);
  const double host = median_of(run.host_ms);
  const double apart = percent_above(host, events);
  std::vector<double> per_sample_percent, per_sample_us;
  for (std::size_t i = 0; i < run.event_ms.size() && i < run.host_ms.size(); ++i) {
    per_sample_percent.push_back(percent_above(run.host_ms[i], run.event_ms[i]));
    per_sample_us.push_back((run.host_ms[i] - run.event_ms[i]) * 1e3);
  }
  const auto [lowest, highest] = std::minmax_element(per_sample_percent.begin(), per_sample_percent.end());
  std::vector<lab::Finding> findings;
  findings.push_back(lab::timing_check(
      "events and a synchronised host timer agree within 5 % on a long kernel", std::fabs(apart) < 5.0,
      "medians " + fixed(events, 3) + " ms (events) and " + fixed(host, 3) + " ms (host) over " +
          count_text(run.event_ms.size(), "sample", "samples") + ": the host timer read " + signed_percent(apart, 2) +
          (per_sample_percent.empty()
               ? ""
               : " (per sample " + signed_percent(*lowest, 2) + " to " + signed_percent(*highest, 2) + ")")));
  const double excess_us = median_of(per_sample_us);
  if (excess_us > 0) {
    findings.push_back(
        observe("what the host timer adds",
                "per sample the host timer read a median of " + fixed(excess_us, 1) +
                    " us more than the events: the launch before the start event reaches the GPU, and the return from "
                    "cudaEventSynchronize after the stop event. The events contain neither."));
  } else {
    findings.push_back(
        observe("what the host timer adds", "the host timer did not read more than the events in this run (median " +
                                                fixed(excess_us, 1) + " us per sample)"));
  }
  return findings;
}

std::vector<Background> stopwatch_background() {
  return {
      {"cudaEventRecord captures the work queued on the stream at the time of the call; cudaEventSynchronize "
       "waits until all of that work has completed",
       "CUDA Runtime API, cudaEventRecord and cudaEventSynchronize"}};
}

// --- 2. What an event costs ----------------------------------------------------

namespace {
constexpr double kDocumentedResolutionUs = 0.5;  // cudaEventElapsedTime: "a resolution of around 0.5 microseconds"
}  // namespace

lab::ResultTable event_cost_table(const EventCostRun& run) {
  lab::ResultTable table(
      "What an event costs", "what",
      {{"median", "median", "us", 2}, {"min", "min", "us", 2}, {"max", "max", "us", 2}, {"count", "samples", "", 0}});
  table.add_row("empty event pair (GPU time)").samples(run.empty_pair_us, "us");
  table.add_row("cudaEventRecord, default event (host time)").samples(run.record_default_us, "us");
  table.add_row("cudaEventRecord, cudaEventDisableTiming (host time)").samples(run.record_disable_timing_us, "us");
  table.note("the empty pair: two events queued back to back behind a held stream, so the GPU meets them together");
  return table;
}

std::vector<lab::Finding> event_cost_findings(const EventCostRun& run) {
  std::vector<lab::Finding> findings;
  const lab::Summary pair = lab::summarize(run.empty_pair_us);
  const std::string pair_text = "two events with nothing between them read a median of " + fixed(pair.median, 2) +
                                " us (" + fixed(pair.min, 2) + " to " + fixed(pair.max, 2) + ", " +
                                count_text(pair.count, "pair", "pairs") + ")";
  if (pair.median > kDocumentedResolutionUs) {
    findings.push_back(observe(
        "the floor of an event pair",
        pair_text + ": " + fixed(pair.median / kDocumentedResolutionUs, 1) +
            "x the documented resolution of about 0.5 us (how finely a reading is graded, not a cost). Section 6 "
            "tests whether subtracting this floor brings a short kernel's events to CUPTI's duration."));
  } else {
    findings.push_back(observe(
        "the floor of an event pair",
        pair_text +
            ": within the documented resolution of about 0.5 us, so this run cannot tell a floor from the grading"));
  }
  const double timing = median_of(run.record_default_us);
  const double plain = median_of(run.record_disable_timing_us);
  if (plain < timing) {
    findings.push_back(
        observe("cudaEventDisableTiming",
                "recording an event made with cudaEventDisableTiming cost the host " + fixed(plain, 2) +
                    " us against " + fixed(timing, 2) + " us for a timing event (" + fixed(timing / plain, 1) +
                    "x less): use it where only the order matters (cudaStreamWaitEvent, cudaEventQuery)"));
  } else {
    findings.push_back(observe("cudaEventDisableTiming",
                               "recording an event made with cudaEventDisableTiming was not cheaper here: " +
                                   fixed(plain, 2) + " us against " + fixed(timing, 2) + " us for a timing event"));
  }
  return findings;
}

std::vector<Background> event_cost_background() {
  return {{"cudaEventElapsedTime gives the time between two events in milliseconds, with a resolution of around "
           "0.5 microseconds",
           "CUDA Runtime API, cudaEventElapsedTime"},
          {"an event made with cudaEventDisableTiming records no timing data (cudaEventElapsedTime refuses it); "
           "without cudaEventBlockingSync it gives the best performance with cudaStreamWaitEvent and cudaEventQuery",
           "CUDA Runtime API, cudaEventCreateWithFlags"}};
}

double empty_pair_median_us(const EventCostRun& run) { return median_of(run.empty_pair_us); }

// --- 3. Waiting: spin or sleep -------------------------------------------------

namespace {

constexpr char kScheduleAuto[] = "cudaDeviceScheduleAuto";
constexpr char kChildPrefix[] = "ch03_wait_child";

double cpu_share(const WaitCase& c) { return c.cost.wall_ms > 0 ? c.cost.cpu_ms / c.cost.wall_ms : 0.0; }
bool spun(const WaitCase& c) { return cpu_share(c) >= kSpinShare; }
bool slept(const WaitCase& c) { return cpu_share(c) < kSleepShare; }

std::string cost_text(const WaitCase& c) {
  return fixed(c.cost.cpu_ms, 2) + " ms of CPU time in " + fixed(c.cost.wall_ms, 2) + " ms of waiting (" +
         fixed(100 * cpu_share(c), 0) + " %)";
}

// "0.06 ms CPU in 20.01 ms": the short form, for sentences that name several waits.
std::string brief_cost(const WaitCase& c) {
  return fixed(c.cost.cpu_ms, 2) + " ms CPU in " + fixed(c.cost.wall_ms, 2) + " ms";
}

// What a wait is called in a sentence: "cudaEventSynchronize on a default event", "cudaStreamSynchronize".
std::string wait_label(const WaitCase& c) {
  const std::string name = wait_call_name(c.call);
  return c.event.empty() ? name : name + " on a" + (c.event == "default" ? " default" : "n " + c.event) + " event";
}

// "a", "a and b", "a, b and c".
std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) text += i + 1 == parts.size() ? " and " : ", ";
    text += parts[i];
  }
  return text;
}

// "cudaDeviceScheduleBlockingSync" -> "BlockingSync": the table's short form.
std::string short_flag(const std::string& flag) {
  const std::string prefix = "cudaDeviceSchedule";
  return flag.rfind(prefix, 0) == 0 ? flag.substr(prefix.size()) : flag;
}

void add_wait_row(lab::ResultTable& table, const std::string& name, const WaitCase& c) {
  lab::ResultTable::Row& row = table.add_row(name);
  row.set("wait_call", wait_call_name(c.call))
      .set("event", c.event.empty() ? lab::Value() : lab::Value(c.event))
      .set("device_flag", c.device_flag)
      .set("schedule", short_flag(c.device_flag))
      .set("process", c.process)
      .set("set_flags", c.set_flags_result.empty() ? lab::Value() : lab::Value(c.set_flags_result));
  if (c.measured) {
    row.set("wall_ms", c.cost.wall_ms).set("cpu_ms", c.cost.cpu_ms).set("cpu_percent", 100 * cpu_share(c));
  } else {
    row.set("why_not", c.why_not);
  }
}

}  // namespace

lab::ResultTable wait_table(const WaitRun& run) {
  lab::ResultTable table(
      "Waiting " + fixed(run.kernel_ms, 1) + " ms for a kernel: three wait calls, two scheduling flags", "how",
      {{"wait_call", "wait call", "", 0},
       {"schedule", "scheduling flag", "", 0},
       {"set_flags", "cudaSetDeviceFlags", "", 0},
       {"wall_ms", "wall", "ms", 2},
       {"cpu_ms", "CPU", "ms", 2},
       {"cpu_percent", "CPU / wall", "%", 0}});
  add_wait_row(table, "default event", run.default_event);
  add_wait_row(table, "cudaEventBlockingSync event", run.blocking_event);
  add_wait_row(table, "the stream", run.stream_sync);
  add_wait_row(table, "the device", run.device_sync);
  add_wait_row(table, "default event, flag set before the context", run.flag_before_context);
  add_wait_row(table, "the stream, flag set before the context", run.flag_before_stream_sync);
  add_wait_row(table, "the device, flag set before the context", run.flag_before_device_sync);
  add_wait_row(table, "default event, flag set after the context", run.flag_after_context);
  add_wait_row(table, "the stream, flag set after the context", run.flag_after_stream_sync);
  table.note(
      "scheduling flag: cudaDeviceSchedule..., read back with cudaGetDeviceFlags; the rows 'flag set ...' ran in "
      "child processes (ch03_wait_child), which set cudaDeviceScheduleBlockingSync (the three 'before' rows in one "
      "child, one after the other; the two 'after' rows in another); " +
      std::to_string(run.logical_cores) + " logical cores");
  return table;
}

namespace {

// Did cudaDeviceScheduleBlockingSync make @p call sleep? @p without: the same
// call under this process's flags; @p with: in the child that set the flag
// before its context.
lab::Finding device_flag_effect(const WaitCase& without, const WaitCase& with, const std::string& when = "") {
  const std::string name = "cudaDeviceScheduleBlockingSync" + (when.empty() ? std::string() : ", " + when + ",") +
                           " and " + wait_call_name(with.call);
  if (!with.measured) return observe(name, "not measured: " + with.why_not);
  const std::string with_text = cost_text(with) + " with the flag (read back: " + with.device_flag + ")";
  const std::string without_text = without.measured
                                       ? cost_text(without) + " under " + without.device_flag + " in this process"
                                       : "the same call without the flag was not measured (" + without.why_not + ")";
  if (slept(with)) {
    if (without.measured && spun(without)) {
      return observe(name, "the flag made the waiting thread sleep: " + with_text + ", against " + without_text);
    }
    return observe(name, "the waiting thread slept with the flag, " + with_text + ", but " +
                             (without.measured ? "it did not spin without it either: " : "") + without_text +
                             ". This run does not show what the flag changed.");
  }
  if (spun(with)) {
    return observe(name, "the waiting thread still spun: " + with_text + ", against " + without_text +
                             ". In this run the flag did not make " + wait_call_name(with.call) + " sleep.");
  }
  return observe(name, "the waiting thread neither slept nor spun throughout: " + with_text + ", against " +
                           without_text + " (asleep below " + fixed(100 * kSleepShare, 0) + " %, spinning from " +
                           fixed(100 * kSpinShare, 0) + " %)");
}

// Which wait calls cudaDeviceScheduleBlockingSync made sleep in the child, and
// what that says about who decides how each call waits.
lab::Finding where_each_flag_applies(const WaitRun& run) {
  const std::string name = "where each flag applies";
  std::vector<std::string> asleep, awake, missing;
  for (const WaitCase* c : {&run.flag_before_stream_sync, &run.flag_before_device_sync, &run.flag_before_context}) {
    const std::string label = wait_label(*c);
    if (!c->measured) {
      missing.push_back(label);
    } else {
      (slept(*c) ? asleep : awake).push_back(label + " (" + brief_cost(*c) + ")");
    }
  }
  if (asleep.empty() && awake.empty()) return observe(name, "not measured: " + run.flag_before_context.why_not);
  std::string text = "cudaDeviceScheduleBlockingSync, set before the context, ";
  if (awake.empty()) {
    text += "made " + joined(asleep) + " sleep";
  } else if (asleep.empty()) {
    text += "made none of " + joined(awake) + " sleep";
  } else {
    text += "made " + joined(asleep) + " sleep, but not " + joined(awake);
  }
  if (!missing.empty()) text += " (" + joined(missing) + ": not measured)";

  const WaitCase& event = run.flag_before_context;
  const WaitCase& blocking = run.blocking_event;
  std::vector<std::string>
      calls_asleep;  // cudaStreamSynchronize / cudaDeviceSynchronize, where the flag put them to sleep
  for (const WaitCase* c : {&run.flag_before_stream_sync, &run.flag_before_device_sync}) {
    if (c->measured && slept(*c)) calls_asleep.push_back(wait_call_name(c->call));
  }
  if (event.measured && !slept(event) && !calls_asleep.empty()) {
    if (blocking.measured && slept(blocking)) {
      text += ". A cudaEventBlockingSync event slept in cudaEventSynchronize without the device flag (" +
              brief_cost(blocking) +
              "): on this driver the event's own flag decides how cudaEventSynchronize waits, as its page says, and "
              "the device flag decides how " +
              joined(calls_asleep) + (calls_asleep.size() == 1 ? " waits" : " wait");
    } else {
      text += ". The cudaEventBlockingSync event " +
              (blocking.measured ? "did not sleep either (" + brief_cost(blocking) + ")" : "was not measured") +
              ": this run does not show what makes cudaEventSynchronize sleep";
    }
  } else if (event.measured && slept(event) && awake.empty()) {
    text +=
        ": on this driver the device flag reaches cudaEventSynchronize on a default event too, which its page "
        "does not say (it says such a wait busy-waits)";
  }
  return observe(name, text);
}

}  // namespace

std::vector<lab::Finding> wait_findings(const WaitRun& run) {
  std::vector<lab::Finding> findings;
  const WaitCase& plain = run.default_event;
  if (!plain.measured) {
    findings.push_back(observe("a default event", "not measured: " + plain.why_not));
  } else if (spun(plain)) {
    const std::string rule =
        plain.device_flag == kScheduleAuto
            ? ", as cudaDeviceScheduleAuto does while the active CUDA contexts in the process are no more than the "
              "logical cores (this process made one context; " +
                  std::to_string(run.logical_cores) + " logical cores)"
            : "";
    findings.push_back(observe("a default event",
                               "under " + plain.device_flag + " the waiting thread spun: " + cost_text(plain) + rule));
  } else {
    findings.push_back(observe("a default event",
                               "under " + plain.device_flag + " the waiting thread did not spin: " + cost_text(plain)));
  }

  const WaitCase& blocking = run.blocking_event;
  findings.push_back(lab::timing_check("a cudaEventBlockingSync event lets the waiting thread sleep",
                                       blocking.measured && !spun(blocking),
                                       blocking.measured ? cost_text(blocking) : "not measured: " + blocking.why_not));

  const WaitCase& before = run.flag_before_context;
  if (!before.measured) {
    findings.push_back(
        observe("cudaDeviceScheduleBlockingSync, set before the context", "not measured: " + before.why_not));
  } else if (!spun(before)) {
    findings.push_back(observe(
        "cudaDeviceScheduleBlockingSync, set before the context",
        "a default event's wait slept: " + cost_text(before) + " (flag read back: " + before.device_flag + ")." +
            (plain.measured && spun(plain)
                 ? " The same event spun in the first row: the spinning came from the device's scheduling "
                   "flag, not from the event."
                 : std::string())));
  } else {
    findings.push_back(observe(
        "cudaDeviceScheduleBlockingSync, set before the context",
        "a default event's wait still spun: " + cost_text(before) + " (flag read back: " + before.device_flag +
            "). In this run the device flag did not change how cudaEventSynchronize waits on a default event."));
  }

  const WaitCase& after = run.flag_after_context;
  const std::string after_name = "cudaDeviceScheduleBlockingSync, set after the context";
  if (!after.measured) {
    findings.push_back(observe(after_name, "not measured: " + after.why_not));
  } else if (after.set_flags_result != "cudaSuccess") {
    findings.push_back(observe(after_name, "cudaSetDeviceFlags on a device whose context already existed returned " +
                                               after.set_flags_result + "; the wait, under " + after.device_flag +
                                               ": " + cost_text(after)));
  } else if (!spun(after)) {
    findings.push_back(
        observe(after_name,
                "cudaSetDeviceFlags returned cudaSuccess on a device whose context already existed, and the wait "
                "then slept: " +
                    cost_text(after) + " (flag read back: " + after.device_flag + ")." +
                    (plain.measured && spun(plain) ? " The new flag took effect."
                                                   : " The default event did not spin without the flag either.")));
  } else {
    const std::string spun_text = "cudaSetDeviceFlags returned cudaSuccess and the flag reads back as " +
                                  after.device_flag + ", yet the waiting thread spun: " + cost_text(after);
    if (before.measured && !spun(before)) {
      findings.push_back(observe(after_name, spun_text + ", where it did not with the flag set before the context: the "
                                                         "existing context kept its way of waiting."));
    } else if (before.measured) {
      const WaitCase& stream_after = run.flag_after_stream_sync;
      const std::string reached =
          stream_after.measured && slept(stream_after)
              ? "; the flag did reach the existing context: cudaStreamSynchronize in the same process slept (" +
                    brief_cost(stream_after) + "), so it is the default event's wait that spins either way"
              : ": this run cannot tell whether the new flag reached the existing context";
      findings.push_back(observe(after_name, spun_text + ", as it did with the flag set before the context (" +
                                                 brief_cost(before) + ")" + reached + "."));
    } else {
      findings.push_back(observe(after_name, spun_text + "."));
    }
  }

  findings.push_back(device_flag_effect(run.stream_sync, run.flag_before_stream_sync));
  findings.push_back(device_flag_effect(run.device_sync, run.flag_before_device_sync));
  findings.push_back(device_flag_effect(run.stream_sync, run.flag_after_stream_sync, "set after the context"));
  findings.push_back(where_each_flag_applies(run));

  if (plain.measured && blocking.measured) {
    const double later_ms = blocking.cost.wall_ms - plain.cost.wall_ms;
    findings.push_back(observe("the price of sleeping",
                               later_ms > 0 ? "in this one sample each, the sleeping thread returned " +
                                                  fixed(later_ms * 1e3, 0) +
                                                  " us later than the spinning one: waking it up is not free"
                                            : "the sleeping thread did not return later than the spinning one here (" +
                                                  fixed(later_ms * 1e3, 0) + " us)"));
  }
  return findings;
}

std::vector<Background> wait_background() {
  return {
      {"cudaEventSynchronize: \"Waiting for an event that was created with the cudaEventBlockingSync flag will cause "
       "the calling CPU thread to block until the event has been completed by the device. If the "
       "cudaEventBlockingSync flag has not been set, then the CPU thread will busy-wait until the event has been "
       "completed by the device.\" The driver API's cuEventSynchronize says the same of CU_EVENT_BLOCKING_SYNC; "
       "neither page mentions the device's scheduling flag",
       "CUDA Runtime API, cudaEventSynchronize; CUDA Driver API, cuEventSynchronize; CUDA 13.0"},
      {"cudaStreamSynchronize: \"If the cudaDeviceScheduleBlockingSync flag was set for this device, the host "
       "thread will block until the stream is finished with all of its tasks.\" cudaDeviceSynchronize: \"If the "
       "cudaDeviceScheduleBlockingSync flag was set for this device, the host thread will block until the device "
       "has finished its work.\" The driver API says the same of a context created with "
       "CU_CTX_SCHED_BLOCKING_SYNC (cuStreamSynchronize, cuCtxSynchronize)",
       "CUDA Runtime API, cudaStreamSynchronize and cudaDeviceSynchronize; CUDA Driver API, cuStreamSynchronize "
       "and cuCtxSynchronize; CUDA 13.0"},
      {"cudaSetDeviceFlags: its scheduling flags \"control how the CPU thread interacts with the OS scheduler when "
       "waiting for results from the device\". cudaDeviceScheduleAuto, the default, uses a heuristic on the active "
       "CUDA contexts in the process C and the logical processors P: if C > P the waiting thread yields to other "
       "OS threads, otherwise it actively spins; cudaDeviceScheduleBlockingSync blocks it on a synchronization "
       "primitive \"when waiting for the device to finish work\"",
       "CUDA Runtime API, cudaSetDeviceFlags; CUDA 13.0"},
      {"cudaSetDeviceFlags on a device already initialised overwrites its previous flags (CUDA 12 and 13 wording; "
       "earlier references said the call failed with cudaErrorSetOnActiveProcess); on a device not yet "
       "initialised it initialises it with the flags",
       "CUDA Runtime API, cudaSetDeviceFlags"}};
}

std::string wait_call_name(WaitCall call) {
  switch (call) {
    case WaitCall::event_synchronize: return "cudaEventSynchronize";
    case WaitCall::stream_synchronize: return "cudaStreamSynchronize";
    case WaitCall::device_synchronize: return "cudaDeviceSynchronize";
  }
  return "unknown wait call";
}

bool wait_call_from_name(const std::string& name, WaitCall& into) {
  for (WaitCall call : {WaitCall::event_synchronize, WaitCall::stream_synchronize, WaitCall::device_synchronize}) {
    if (name == wait_call_name(call)) {
      into = call;
      return true;
    }
  }
  return false;
}

std::string wait_case_line(const WaitCase& measured) {
  std::ostringstream line;
  line.precision(6);
  line << std::fixed << kChildPrefix << " wait=" << wait_call_name(measured.call)
       << " set_flags=" << measured.set_flags_result << " flag=" << measured.device_flag
       << " wall_ms=" << measured.cost.wall_ms << " cpu_ms=" << measured.cost.cpu_ms;
  return line.str();
}

bool read_wait_case_line(const std::string& text, WaitCall call, WaitCase& into) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || word != kChildPrefix) continue;
    std::string wait, set_flags, flag;
    double wall = -1, cpu = -1;
    while (words >> word) {
      const auto equals = word.find('=');
      if (equals == std::string::npos) continue;
      const std::string key = word.substr(0, equals), value = word.substr(equals + 1);
      try {
        if (key == "wait") wait = value;
        if (key == "set_flags") set_flags = value;
        if (key == "flag") flag = value;
        if (key == "wall_ms") wall = std::stod(value);
        if (key == "cpu_ms") cpu = std::stod(value);
      } catch (const std::exception&) {
        return false;
      }
    }
    WaitCall said = WaitCall::event_synchronize;
    if (!wait_call_from_name(wait, said)) return false;  // a child line must say which call it measured
    if (said != call) continue;                          // another call's line
    if (set_flags.empty() || flag.empty() || wall < 0 || cpu < 0) return false;
    into.call = call;
    into.set_flags_result = set_flags;
    into.device_flag = flag;
    into.cost = WaitCost{wall, cpu};
    into.measured = true;
    into.why_not.clear();
    return true;
  }
  return false;
}

// --- 4. The host stays free ----------------------------------------------------

lab::ResultTable free_host_table(const FreeHostRun& run) {
  lab::ResultTable table("Polling cudaEventQuery while a kernel runs", "what",
                         {{"kernel_ms", "kernel (events)", "ms", 3},
                          {"host_ms", "host until done", "ms", 3},
                          {"polls", "polls", "", 0},
                          {"work_iterations", "CPU work", "iterations", 0}});
  table.add_row("poll, then a slice of CPU work")
      .set("kernel_ms", run.kernel_ms)
      .set("host_ms", run.host_ms)
      .set("polls", static_cast<long long>(run.polls))
      .set("work_iterations", static_cast<long long>(run.work_iterations));
  return table;
}

std::vector<lab::Finding> free_host_findings(const FreeHostRun& run) {
  const bool free = run.polls > 0;
  return {lab::timing_check(
      "the host worked while the kernel ran", free,
      free ? std::to_string(run.polls) + " polls of cudaEventQuery answered not ready, and the host did " +
                 std::to_string(run.work_iterations) + " iterations of CPU work between them, while a " +
                 fixed(run.kernel_ms, 3) + " ms kernel ran"
           : "cudaEventQuery answered done at the first poll: the " + fixed(run.kernel_ms, 3) +
                 " ms kernel had ended before the host looked")};
}

std::vector<Background> free_host_background() {
  return {
      {"cudaEventQuery returns cudaSuccess if all the work the event captured has completed, and "
       "cudaErrorNotReady if any of it is incomplete",
       "CUDA Runtime API, cudaEventQuery"}};
}

// --- 5. Pitfall 1: what the events bracket ------------------------------------

lab::ResultTable bracketing_table(const BracketingRun& run) {
  lab::ResultTable table("A " + fixed(run.copy_mib, 1) + " MiB host-to-device copy (pinned) and c = a + b, " +
                             count_text(run.kernel_only_us.size(), "sample", "samples") + " per placement",
                         "where the events are",
                         {{"median", "median", "us", 1}, {"min", "min", "us", 1}, {"max", "max", "us", 1}});
  table.add_row("start; copy; kernel; stop").samples(run.copy_and_kernel_us, "us");
  table.add_row("copy; start; kernel; stop").samples(run.kernel_only_us, "us");
  table.add_row("start; copy; stop").samples(run.copy_only_us, "us");
  return table;
}

std::vector<lab::Finding> bracketing_findings(const BracketingRun& run) {
  const double both = median_of(run.copy_and_kernel_us);
  const double kernel = median_of(run.kernel_only_us);
  const double copy = median_of(run.copy_only_us);
  std::vector<lab::Finding> findings;
  findings.push_back(
      lab::correctness_check("c = a + b correct after the bracketing loop", run.result.passed(), run.result.detail()));
  findings.push_back(lab::timing_check("a pair started before the copy reads more than the kernel", both > kernel,
                                       fixed(both, 1) + " us against " + fixed(kernel, 1) + " us"));
  findings.push_back(
      observe("what the pair contained", "start; copy; kernel; stop read " + fixed(both, 1) + " us; the kernel alone " +
                                             fixed(kernel, 1) + " us and the copy alone " + fixed(copy, 1) +
                                             " us add up to " + fixed(kernel + copy, 1) +
                                             " us: " + fixed(100 * copy / both, 0) + " % of that pair was the copy"));
  return findings;
}

// --- 6. Pitfall 2: the launch gap, against CUPTI -------------------------------

namespace {

// One row of the comparison: an event figure and CUPTI's duration of the same launches.
struct Estimate {
  std::string name;
  double events_us;  // median, or median minus the empty pair
  double cupti_us;   // NaN when CUPTI gave none
  bool warm;         // the L2 was not flushed
};

std::vector<Estimate> estimates(const LaunchGapSize& s) {
  const double blocked = median_of(s.blocked.events_us);
  const double blocked_cupti = median_of(s.blocked.cupti_us);
  const double flushed = median_of(s.blocked_flushed.events_us);
  const double flushed_cupti = median_of(s.blocked_flushed.cupti_us);
  return {{"back to back", median_of(s.back_to_back.events_us), median_of(s.back_to_back.cupti_us), true},
          {"isolated", median_of(s.isolated.events_us), median_of(s.isolated.cupti_us), true},
          {"blocked stream", blocked, blocked_cupti, true},
          {"blocked stream - empty pair", blocked - s.empty_pair_us, blocked_cupti, true},
          {"blocked stream, L2 flushed", flushed, flushed_cupti, false},
          {"blocked stream, L2 flushed - empty pair", flushed - s.empty_pair_us, flushed_cupti, false}};
}

const GapMethod* method_of(const LaunchGapSize& s, const std::string& name) {
  if (name == "back to back") return &s.back_to_back;
  if (name == "isolated") return &s.isolated;
  if (name == "blocked stream") return &s.blocked;
  if (name == "blocked stream, L2 flushed") return &s.blocked_flushed;
  return nullptr;  // a row computed from another
}

std::string floats_text(std::int64_t n) {
  // 1048576 -> "1Mi", 33554432 -> "32Mi", 100003 -> "100003"
  const char* suffixes[] = {"", "Ki", "Mi", "Gi"};
  int i = 0;
  while (i < 3 && n >= 1024 && n % 1024 == 0) {
    n /= 1024;
    ++i;
  }
  return std::to_string(n) + suffixes[i];
}

// The warm event figure nearest CUPTI's, if any has a CUPTI figure.
const Estimate* closest_warm(const std::vector<Estimate>& all) {
  const Estimate* best = nullptr;
  for (const Estimate& e : all) {
    if (!e.warm || std::isnan(e.cupti_us)) continue;
    if (best == nullptr ||
        std::fabs(percent_above(e.events_us, e.cupti_us)) < std::fabs(percent_above(best->events_us, best->cupti_us)))
      best = &e;
  }
  return best;
}

std::string cupti_missing(const LaunchGapSize& s) {
  for (const GapMethod* m : {&s.back_to_back, &s.isolated, &s.blocked, &s.blocked_flushed}) {
    if (!m->cupti_missing.empty()) return m->cupti_missing;
  }
  return "no records";
}

}  // namespace

lab::ResultTable launch_gap_table(const LaunchGapSize& size) {
  lab::ResultTable table("c = a + b on " + floats_text(size.n) + " floats, " +
                             count_text(size.isolated.events_us.size(), "sample", "samples") + " per method",
                         "how the samples were queued",
                         {{"median", "events median", "us", 2},
                          {"min", "min", "us", 2},
                          {"max", "max", "us", 2},
                          {"cupti_median_us", "CUPTI kernel median", "us", 2},
                          {"vs_cupti_percent", "events vs CUPTI", "%", 1},
                          {"result", "c = a + b", "", 0}});
  for (const Estimate& e : estimates(size)) {
    lab::ResultTable::Row& row = table.add_row(e.name);
    row.set("n", static_cast<long long>(size.n));
    if (const GapMethod* m = method_of(size, e.name)) {
      row.samples(m->events_us, "us");
      if (!m->cupti_us.empty()) row.set("cupti_samples_us", m->cupti_us);
      row.set("result", m->result.passed() ? "correct" : "WRONG");
    } else {
      row.set("median", e.events_us).set("empty_pair_us", size.empty_pair_us);
    }
    if (!std::isnan(e.cupti_us)) {
      row.set("cupti_median_us", e.cupti_us).set("vs_cupti_percent", percent_above(e.events_us, e.cupti_us));
    }
  }
  bool all_recorded = true;
  for (const GapMethod* m : {&size.back_to_back, &size.isolated, &size.blocked, &size.blocked_flushed})
    all_recorded = all_recorded && m->cupti_missing.empty();
  table.note("\"- empty pair\": minus the median of two events back to back (" + fixed(size.empty_pair_us, 2) +
             " us, section 2); L2 flushed: " + fixed(static_cast<double>(size.l2_flush_bytes) / (1 << 20), 0) +
             " MiB written before each sample; CUPTI: the kernels of the same launches" +
             (all_recorded ? "" : "; \"-\": " + cupti_missing(size)));
  return table;
}

std::vector<lab::Finding> launch_gap_findings(const LaunchGapRun& run) {
  std::vector<lab::Finding> findings;

  std::string wrong;
  int loops = 0;
  for (const LaunchGapSize& s : run.sizes) {
    for (const auto& [name, m] : {std::pair<const char*, const GapMethod*>{"back to back", &s.back_to_back},
                                  {"isolated", &s.isolated},
                                  {"blocked stream", &s.blocked},
                                  {"blocked stream, L2 flushed", &s.blocked_flushed}}) {
      ++loops;
      if (!m->result.passed() && wrong.empty())
        wrong = floats_text(s.n) + " floats, " + name + ": " + m->result.detail();
    }
  }
  findings.push_back(lab::correctness_check(
      "c = a + b correct after every timing loop", wrong.empty(),
      wrong.empty() ? std::to_string(loops) + " loops, c poisoned before each, exact comparison with the CPU" : wrong));

  for (std::size_t i = 0; i < run.sizes.size(); ++i) {
    const LaunchGapSize& s = run.sizes[i];
    const std::string size = floats_text(s.n) + " floats";
    const double isolated = median_of(s.isolated.events_us);
    const double blocked = median_of(s.blocked.events_us);
    const std::string gap = "isolated " + fixed(isolated, 2) + " us, blocked stream " + fixed(blocked, 2) +
                            " us: the launch gap inside a lone launch's events is " + fixed(isolated - blocked, 2) +
                            " us (" + signed_percent(percent_above(isolated, blocked), 0) + ")";
    if (i == 0) {
      findings.push_back(lab::timing_check("at " + size + " the blocked stream reads less than a lone launch",
                                           blocked < isolated && blocked > 0, gap));
    } else {
      findings.push_back(observe("the launch gap at " + size, gap));
    }

    const std::vector<Estimate> all = estimates(s);
    const Estimate* best = closest_warm(all);
    if (best == nullptr) {
      findings.push_back(
          observe("events against CUPTI at " + size, "CUPTI did not record (" + cupti_missing(s) + "): no comparison"));
    } else {
      std::string each;
      for (const Estimate& e : all) {
        if (!e.warm || std::isnan(e.cupti_us)) continue;
        each += (each.empty() ? "" : ", ") + e.name + " " + signed_percent(percent_above(e.events_us, e.cupti_us));
      }
      findings.push_back(observe("events against CUPTI at " + size,
                                 "each method against CUPTI's kernel duration, median of that method's own launches (" +
                                     each + "). Closest: " + best->name + ", " + fixed(best->events_us, 2) +
                                     " us against CUPTI's " + fixed(best->cupti_us, 2) + " us (" +
                                     signed_percent(percent_above(best->events_us, best->cupti_us)) + ")."));
    }

    const Estimate& cold = all[4];
    const Estimate& warm = all[2];
    if (!std::isnan(cold.cupti_us) && !std::isnan(warm.cupti_us)) {
      findings.push_back(observe("the flushed L2 at " + size,
                                 "after the flush the kernel itself took " + fixed(cold.cupti_us, 2) +
                                     " us by CUPTI, " + fixed(cold.cupti_us / warm.cupti_us, 2) + "x its warm " +
                                     fixed(warm.cupti_us, 2) + " us; the events read " + fixed(cold.events_us, 2) +
                                     " us (" + signed_percent(percent_above(cold.events_us, cold.cupti_us)) + ")"));
    } else {
      findings.push_back(
          observe("the flushed L2 at " + size, "the events read " + fixed(cold.events_us, 2) + " us after the flush, " +
                                                   fixed(cold.events_us / warm.events_us, 2) + "x the warm " +
                                                   fixed(warm.events_us, 2) + " us (no CUPTI figure)"));
    }
  }

  if (!run.sizes.empty()) {
    const LaunchGapSize& first = run.sizes.front();
    const std::string name =
        "benchmark: the best event method within 5 % of CUPTI at " + floats_text(first.n) + " floats";
    const std::vector<Estimate> all = estimates(first);
    const Estimate* best = closest_warm(all);
    if (best == nullptr) {
      findings.push_back(observe(name, "not measured: CUPTI did not record (" + cupti_missing(first) + ")"));
    } else {
      const double off = percent_above(best->events_us, best->cupti_us);
      findings.push_back(observe(name, std::string(std::fabs(off) <= 100 * kBenchmarkTolerance ? "met" : "NOT met") +
                                           ": " + best->name + " read " + fixed(best->events_us, 2) +
                                           " us against CUPTI's " + fixed(best->cupti_us, 2) + " us (" +
                                           signed_percent(off) + ")"));
    }
  }
  return findings;
}

std::vector<Background> launch_gap_background() {
  return {{"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL records each kernel's start and end timestamps, in ns, without "
           "breaking kernel concurrency (CUPTI_ACTIVITY_KIND_KERNEL would serialise kernels)",
           "CUPTI, cupti_activity.h, CUpti_ActivityKind"},
          {"nvbench's cold measurement, before every sample: one cudaMemsetAsync over a buffer the size of the L2 "
           "(1x, cudaDevAttrL2CacheSize), a stream synchronisation, then its blocking kernel holds the stream while "
           "the timer events and the kernel are queued",
           "NVIDIA nvbench, nvbench/detail/l2flush.cuh and measure_cold.cuh"},
          {"triton's do_bench zeroes a 256 MiB buffer before every timed call, queued ahead of the start event "
           "(int(256e6) bytes in older releases, 256 * 1024 * 1024 in current ones)",
           "triton, python/triton/testing.py do_bench and the backends' get_empty_cache_for_benchmark"},
          {"this chapter's flush is lab::L2Flusher's write method: it resets persisting L2 lines, then writes a "
           "buffer of twice the L2 with cudaMemsetAsync; as in nvbench it is synchronised before the stream is held. "
           "Chapter 07 measures it against a read flush",
           "this repository, common/l2_flush.cuh"}};
}

// --- 7. Timing many streams ----------------------------------------------------

lab::ResultTable many_streams_table(const ManyStreamsRun& run) {
  lab::ResultTable table(count_text(run.per_stream_ms.size(), "stream", "streams") +
                             ", each c = a + b on its own arrays, with its own begin and end event",
                         "what", {{"ms", "time", "ms", 3}, {"x_one_kernel", "x one kernel alone", "", 2}});
  const double one = run.one_kernel_ms;
  for (std::size_t i = 0; i < run.per_stream_ms.size(); ++i) {
    table.add_row("stream " + std::to_string(i) + ": its own pair")
        .set("ms", run.per_stream_ms[i])
        .set("x_one_kernel", run.per_stream_ms[i] / one);
  }
  table.add_row("whole: first begin to latest end")
      .set("ms", run.first_begin_to_last_end_ms)
      .set("x_one_kernel", run.first_begin_to_last_end_ms / one);
  table.add_row("whole: host timer, synchronised").set("ms", run.host_ms).set("x_one_kernel", run.host_ms / one);
  table.add_row("one kernel alone (median, back to back)").set("ms", one).set("x_one_kernel", 1.0);
  return table;
}

std::vector<lab::Finding> many_streams_findings(const ManyStreamsRun& run) {
  std::vector<lab::Finding> findings;
  std::string wrong;
  for (std::size_t i = 0; i < run.results.size() && wrong.empty(); ++i) {
    if (!run.results[i].passed()) wrong = "stream " + std::to_string(i) + ": " + run.results[i].detail();
  }
  findings.push_back(lab::correctness_check(
      "c = a + b correct on every stream", wrong.empty() && !run.results.empty(),
      wrong.empty() ? count_text(run.results.size(), "stream", "streams") + ", exact comparison with the CPU" : wrong));

  const double one = run.one_kernel_ms;
  const double longest =
      run.per_stream_ms.empty() ? 0 : *std::max_element(run.per_stream_ms.begin(), run.per_stream_ms.end());
  if (longest > 1.5 * one) {
    findings.push_back(observe(
        "each stream's own pair",
        "the longest pair read " + fixed(longest / one, 1) +
            "x one kernel's time: the pair held more than its own kernel (likely its begin event was timestamped "
            "when the GPU reached it, then its kernel waited for the GPU the other streams held; this section "
            "records no timeline). Time work on several streams from the first begin event to the latest end "
            "event, not as a sum of pairs."));
  } else {
    findings.push_back(
        observe("each stream's own pair", "the longest pair read " + fixed(longest / one, 1) +
                                              "x one kernel's time: the kernels did not wait for each other here"));
  }

  const double sum = one * static_cast<double>(run.per_stream_ms.size());
  const double share = run.first_begin_to_last_end_ms / sum;
  const std::string whole = "first begin to latest end read " + fixed(run.first_begin_to_last_end_ms, 3) + " ms, " +
                            fixed(100 * share, 0) + " % of " + std::to_string(run.per_stream_ms.size()) +
                            " kernels one after another (" + fixed(sum, 3) + " ms)";
  if (share >= 0.95) {
    findings.push_back(observe(
        "the whole", whole + ": little time was saved (" + fixed(sum - run.first_begin_to_last_end_ms, 3) +
                         " ms). Whether the kernels overlapped this does not tell: kernels that each already use "
                         "most of the GPU's memory bandwidth (chapter 01 measures this add near a copy's rate) take "
                         "about their sum, overlapped or not"));
  } else if (share >= 0.75) {
    findings.push_back(observe("the whole", whole + ": " + fixed(100 * (1 - share), 0) +
                                                " % of the sum was saved: part of the kernels' time overlapped, or "
                                                "they ran faster together than alone"));
  } else {
    findings.push_back(observe("the whole", whole + ": the kernels overlapped"));
  }
  return findings;
}

std::vector<Background> many_streams_background() {
  return {
      {"if either event was last recorded in a non-NULL stream, cudaEventElapsedTime may read more than expected, "
       "even if both used the same stream: any number of other operations can run between the two events",
       "CUDA Runtime API, cudaEventElapsedTime"}};
}

}  // namespace ch03
