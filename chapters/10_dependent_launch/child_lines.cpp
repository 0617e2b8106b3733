#include "child_lines.hpp"

#include <istream>

#include "child_process.hpp"
#include "vocabulary.hpp"

namespace ch10 {

namespace {

constexpr char kCaptureChild[] = "ch10_capture_child";
constexpr char kQueueChild[] = "ch10_queue_child";

// A word of a line: "" would break the line into too few words.
std::string word(const std::string& text) { return text.empty() ? "-" : text; }
std::string unword(const std::string& text) { return text == "-" ? "" : text; }

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

std::string capture_line(const CaptureProbe& p) {
  return lab::format("%s %s %s %s %s %s %d %s", kCaptureChild, word(p.mode).c_str(), word(p.call).c_str(),
                     word(p.returned).c_str(), word(p.status_after).c_str(), word(p.end_capture).c_str(),
                     p.graph_null ? 1 : 0, word(p.context).c_str());
}

bool read_capture_line(const std::string& text, CaptureProbe& into) {
  return lab::find_child_line(text, kCaptureChild, [&](std::istream& words) {
    int graph_null = 0;
    CaptureProbe p = into;
    if (!(words >> p.mode >> p.call >> p.returned >> p.status_after >> p.end_capture >> graph_null >> p.context))
      return false;
    p.graph_null = graph_null == 1;
    p.measured = true;
    p.why_not.clear();
    into = p;
    return true;
  });
}

std::string queue_line(const QueueScaleProbe& p) {
  return lab::format("%s %s %lld %lld %.3f %.3f %d", kQueueChild, word(p.seen).c_str(),
                     static_cast<long long>(p.launches), static_cast<long long>(p.depth), p.median_call_us,
                     p.blocked_call_ms, p.holding_timed_out ? 1 : 0);
}

bool read_queue_line(const std::string& text, QueueScaleProbe& into) {
  return lab::find_child_line(text, kQueueChild, [&](std::istream& words) {
    long long launches = 0, depth = 0;
    int timed_out = 0;
    QueueScaleProbe p = into;
    if (!(words >> p.seen >> launches >> depth >> p.median_call_us >> p.blocked_call_ms >> timed_out)) return false;
    p.seen = unword(p.seen);
    p.launches = launches;
    p.depth = depth;
    p.holding_timed_out = timed_out == 1;
    p.measured = true;
    p.why_not.clear();
    into = p;
    return true;
  });
}

}  // namespace ch10
