#include <cmath>
#include <cstddef>
#include <istream>
#include <nlohmann/json.hpp>

#include "checks.hpp"
#include "child_process.hpp"
#include "command_line.hpp"
#include "vocabulary.hpp"

namespace ch10 {

// What each child reports; the parent fills in the rest (value, mode and call it asked for, why_not).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CaptureProbe, mode, call, returned, status_after, end_capture, graph_null, context)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(QueueScaleProbe, seen, launches, depth, median_call_us, blocked_call_ms,
                                   holding_timed_out)

namespace {

constexpr char kCaptureChild[] = "ch10_capture_child";
constexpr char kQueueChild[] = "ch10_queue_child";

// The first line of @p text tagged @p tag whose JSON object reads as a Probe, into @p into (measured = true).
template <class Probe>
bool read_line(const std::string& text, const char* tag, Probe& into) {
  return lab::find_child_line(text, tag, [&](std::istream& rest) {
    std::string object;
    std::getline(rest >> std::ws, object);
    Probe p = into;
    try {
      nlohmann::json::parse(object).get_to(p);
    } catch (const nlohmann::json::exception&) {
      return false;
    }
    p.measured = true;
    p.why_not.clear();
    into = p;
    return true;
  });
}

constexpr char kSuccess[] = "cudaSuccess";

// Refused as capture refuses: a capture error code, or the capture invalidated after the call.
bool capture_refusal(const CaptureProbe& p) {
  return p.returned.rfind("cudaErrorStreamCapture", 0) == 0 || p.returned == "cudaErrorCapturedEvent" ||
         p.status_after == "invalidated";
}

// The documented verdict held (refused when prohibited, succeeded when allowed); false when not stated. With no
// capture (mode "none") there is no capture to refuse for, and the documentation names no error: any error.
bool as_documented(const CaptureProbe& p) {
  const Documented d = documented(p.mode, p.call);
  const bool refused = p.mode == "none" ? p.returned != kSuccess : capture_refusal(p);
  return p.measured &&
         ((d == Documented::prohibited && refused) || (d == Documented::allowed && p.returned == kSuccess));
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : ", ") + w;
  return text.empty() ? "none" : text;
}

// The unset child's depth, or -1 when it did not fill its queue.
std::int64_t unset_depth(const QueueScaleRun& run) {
  for (const QueueScaleProbe& p : run.probes)
    if (p.value.empty() && p.measured && !p.holding_timed_out) return p.depth;
  return -1;
}

bool depth_measured(const QueueScaleProbe& p) { return p.measured && !p.holding_timed_out && p.depth > 0; }

}  // namespace

// --- 5. What stream capture forbids --------------------------------------------

Documented documented(const std::string& mode, const std::string& call) {
  // The guide's "Prohibited and Unhandled Operations", whatever the mode: syncing or querying a capturing
  // stream or a captured event, or a broader handle (the device) while a stream captures, and the legacy
  // stream while a blocking stream captures.
  if (call == "stream_synchronize" || call == "stream_query" || call == "event_query_captured" ||
      call == "device_synchronize" || call == "memcpy_legacy")
    return Documented::prohibited;
  // cuda.h, CU_EVENT_RECORD_EXTERNAL: "This flag is invalid when used outside of capture."
  if (call == kOutsideCaptureCall) return Documented::prohibited;
  // cudaThreadExchangeStreamCaptureMode: cudaMalloc is "potentially unsafe"; relaxed allows it, global
  // refuses it in other threads too, thread_local ignores other threads' captures.
  if (call == "malloc") return mode == "relaxed" ? Documented::allowed : Documented::prohibited;
  if (call == "malloc_other_thread") return mode == "global" ? Documented::prohibited : Documented::allowed;
  if (call == "malloc_thread_relaxed") return Documented::allowed;  // the calling thread's own mode is relaxed
  // The legacy-stream rule does not reach a non-blocking capture; only relaxed says unsafe calls are fine.
  if (call == "memcpy_legacy_nonblocking_capture" && mode == "relaxed") return Documented::allowed;
  return Documented::not_stated;
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
  const bool all = matching == stated && measured > 0;
  const std::string none = "no child reported: " + (run.probes.empty() ? "none ran" : run.probes[0].why_not);
  return lab::correctness_check(
             all ? "capture_as_documented.all" : "capture_as_documented.differs",
             "calls during capture do what the documentation says", all,
             measured == 0
                 ? none
                 : lab::format("%d of the %d calls the documentation rules on did as it says", matching, stated) +
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
                                "a refused call leaves the context usable", yes,
                                yes ? lab::format("in all %d children a kernel, a copy and a sync worked after "
                                                  "cudaStreamEndCapture",
                                                  measured)
                                    : "the context was not usable after: " + joined(lost))
      .with("rows_measured", measured)
      .with("rows_usable", usable);
}

// The guide's Invalidation: an invalid operation invalidates the capture; cudaStreamEndCapture then returns
// an error and a NULL graph.
static lab::Finding invalidation(const CaptureRun& run) {
  int refused = 0, invalidated = 0;
  std::vector<std::string> kept;
  for (const CaptureProbe& p : run.probes) {
    if (!p.measured || p.mode == "none" || p.returned == kSuccess || !capture_refusal(p)) continue;
    ++refused;
    if (p.end_capture != kSuccess && p.graph_null)
      ++invalidated;
    else
      kept.push_back(p.call + " / " + p.mode);
  }
  const bool every = invalidated == refused;
  return lab::correctness_check(every ? "invalidation.every_refusal" : "invalidation.not_every_refusal",
                                "a refused call invalidates the capture: an error and a NULL graph at its end", every,
                                lab::format("%d of %d refused calls made cudaStreamEndCapture return an error and "
                                            "a NULL graph",
                                            invalidated, refused) +
                                    (every ? "" : "; the capture survived: " + joined(kept)))
      .with("rows_refused", refused)
      .with("rows_invalidated", invalidated);
}

std::vector<lab::Finding> capture_checks(const CaptureRun& run) {
  if (run.skipped) return {lab::skipped("capture_calls", "what capture forbids", run.skip_reason)};
  return {capture_as_documented_check(run), context_survives(run), invalidation(run)};
}

// --- 6. The launch queue's depth -----------------------------------------------

double documented_ratio(const std::string& value) {
  if (value == "0.25x") return 0.25;
  if (value == "0.5x") return 0.5;
  if (value == "2x") return 2.0;
  if (value == "4x") return 4.0;
  return 1.0;  // "Any value other than 0.25x, 0.5x, 2x or 4x is interpreted as 1x" (and unset is 1x)
}

lab::ResultTable queue_scale_table(const QueueScaleRun& run) {
  lab::ResultTable table("queue_scale",
                         "Empty kernels queued into a held stream until a launch waits, per "
                         "CUDA_SCALE_LAUNCH_QUEUES, in a child process each",
                         "value",
                         {{"seen", "child read", "", 0},
                          {"depth", "depth", "launches", 0},
                          {"ratio_to_unset", "to unset", "x", 2},
                          {"documented_ratio", "documented", "x", 2},
                          {"as_documented", "as documented", "", 0},
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
    if (unset <= 0) continue;
    const double ratio = static_cast<double>(p.depth) / static_cast<double>(unset);
    row.set("ratio_to_unset", ratio).set("as_documented", std::fabs(ratio / documented_ratio(p.value) - 1.0) <= 0.1);
  }
  table.note(
      run.skipped
          ? "skipped: " + run.skip_reason
          : "depth: launch calls that returned at once before the first that waited for room "
            "(chapter 08's fill_launch_queue); as documented: within 10 % of the documented factor times the unset "
            "depth; 3x is not a documented value (read as 1x)");
  return table;
}

std::vector<lab::Finding> queue_scale_checks(const QueueScaleRun& run) {
  if (run.skipped) return {lab::skipped("queue_scale", "the launch queue's scale", run.skip_reason)};
  return {};  // the table says, value by value, whether the depth was the documented factor times the unset one
}

// --- 5 and 6. The children's lines ---------------------------------------------

const char kOutsideCaptureCall[] = "event_record_external_outside_capture";

const std::vector<std::string>& capture_mode_names() {
  static const std::vector<std::string> modes = {"global", "thread_local", "relaxed"};
  return modes;
}

const std::vector<std::string>& capture_call_names() {
  static const std::vector<std::string> calls = {"malloc",
                                                 "malloc_other_thread",
                                                 "malloc_thread_relaxed",
                                                 "stream_synchronize",
                                                 "stream_query",
                                                 "device_synchronize",
                                                 "memcpy_legacy",
                                                 "memcpy_legacy_nonblocking_capture",
                                                 "event_query_captured"};
  return calls;
}

const std::vector<std::string>& queue_scale_values() {
  static const std::vector<std::string> values = {"", "0.25x", "0.5x", "2x", "4x", "3x"};
  return values;
}

std::string capture_line(const CaptureProbe& p) { return std::string(kCaptureChild) + " " + nlohmann::json(p).dump(); }

bool read_capture_line(const std::string& text, CaptureProbe& into) { return read_line(text, kCaptureChild, into); }

std::string queue_line(const QueueScaleProbe& p) { return std::string(kQueueChild) + " " + nlohmann::json(p).dump(); }

bool read_queue_line(const std::string& text, QueueScaleProbe& into) { return read_line(text, kQueueChild, into); }

}  // namespace ch10
