/// @file timeline.hpp
/// @brief Spans of GPU work on a time axis, what overlapped, and a text chart.
///
/// Chapters 04 and 05 read spans from events recorded between the steps of
/// each stream (lab::EventTimeline in event_timeline.cuh) and print them as a
/// chart a learner can read in a terminal:
///
/// @code
///   stream 0 |HHHHKDDDD                    |
///   stream 1 |    HHHHKDDDD                |
/// @endcode
///
/// Everything here is plain C++ on numbers, so the CPU tests check it.
#pragma once

#include <string>
#include <vector>

namespace lab {

/// One piece of work on one track of the chart.
struct Span {
  std::string row;      ///< the track it is drawn on, e.g. "stream 3"
  char symbol = '#';    ///< what it is, e.g. 'H' copy in, 'K' kernel, 'D' copy out
  double begin_ms = 0;  ///< start, in ms after the timeline's origin
  double end_ms = 0;    ///< end, in ms after the timeline's origin (>= begin_ms)
};

/// The symbols of a copy in -> kernel -> copy out chart (chapters 04 and 05).
constexpr char kCopyIn = 'H';   ///< a host-to-device copy
constexpr char kKernel = 'K';   ///< kernel work
constexpr char kCopyOut = 'D';  ///< a device-to-host copy

/// What a symbol stands for, for the chart's legend.
struct LegendEntry {
  char symbol;          ///< the character drawn
  std::string meaning;  ///< e.g. "copy host to device"
};

/// Time covered by at least one span whose symbol is in @p symbols (the length
/// of their union, so two overlapping spans count once).
double busy_ms(const std::vector<Span>& spans, const std::string& symbols);

/// Time during which a span with a symbol in @p first and a span with a symbol
/// in @p second both run: the length of the intersection of their unions.
/// overlap_ms(spans, "H", "D") is how long copies in both directions ran at once.
double overlap_ms(const std::vector<Span>& spans, const std::string& first, const std::string& second);

/// Events around a copy only say when its stream reached the copy and when
/// the copy finished; in between the copy may have waited for the copy engine,
/// busy with another stream's copy. Copies in one direction go through one
/// engine one at a time, so this redraws each span with @p symbol to start no
/// earlier than the previous one (in order of finishing) ended. If the device
/// ran two such copies at once, the redrawn spans share the time between them.
void queue_one_at_a_time(std::vector<Span>& spans, char symbol);

/// queue_one_at_a_time() for both copy directions, kCopyIn and kCopyOut: one
/// copy engine per direction.
void queue_copies_one_at_a_time(std::vector<Span>& spans);

/// The legend of a copy in -> kernel -> copy out chart; @p kernel says what a
/// kernel span is, e.g. "3 kernels".
std::vector<LegendEntry> copy_kernel_copy_legend(const std::string& kernel);

/// Draws @p spans as a text chart: one line per row (in order of first
/// appearance), @p width columns for the time from 0 to the latest end, a
/// scale line and the legend. A span covers every column it touches (at least
/// one); where spans of one row share a column, the shorter span is drawn, so a
/// short kernel between two long copies stays visible.
std::string render_timeline(const std::vector<Span>& spans, const std::vector<LegendEntry>& legend, int width = 72);

}  // namespace lab
