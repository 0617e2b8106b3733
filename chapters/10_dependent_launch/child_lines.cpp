#include "child_lines.hpp"

#include <istream>
#include <nlohmann/json.hpp>

#include "child_process.hpp"

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

}  // namespace

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
