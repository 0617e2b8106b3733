#include "trace.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

#include "timeline.hpp"

namespace lab {

char chart_symbol(const Interval& interval) {
  switch (interval.kind) {
    case Interval::Kind::kernel: return kKernel;
    case Interval::Kind::memset: return 'S';
    case Interval::Kind::region: return 'R';
    case Interval::Kind::host: return 'T';
    case Interval::Kind::memcpy:
      if (interval.direction == "HtoD") return kCopyIn;
      if (interval.direction == "DtoH") return kCopyOut;
      return 'C';
  }
  return '?';
}

std::string render_chart(const std::vector<Interval>& intervals, int width) {
  std::vector<const Interval*> work;
  for (const Interval& i : intervals)
    if (i.kind != Interval::Kind::region) work.push_back(&i);
  if (work.empty()) return "  (no GPU work was recorded)\n";
  std::stable_sort(work.begin(), work.end(), [](const Interval* a, const Interval* b) { return a->start_ns < b->start_ns; });
  const double origin = work.front()->start_ns;
  std::vector<Span> spans;
  std::size_t label = 0;
  std::string symbols;
  for (const Interval* i : work) {
    const std::string row = track_name(*i);
    label = std::max(label, row.size());
    spans.push_back({row, chart_symbol(*i), (i->start_ns - origin) / 1e6, (std::max(i->end_ns, i->start_ns) - origin) / 1e6});
    if (symbols.find(spans.back().symbol) == std::string::npos) symbols += spans.back().symbol;
  }
  std::vector<LegendEntry> legend;
  const std::vector<LegendEntry> all = {{kCopyIn, "copy host to device"},
                                        {kKernel, "kernel"},
                                        {kCopyOut, "copy device to host"},
                                        {'C', "other copy"},
                                        {'S', "memset"},
                                        {'T', "the host's own span"}};
  for (const LegendEntry& entry : all)
    if (symbols.find(entry.symbol) != std::string::npos) legend.push_back(entry);
  // render_timeline's lines are "  " + label + " |" + grid + "|": 5 columns besides the label and grid.
  const int grid = std::max(10, std::max(width, 40) - static_cast<int>(label) - 5);
  return render_timeline(spans, legend, grid);
}

std::string track_name(const Interval& interval) {
  if (interval.kind == Interval::Kind::region) return "chapter";
  return interval.stream_name.empty() ? "stream " + std::to_string(interval.stream) : interval.stream_name;
}

std::vector<int> assign_tracks(const std::vector<Interval>& intervals) {
  std::vector<std::size_t> order(intervals.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return intervals[a].start_ns < intervals[b].start_ns;
  });
  // Per (device, track name): when each of its tracks is free again.
  std::map<std::pair<int, std::string>, std::vector<double>> free_at;
  std::vector<int> track(intervals.size(), 0);
  for (std::size_t index : order) {
    const Interval& i = intervals[index];
    std::vector<double>& tracks = free_at[{i.device, track_name(i)}];
    std::size_t t = 0;
    while (t < tracks.size() && tracks[t] > i.start_ns) ++t;  // touching (end == start) is not overlapping
    if (t == tracks.size()) tracks.push_back(0);
    tracks[t] = std::max(i.end_ns, i.start_ns);
    track[index] = static_cast<int>(t);
  }
  return track;
}

namespace {

const char* category(Interval::Kind kind) {
  switch (kind) {
    case Interval::Kind::kernel: return "kernel";
    case Interval::Kind::memcpy: return "memcpy";
    case Interval::Kind::memset: return "memset";
    case Interval::Kind::region: return "region";
    case Interval::Kind::host: return "host";
  }
  return "?";
}

}  // namespace

std::string chrome_trace(const std::vector<Interval>& intervals, const std::string& device_name) {
  using Json = nlohmann::ordered_json;
  const std::vector<int> tracks = assign_tracks(intervals);
  // One tid per (device, track name, track): regions first, then the rest in order of first work.
  std::map<std::tuple<int, std::string, int>, int> tids;
  std::map<int, bool> devices;
  Json events = Json::array();
  std::vector<std::size_t> order(intervals.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const bool ra = intervals[a].kind == Interval::Kind::region, rb = intervals[b].kind == Interval::Kind::region;
    if (ra != rb) return ra;
    return intervals[a].start_ns < intervals[b].start_ns;
  });
  for (std::size_t index : order) {
    const Interval& i = intervals[index];
    const auto key = std::make_tuple(i.device, track_name(i), tracks[index]);
    if (!devices.count(i.device)) {
      devices[i.device] = true;
      events.push_back({{"name", "process_name"},
                        {"ph", "M"},
                        {"pid", i.device},
                        {"args", {{"name", "device " + std::to_string(i.device) + ": " + device_name}}}});
    }
    if (!tids.count(key)) {
      const int tid = static_cast<int>(tids.size()) + 1;
      tids[key] = tid;
      std::string name = track_name(i);
      if (tracks[index] > 0) name += " (" + std::to_string(tracks[index] + 1) + ")";
      events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", i.device}, {"tid", tid}, {"args", {{"name", name}}}});
      events.push_back(
          {{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", i.device}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
    }
    Json args = {{"stream", track_name(i)}};
    if (i.kind == Interval::Kind::memcpy || i.kind == Interval::Kind::memset) args["bytes"] = i.bytes;
    if (!i.direction.empty()) args["direction"] = i.direction;
    if (!i.host_memory.empty()) args["host_memory"] = i.host_memory;
    events.push_back({{"name", i.name},
                      {"cat", category(i.kind)},
                      {"ph", "X"},
                      {"ts", i.start_ns / 1000.0},
                      {"dur", std::max(0.0, i.end_ns - i.start_ns) / 1000.0},
                      {"pid", i.device},
                      {"tid", tids[key]},
                      {"args", args}});
  }
  return Json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n";
}

}  // namespace lab
