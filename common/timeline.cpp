#include "timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace lab {
namespace {

using Interval = std::pair<double, double>;

// The union of the spans whose symbol is in `symbols`, as sorted, disjoint intervals.
std::vector<Interval> merged(const std::vector<Span>& spans, const std::string& symbols) {
  std::vector<Interval> intervals;
  for (const Span& span : spans) {
    if (symbols.find(span.symbol) != std::string::npos && span.end_ms > span.begin_ms) {
      intervals.emplace_back(span.begin_ms, span.end_ms);
    }
  }
  std::sort(intervals.begin(), intervals.end());
  std::vector<Interval> result;
  for (const Interval& interval : intervals) {
    if (!result.empty() && interval.first <= result.back().second) {
      result.back().second = std::max(result.back().second, interval.second);
    } else {
      result.push_back(interval);
    }
  }
  return result;
}

double total_length(const std::vector<Interval>& intervals) {
  double total = 0;
  for (const Interval& interval : intervals) total += interval.second - interval.first;
  return total;
}

}  // namespace

double busy_ms(const std::vector<Span>& spans, const std::string& symbols) {
  return total_length(merged(spans, symbols));
}

double overlap_ms(const std::vector<Span>& spans, const std::string& first, const std::string& second) {
  const std::vector<Interval> a = merged(spans, first);
  const std::vector<Interval> b = merged(spans, second);
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
  return total;
}

void queue_one_at_a_time(std::vector<Span>& spans, char symbol) {
  std::vector<Span*> queue;
  for (Span& span : spans) {
    if (span.symbol == symbol) queue.push_back(&span);
  }
  std::stable_sort(queue.begin(), queue.end(), [](const Span* x, const Span* y) { return x->end_ms < y->end_ms; });
  double previous_end = -INFINITY;
  for (Span* span : queue) {
    span->begin_ms = std::min(span->end_ms, std::max(span->begin_ms, previous_end));
    previous_end = span->end_ms;
  }
}

void queue_copies_one_at_a_time(std::vector<Span>& spans) {
  queue_one_at_a_time(spans, kCopyIn);
  queue_one_at_a_time(spans, kCopyOut);
}

std::vector<LegendEntry> copy_kernel_copy_legend(const std::string& kernel) {
  return {{kCopyIn, "copy in (H2D)"}, {kKernel, kernel}, {kCopyOut, "copy out (D2H)"}};
}

std::string render_timeline(const std::vector<Span>& spans, const std::vector<LegendEntry>& legend, int width) {
  width = std::max(width, 10);
  std::vector<std::string> rows;
  std::size_t label_width = 0;
  double latest = 0;
  for (const Span& span : spans) {
    if (std::find(rows.begin(), rows.end(), span.row) == rows.end()) rows.push_back(span.row);
    label_width = std::max(label_width, span.row.size());
    latest = std::max(latest, span.end_ms);
  }
  if (rows.empty()) return "  (no spans)\n";
  const double per_column = latest > 0 ? latest / width : 1.0;
  std::vector<std::string> cells(rows.size(), std::string(static_cast<std::size_t>(width), ' '));
  // Longest first, so a short span sharing a column with a long one stays visible.
  std::vector<const Span*> order;
  for (const Span& span : spans) order.push_back(&span);
  std::stable_sort(order.begin(), order.end(), [](const Span* x, const Span* y) {
    return x->end_ms - x->begin_ms > y->end_ms - y->begin_ms;
  });
  for (const Span* drawn : order) {
    const Span& span = *drawn;
    const std::size_t row = static_cast<std::size_t>(std::find(rows.begin(), rows.end(), span.row) - rows.begin());
    int first = static_cast<int>(std::floor(std::max(0.0, span.begin_ms) / per_column));
    int last = static_cast<int>(std::ceil(span.end_ms / per_column)) - 1;
    first = std::clamp(first, 0, width - 1);
    last = std::clamp(std::max(last, first), 0, width - 1);
    for (int column = first; column <= last; ++column) cells[row][static_cast<std::size_t>(column)] = span.symbol;
  }
  std::string out;
  const std::string pad(label_width, ' ');
  for (std::size_t row = 0; row < rows.size(); ++row) {
    out += "  " + rows[row] + std::string(label_width - rows[row].size(), ' ') + " |" + cells[row] + "|\n";
  }
  char end_label[64];
  std::snprintf(end_label, sizeof end_label, "%.3f ms", latest);
  std::string scale = "0";
  const std::string end_text(end_label);
  const int gap = width + 2 - static_cast<int>(scale.size()) - static_cast<int>(end_text.size());
  scale += std::string(static_cast<std::size_t>(std::max(gap, 1)), ' ') + end_text;
  out += "  " + pad + " " + scale + "\n";
  out += "  " + pad + " ";
  for (const LegendEntry& entry : legend) out += std::string(1, entry.symbol) + " " + entry.meaning + "   ";
  char column_text[64];
  std::snprintf(column_text, sizeof column_text, "(one column = %.3f ms)\n", per_column);
  out += column_text;
  return out;
}

}  // namespace lab
