#include "trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <tuple>

namespace lab {

namespace {

// A drawn piece of work: its row, symbol and span in ms after the chart's origin.
struct Cell {
  std::size_t row;
  char symbol;
  double begin_ms, end_ms;
};

// The intervals whose chart symbol is in `symbols`, merged into disjoint [begin, end) in ns.
std::vector<std::pair<double, double>> merged(const std::vector<Interval>& intervals, const std::string& symbols) {
  std::vector<std::pair<double, double>> spans;
  for (const Interval& i : intervals)
    if (symbols.find(chart_symbol(i)) != std::string::npos && i.end_ns > i.start_ns)
      spans.emplace_back(i.start_ns, i.end_ns);
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<double, double>> result;
  for (const auto& span : spans) {
    if (!result.empty() && span.first <= result.back().second) {
      result.back().second = std::max(result.back().second, span.second);
    } else {
      result.push_back(span);
    }
  }
  return result;
}

// The indices of @p intervals by start time, regions first when @p regions_first.
std::vector<std::size_t> by_start(const std::vector<Interval>& intervals, bool regions_first) {
  std::vector<std::size_t> order(intervals.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const bool ra = regions_first && intervals[a].kind == Interval::Kind::region;
    const bool rb = regions_first && intervals[b].kind == Interval::Kind::region;
    return ra != rb ? ra : intervals[a].start_ns < intervals[b].start_ns;
  });
  return order;
}

// The row or track @p interval belongs to: its stream's name, or "chapter" for a region.
std::string track_name(const Interval& interval) {
  if (interval.kind == Interval::Kind::region) return "chapter";
  return interval.stream_name.empty() ? "stream " + std::to_string(interval.stream) : interval.stream_name;
}

// The track of each interval among those of its device and track_name(): 0
// unless it overlaps an earlier one (records can overlap by a few ns, regions
// may nest), then the next free one.
std::vector<int> assign_tracks(const std::vector<Interval>& intervals) {
  // Per (device, track name): when each of its tracks is free again.
  std::map<std::pair<int, std::string>, std::vector<double>> free_at;
  std::vector<int> track(intervals.size(), 0);
  for (std::size_t index : by_start(intervals, false)) {
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

char chart_symbol(const Interval& interval) {
  switch (interval.kind) {
    case Interval::Kind::kernel: return 'K';
    case Interval::Kind::memset: return 'S';
    case Interval::Kind::region: return 'R';
    case Interval::Kind::host: return 'T';
    case Interval::Kind::memcpy:
      if (interval.direction == "HtoD") return 'H';
      if (interval.direction == "DtoH") return 'D';
      return 'C';
  }
  return '?';
}

double busy_ms(const std::vector<Interval>& intervals, const std::string& symbols) {
  double total = 0;
  for (const auto& span : merged(intervals, symbols)) total += span.second - span.first;
  return total / 1e6;
}

std::vector<Interval> kernels_named(const std::vector<Interval>& intervals, const std::vector<std::string>& names) {
  std::vector<Interval> kernels;
  for (const Interval& i : intervals) {
    bool named = names.empty();
    for (const std::string& name : names) named = named || i.name.find(name) != std::string::npos;
    if (i.kind == Interval::Kind::kernel && named) kernels.push_back(i);
  }
  std::sort(kernels.begin(), kernels.end(),
            [](const Interval& x, const Interval& y) { return x.start_ns < y.start_ns; });
  return kernels;
}

double overlap_ms(const std::vector<Interval>& intervals, const std::string& first, const std::string& second) {
  const auto a = merged(intervals, first);
  const auto b = merged(intervals, second);
  double total = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const double begin = std::max(a[i].first, b[j].first);
    const double end = std::min(a[i].second, b[j].second);
    if (end > begin) total += end - begin;
    if (a[i].second < b[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return total / 1e6;
}

std::string render_chart(const std::vector<Interval>& intervals, int width) {
  std::vector<const Interval*> work;
  for (const Interval& i : intervals)
    if (i.kind != Interval::Kind::region) work.push_back(&i);
  if (work.empty()) return "  (no GPU work was recorded)\n";
  std::stable_sort(work.begin(), work.end(),
                   [](const Interval* a, const Interval* b) { return a->start_ns < b->start_ns; });
  const double origin = work.front()->start_ns;
  std::vector<std::string> rows;
  std::vector<Cell> cells;
  std::size_t label = 0;
  std::string symbols;
  double latest = 0;
  for (const Interval* i : work) {
    const std::string row = track_name(*i);
    auto found = std::find(rows.begin(), rows.end(), row);
    if (found == rows.end()) found = rows.insert(rows.end(), row);
    label = std::max(label, row.size());
    const Cell cell{static_cast<std::size_t>(found - rows.begin()), chart_symbol(*i), (i->start_ns - origin) / 1e6,
                    (std::max(i->end_ns, i->start_ns) - origin) / 1e6};
    latest = std::max(latest, cell.end_ms);
    if (symbols.find(cell.symbol) == std::string::npos) symbols += cell.symbol;
    cells.push_back(cell);
  }
  // Each line is "  " + label + " |" + grid + "|": 5 columns besides the label and the grid.
  const int grid = std::max(10, std::max(width, 40) - static_cast<int>(label) - 5);
  const double per_column = latest > 0 ? latest / grid : 1.0;
  std::vector<std::string> lines(rows.size(), std::string(static_cast<std::size_t>(grid), ' '));
  // Longest first, so that where spans of a row share a column the shorter one
  // is drawn: a short kernel between two long copies stays visible.
  std::stable_sort(cells.begin(), cells.end(),
                   [](const Cell& x, const Cell& y) { return x.end_ms - x.begin_ms > y.end_ms - y.begin_ms; });
  for (const Cell& cell : cells) {
    int first = static_cast<int>(std::floor(std::max(0.0, cell.begin_ms) / per_column));
    int last = static_cast<int>(std::ceil(cell.end_ms / per_column)) - 1;
    first = std::clamp(first, 0, grid - 1);
    last = std::clamp(std::max(last, first), 0, grid - 1);
    for (int column = first; column <= last; ++column) lines[cell.row][static_cast<std::size_t>(column)] = cell.symbol;
  }
  std::string out;
  const std::string pad(label, ' ');
  for (std::size_t row = 0; row < rows.size(); ++row)
    out += "  " + rows[row] + std::string(label - rows[row].size(), ' ') + " |" + lines[row] + "|\n";
  char text[64];
  std::snprintf(text, sizeof text, "%.3f ms", latest);
  const std::string end_text(text);
  const int gap = grid + 2 - 1 - static_cast<int>(end_text.size());
  out += "  " + pad + " 0" + std::string(static_cast<std::size_t>(std::max(gap, 1)), ' ') + end_text + "\n";
  out += "  " + pad + " ";
  const std::pair<char, const char*> legend[] = {
      {'H', "copy host to device"}, {'K', "kernel"}, {'D', "copy device to host"},
      {'C', "other copy"},          {'S', "memset"}, {'T', "the host's own span"}};
  for (const auto& entry : legend)
    if (symbols.find(entry.first) != std::string::npos) out += std::string(1, entry.first) + " " + entry.second + "   ";
  std::snprintf(text, sizeof text, "(one column = %.3f ms)\n", per_column);
  return out + text;
}

std::string chrome_trace(const std::vector<Interval>& intervals, const std::string& device_name) {
  using Json = nlohmann::ordered_json;
  const std::vector<int> tracks = assign_tracks(intervals);
  // One tid per (device, track name, track): regions first, then the rest in order of first work.
  std::map<std::tuple<int, std::string, int>, int> tids;
  std::set<int> devices;
  Json events = Json::array();
  // A metadata event: names a process (tid 0) or a track.
  auto metadata = [&](const char* name, int pid, int tid, Json args) {
    Json event = {{"name", name}, {"ph", "M"}, {"pid", pid}};
    if (tid > 0) event["tid"] = tid;
    event["args"] = std::move(args);
    events.push_back(std::move(event));
  };
  for (std::size_t index : by_start(intervals, true)) {
    const Interval& i = intervals[index];
    if (devices.insert(i.device).second)
      metadata("process_name", i.device, 0, {{"name", "device " + std::to_string(i.device) + ": " + device_name}});
    const int track = tracks[index];
    const auto [entry, new_track] =
        tids.emplace(std::make_tuple(i.device, track_name(i), track), static_cast<int>(tids.size()) + 1);
    const int tid = entry->second;
    if (new_track) {
      const std::string copy = track > 0 ? " (" + std::to_string(track + 1) + ")" : "";
      metadata("thread_name", i.device, tid, {{"name", track_name(i) + copy}});
      metadata("thread_sort_index", i.device, tid, {{"sort_index", tid}});
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
                      {"tid", tid},
                      {"args", args}});
  }
  return Json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n";
}

}  // namespace lab
