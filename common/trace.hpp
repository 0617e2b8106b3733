/// @file trace.hpp
/// @brief GPU work as a profiler records it (lab::Interval), drawn two ways:
/// a text chart for the terminal and a Chrome trace-event file for Perfetto.
///
/// The intervals come from lab::TimelineRecorder (cupti_timeline.cuh), which
/// reads CUPTI's activity records; the renderers here are plain C++ on
/// numbers, so the CPU tests check them on hand-made intervals.
///
/// Open a trace file: https://ui.perfetto.dev -> "Open trace file" (or drag the
/// file in), or chrome://tracing -> "Load". One process per device, one track
/// per stream, named as the chapter named its streams.
#pragma once

#include <cstdint>
#include <string>
#include <vector>



namespace lab {

/// One piece of GPU work, or one region of the program's own (a titled span
/// the chapter marks around a variant, so the trace shows what ran when).
struct Interval {
  /// What the GPU did.
  enum class Kind {
    kernel,  ///< a kernel
    memcpy,  ///< a copy
    memset,  ///< a memset
    region,  ///< not GPU work: the chapter's label for a stretch of time (the variant's title)
    host     ///< not GPU work: a span of the host's own, e.g. a host timer running (drawn as 'T')
  };
  Kind kind = Kind::kernel;     ///< what it is
  std::string name;             ///< the kernel's name, or a description of the copy or region
  int device = 0;               ///< the device it ran on
  std::uint32_t stream = 0;     ///< the stream id CUPTI reported
  std::string stream_name;      ///< the chapter's name for that stream, e.g. "stream 3"; for host spans the row's name
  double start_ns = 0;          ///< start, ns after the recording began
  double end_ns = 0;            ///< end, ns after the recording began (>= start_ns)
  std::uint64_t bytes = 0;      ///< bytes copied or set (copies and memsets)
  std::string direction;        ///< copies: "HtoD", "DtoH", "DtoD", "HtoH"; else ""
  std::string host_memory;      ///< copies: "pinned" or "pageable" host memory; else ""
};

/// The character a chart draws for @p interval: 'K' kernel, 'H' host to
/// device, 'D' device to host, 'C' other copies, 'S' memset, 'T' host span, 'R' region.
char chart_symbol(const Interval& interval);

/// Time, in ms, during which at least one interval whose chart symbol is in
/// @p symbols ran (the length of their union: two overlapping copies count once).
/// busy_ms(work, "HD") is how long any copy ran.
double busy_ms(const std::vector<Interval>& intervals, const std::string& symbols);

/// Time, in ms, during which an interval with a symbol in @p first and one with
/// a symbol in @p second both ran (the intersection of their unions).
/// overlap_ms(work, "H", "D") is how long copies in both directions ran at once.
double overlap_ms(const std::vector<Interval>& intervals, const std::string& first, const std::string& second);

/// Draws @p intervals as a text chart at most @p width columns wide (at least
/// 40): one row per stream in the order the streams started work, time from
/// the earliest start to the latest end, a scale and a legend. Where spans of one row share a column, the
/// shorter is drawn, so a short kernel between two long copies stays visible.
/// Host spans get a row of their own (their stream_name); regions are left
/// out. Returns a line saying so when there is nothing to draw.
std::string render_chart(const std::vector<Interval>& intervals, int width = 100);

/// The name of the row or track @p interval belongs to: its stream's name
/// ("stream <id>" if it has none), or "chapter" for a region.
std::string track_name(const Interval& interval);

/// The track each interval goes on: intervals of one device and track name
/// share a track unless they overlap in time, in which case the later one goes
/// on the next track of that name (a stream runs its work in order, but records
/// can overlap by a few ns, and regions may nest). Returns one track number per
/// interval, 0 for a name's first track.
std::vector<int> assign_tracks(const std::vector<Interval>& intervals);

/// The Chrome trace-event JSON of @p intervals: {"traceEvents": [...],
/// "displayTimeUnit": "ns"}, as JSON text. Complete events ("ph": "X") with name, cat
/// ("kernel", "memcpy", "memset", "region", "host"), ts and dur in microseconds,
/// pid = device, tid = one per stream track (assign_tracks), and args (stream,
/// bytes, direction, host memory). Metadata events ("ph": "M") name each
/// process ("device N: @p device_name") and each track (the stream's name,
/// "(2)" for a second track, "chapter" for regions).
std::string chrome_trace(const std::vector<Interval>& intervals, const std::string& device_name);

}  // namespace lab
