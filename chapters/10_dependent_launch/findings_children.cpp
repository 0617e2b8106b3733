#include "findings_children.hpp"

#include <cmath>
#include <cstddef>
#include <map>

#include "command_line.hpp"
#include "findings_shared.hpp"
#include "vocabulary.hpp"

namespace ch10 {

namespace {

constexpr char kSuccess[] = "cudaSuccess";

const char* documented_text(Documented d) {
  return d == Documented::prohibited ? "prohibited" : d == Documented::allowed ? "allowed" : "not stated";
}

// The documented verdict held (refused when prohibited, succeeded when allowed); false when not stated.
bool as_documented(const CaptureProbe& p) {
  const Documented d = documented(p.mode, p.call);
  return p.measured && ((d == Documented::prohibited && p.returned != kSuccess) ||
                        (d == Documented::allowed && p.returned == kSuccess));
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : ", ") + w;
  return text.empty() ? "none" : text;
}

}  // namespace

// --- 5. What stream capture forbids --------------------------------------------

Documented documented(const std::string& mode, const std::string& call) {
  // The guide's "Prohibited and Unhandled Operations", whatever the mode: syncing or querying a capturing
  // stream or a captured event, or a broader handle (the device) while a stream captures, and the legacy
  // stream while a blocking stream captures.
  if (call == "stream_synchronize" || call == "stream_query" || call == "event_query_captured" ||
      call == "device_synchronize" || call == "memcpy_legacy")
    return Documented::prohibited;
  // cudaThreadExchangeStreamCaptureMode: cudaMalloc is "potentially unsafe"; relaxed allows it, global
  // refuses it in other threads too, thread_local ignores other threads' captures.
  if (call == "malloc") return mode == "relaxed" ? Documented::allowed : Documented::prohibited;
  if (call == "malloc_other_thread") return mode == "global" ? Documented::prohibited : Documented::allowed;
  if (call == "malloc_thread_relaxed") return Documented::allowed;  // the calling thread's own mode is relaxed
  // The legacy-stream rule does not reach a non-blocking capture; only relaxed says unsafe calls are fine.
  if (call == "memcpy_legacy_nonblocking_capture" && mode == "relaxed") return Documented::allowed;
  return Documented::not_stated;
}

lab::ResultTable capture_calls_table(const CaptureRun& run) {
  lab::ResultTable table("capture_calls", "Calls made while a stream captures, one child process each", "call / mode",
                         {{"documented", "documented", "", 0},
                          {"returned", "returned", "", 0},
                          {"status_after", "capture after", "", 0},
                          {"end_capture", "cudaStreamEndCapture", "", 0},
                          {"graph", "graph", "", 0},
                          {"context", "context after", "", 0}});
  for (const CaptureProbe& p : run.probes) {
    lab::ResultTable::Row& row = table.add_row(p.call + " / " + p.mode);
    row.set("documented", documented_text(documented(p.mode, p.call)));
    if (!p.measured) {
      row.set("returned", "not measured").set("why_not", p.why_not);
      continue;
    }
    row.set("returned", p.returned)
        .set("status_after", p.status_after)
        .set("end_capture", p.end_capture)
        .set("graph", p.end_capture == "-" ? "-"
                      : p.graph_null       ? "NULL"
                                           : "a graph")
        .set("context", p.context);
  }
  table.note(run.skipped ? "skipped: " + run.skip_reason
                         : "each child: begin capture, queue a kernel, the call, cudaStreamIsCapturing, "
                           "cudaStreamEndCapture, then a kernel, a copy and a sync (context after)");
  return table;
}

static lab::Finding capture_as_documented_check(const CaptureRun& run) {
  int stated = 0, matching = 0, measured = 0;
  std::vector<std::string> differ;
  for (const CaptureProbe& p : run.probes) {
    measured += p.measured ? 1 : 0;
    if (documented(p.mode, p.call) == Documented::not_stated) continue;
    ++stated;
    if (as_documented(p))
      ++matching;
    else
      differ.push_back(p.call + " / " + p.mode + " returned " + (p.measured ? p.returned : "nothing"));
  }
  const bool all = matching == stated;
  return lab::correctness_check(
             all ? "capture_as_documented.all" : "capture_as_documented.differs",
             "calls during capture do what the documentation says", all,
             lab::format("%d of the %d calls the documentation rules on did as it says", matching, stated) +
                 (all ? "" : "; not: " + joined(differ)))
      .with("rows", static_cast<double>(run.probes.size()))
      .with("rows_measured", measured)
      .with("rows_stated", stated)
      .with("rows_matching", matching);
}

static lab::Finding context_survives(const CaptureRun& run) {
  int measured = 0, usable = 0;
  std::vector<std::string> lost;
  for (const CaptureProbe& p : run.probes) {
    if (!p.measured) continue;
    ++measured;
    if (p.context == kSuccess)
      ++usable;
    else
      lost.push_back(p.call + " / " + p.mode + " (" + p.context + ")");
  }
  const bool yes = usable == measured;
  return lab::correctness_check(yes ? "context_survives.yes" : "context_survives.no",
                                "a refused call ends the capture, not the context", yes,
                                yes ? lab::format("in all %d children a kernel, a copy and a sync worked after "
                                                  "cudaStreamEndCapture",
                                                  measured)
                                    : "the context was not usable after: " + joined(lost))
      .with("rows_measured", measured)
      .with("rows_usable", usable);
}

// Per call, the modes that refused it.
static std::map<std::string, std::vector<std::string>> refusing_modes(const CaptureRun& run) {
  std::map<std::string, std::vector<std::string>> refused;
  for (const CaptureProbe& p : run.probes) {
    if (p.mode == "none" || !p.measured) continue;
    refused[p.call];  // present, refused by none so far
    if (p.returned != kSuccess) refused[p.call].push_back(p.mode);
  }
  return refused;
}

static lab::Finding capture_modes(const CaptureRun& run) {
  std::vector<std::string> every, some, none;
  for (const auto& [call, modes] : refusing_modes(run)) {
    if (modes.size() == 3)
      every.push_back(call);
    else if (modes.empty())
      none.push_back(call);
    else
      some.push_back(call + " (" + joined(modes) + ")");
  }
  return lab::named_observation("capture_modes", "what the mode changes",
                                "refused in every mode: " + joined(every) + "; refused in some modes only: " +
                                    joined(some) + "; allowed in every mode: " + joined(none))
      .with("refused_in_every_mode", static_cast<double>(every.size()))
      .with("refused_in_some_modes", static_cast<double>(some.size()))
      .with("allowed_in_every_mode", static_cast<double>(none.size()));
}

static lab::Finding invalidation(const CaptureRun& run) {
  int refused = 0, invalidated = 0;
  std::vector<std::string> kept;
  for (const CaptureProbe& p : run.probes) {
    if (!p.measured || p.mode == "none" || p.returned == kSuccess) continue;
    ++refused;
    if (p.end_capture != kSuccess && p.graph_null)
      ++invalidated;
    else
      kept.push_back(p.call + " / " + p.mode);
  }
  const bool every = invalidated == refused;
  return lab::named_observation(every ? "invalidation.every_refusal" : "invalidation.not_every_refusal",
                                "what a refused call does to the capture",
                                lab::format("%d of %d refused calls made cudaStreamEndCapture return an error and "
                                            "a NULL graph",
                                            invalidated, refused) +
                                    (every ? "" : "; the capture survived: " + joined(kept)))
      .with("rows_refused", refused)
      .with("rows_invalidated", invalidated);
}

static lab::Finding external_outside_capture(const CaptureRun& run) {
  for (const CaptureProbe& p : run.probes) {
    if (p.mode != "none" || !p.measured) continue;
    const bool refused = p.returned != kSuccess;
    return lab::named_observation(refused ? "external_outside_capture.refused" : "external_outside_capture.accepted",
                                  "cudaEventRecordExternal with no capture",
                                  "cudaEventRecordWithFlags(cudaEventRecordExternal) on a stream not capturing "
                                  "returned " +
                                      p.returned);
  }
  return lab::named_observation("external_outside_capture.not_measured", "cudaEventRecordExternal with no capture",
                                "not measured");
}

std::vector<lab::Finding> capture_findings(const CaptureRun& run) {
  if (run.skipped) return {lab::skipped("capture_calls", "what capture forbids", run.skip_reason)};
  for (const CaptureProbe& p : run.probes) {
    if (p.measured)
      return {capture_as_documented_check(run), context_survives(run), capture_modes(run), invalidation(run),
              external_outside_capture(run)};
  }
  return {lab::named_observation("capture_calls.not_measured", "what capture forbids",
                                 "no child reported: " + (run.probes.empty() ? "none ran" : run.probes[0].why_not))};
}

std::vector<lab::Background> capture_background() {
  return {{"cudaStreamCaptureModeGlobal, the default: a thread with a capture not begun as relaxed, or any thread "
           "while another captures in global mode, is prohibited from potentially unsafe API calls; thread_local "
           "ignores other threads' captures; relaxed prohibits only calls that necessarily conflict with capture, "
           "such as cudaEventQuery on an event last recorded inside it. cudaMalloc is such an unsafe call: it "
           "\"is not enqueued asynchronously to a stream, and is not observed by stream capture\"",
           "CUDA Runtime API, cudaThreadExchangeStreamCaptureMode"},
          {"it is invalid to synchronize or query the execution status of a stream which is being captured or a "
           "captured event; \"It is also invalid to query the execution status of or synchronize a broader handle "
           "which encompasses an active stream capture, such as a device or context handle when any associated "
           "stream is in capture mode\"; while a stream not created with cudaStreamNonBlocking captures, any use "
           "of the legacy stream is invalid, and so are synchronous calls such as cudaMemcpy that enqueue work to it",
           "CUDA Programming Guide, 4.2.2.1.2.2 Stream Capture: Prohibited and Unhandled Operations"},
          {"an invalid operation during capture invalidates the capture graphs; cudaStreamEndCapture then takes the "
           "streams out of capture mode but returns an error value and a NULL graph",
           "CUDA Programming Guide, CUDA Graphs, Stream Capture: Invalidation"}};
}

// --- 6. The launch queue's depth -----------------------------------------------

double documented_ratio(const std::string& value) {
  if (value == "0.25x") return 0.25;
  if (value == "0.5x") return 0.5;
  if (value == "2x") return 2.0;
  if (value == "4x") return 4.0;
  return 1.0;  // "Any value other than 0.25x, 0.5x, 2x or 4x is interpreted as 1x" (and unset is 1x)
}

namespace {

// The unset child's depth, or -1 when it did not fill its queue.
std::int64_t unset_depth(const QueueScaleRun& run) {
  for (const QueueScaleProbe& p : run.probes)
    if (p.value.empty() && p.measured && !p.holding_timed_out) return p.depth;
  return -1;
}

bool depth_measured(const QueueScaleProbe& p) { return p.measured && !p.holding_timed_out && p.depth > 0; }

}  // namespace

lab::ResultTable queue_scale_table(const QueueScaleRun& run) {
  lab::ResultTable table("queue_scale",
                         "Empty kernels queued into a held stream until a launch waits, per "
                         "CUDA_SCALE_LAUNCH_QUEUES, in a child process each",
                         "value",
                         {{"seen", "child read", "", 0},
                          {"depth", "depth", "launches", 0},
                          {"ratio_to_unset", "to unset", "x", 2},
                          {"documented_ratio", "documented", "x", 2},
                          {"median_call_us", "launch call", "us", 2}});
  const std::int64_t unset = unset_depth(run);
  for (const QueueScaleProbe& p : run.probes) {
    lab::ResultTable::Row& row = table.add_row(p.value.empty() ? "unset" : p.value);
    row.set("documented_ratio", documented_ratio(p.value));
    if (!p.measured) {
      row.set("seen", "not measured").set("why_not", p.why_not);
      continue;
    }
    row.set("seen", p.seen.empty() ? "unset" : p.seen).set("median_call_us", p.median_call_us);
    if (!depth_measured(p)) {
      row.set("depth", p.holding_timed_out ? "timed out" : "> " + lab::format_count(p.launches));
      continue;
    }
    row.set("depth", static_cast<double>(p.depth)).set("blocked_call_ms", p.blocked_call_ms);
    if (unset > 0) row.set("ratio_to_unset", static_cast<double>(p.depth) / static_cast<double>(unset));
  }
  table.note(run.skipped ? "skipped: " + run.skip_reason
                         : "depth: launch calls that returned at once before the first that waited for room "
                           "(chapter 08's fill_launch_queue); 3x is not a documented value (read as 1x)");
  return table;
}

std::vector<lab::Finding> queue_scale_findings(const QueueScaleRun& run) {
  if (run.skipped) return {lab::skipped("queue_scale", "the launch queue's scale", run.skip_reason)};
  const std::int64_t unset = unset_depth(run);
  if (unset <= 0)
    return {lab::named_observation("queue_scale.not_measured", "the launch queue's scale",
                                   "the unset child's queue never filled (raise --queue-launches) or it did not run")};
  // Honoured or ignored is judged on the values whose documented factor is not 1x (a driver that ignores
  // the variable gives 3x's depth too); 3x, documented as read as 1x, is reported on its own.
  int compared = 0, as_documented = 0, as_one = 0;
  std::string depths = "unset " + lab::format_count(unset), read_as_one;
  lab::Fields numbers;
  for (const QueueScaleProbe& p : run.probes) {
    if (p.value.empty()) continue;
    if (!depth_measured(p)) {
      depths += ", " + p.value + " not measured";
      continue;
    }
    const double ratio = static_cast<double>(p.depth) / static_cast<double>(unset);
    const bool one = std::fabs(ratio - 1.0) <= 0.1;
    if (documented_ratio(p.value) == 1.0) {
      read_as_one += lab::format("; %s read as 1x: %s", p.value.c_str(), one ? "yes" : "no");
      numbers.push_back({"read_as_1x_" + p.value, one});
    } else {
      ++compared;
      as_documented += std::fabs(ratio / documented_ratio(p.value) - 1.0) <= 0.1 ? 1 : 0;
      as_one += one ? 1 : 0;
    }
    depths += lab::format(", %s %lld (%.2fx)", p.value.c_str(), static_cast<long long>(p.depth), ratio);
    numbers.push_back({"depth_" + p.value, p.depth});
    numbers.push_back({"ratio_" + p.value, ratio});
  }
  const char* branch = compared == 0               ? "queue_scale.not_measured"
                       : as_documented == compared ? "queue_scale.honoured"
                       : as_one == compared        ? "queue_scale.ignored"
                                                   : "queue_scale.partly";
  lab::Finding f = lab::named_observation(
      branch, "the launch queue's scale",
      lab::format("%d of %d values other than 1x gave the documented factor (within 10 %%), %d the unset depth",
                  as_documented, compared, as_one) +
          read_as_one + "; depths: " + depths);
  f.with("depth_unset", unset).with("values_compared", compared).with("values_as_documented", as_documented);
  f.with("values_as_unset", as_one);
  for (lab::Field& n : numbers) f.with(n.key, n.value);
  return {f};
}

std::vector<lab::Background> queue_scale_background() {
  return {
      {"CUDA_SCALE_LAUNCH_QUEUES specifies the scaling factor for the size of the queues available for "
       "launching work (command buffer): the total number of pending kernels or host/device copy operations "
       "that can be enqueued on a device; possible values 0.25x, 0.5x, 2x, 4x, any other value is read as 1x",
       "CUDA Programming Guide, CUDA Environment Variables, CUDA_SCALE_LAUNCH_QUEUES"}};
}

}  // namespace ch10
