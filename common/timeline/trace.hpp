/// @file trace.hpp
/// @brief GPU work as lab::TimelineRecorder (cupti_timeline.cuh) records it,
/// drawn as a text chart or as a Chrome trace (open it in https://ui.perfetto.dev).
/// Plain C++, so the CPU tests check it on hand-made intervals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lab {

/// One piece of GPU work, or a span of the program's own.
struct Interval {
  /// What the GPU did.
  enum class Kind {
    kernel,  ///< a kernel
    memcpy,  ///< a copy
    memset,  ///< a memset
    region,  ///< not GPU work: the chapter's label for a stretch of time (the variant's title)
    host     ///< not GPU work: a span of the host's own, e.g. a host timer running (drawn as 'T')
  };
  Kind kind = Kind::kernel;  ///< what it is
  std::string name;          ///< the kernel's name, or a description of the copy or region
  int device = 0;            ///< the device it ran on
  std::uint32_t stream = 0;  ///< the stream id CUPTI reported
  std::string stream_name;   ///< the chapter's name for that stream, e.g. "stream 3"; for host spans the row's name
  double start_ns = 0;       ///< start, ns after the recording began
  double end_ns = 0;         ///< end, ns after the recording began (>= start_ns)
  std::uint64_t bytes = 0;   ///< bytes copied or set (copies and memsets)
  std::string direction;     ///< copies: "HtoD", "DtoH", "DtoD", "HtoH"; else ""
  std::string host_memory;   ///< copies: "pinned" or "pageable" host memory; else ""
};

/// The character a chart draws for @p interval: 'K' kernel, 'H' host to
/// device, 'D' device to host, 'C' other copies, 'S' memset, 'T' host span, 'R' region.
char chart_symbol(const Interval& interval);

/// Time, in ms, during which an interval with a chart symbol in @p symbols ran
/// (their union): busy_ms(work, "HD") is how long any copy ran.
double busy_ms(const std::vector<Interval>& intervals, const std::string& symbols);

/// Time, in ms, during which intervals with symbols in @p first and in @p second
/// both ran: overlap_ms(work, "H", "D") is how long copies ran both ways at once.
double overlap_ms(const std::vector<Interval>& intervals, const std::string& first, const std::string& second);

/// The kernels of @p intervals whose name contains one of @p names (every
/// kernel when @p names is empty), in the order they started.
std::vector<Interval> kernels_named(const std::vector<Interval>& intervals, const std::vector<std::string>& names = {});

/// Draws @p intervals as a text chart at most @p width (>= 40) columns wide: one
/// row per stream in the order they started work, a scale and a legend. Where
/// spans share a column the shorter is drawn; regions are left out.
std::string render_chart(const std::vector<Interval>& intervals, int width = 100);

/// The Chrome trace-event JSON of @p intervals: one complete event ("ph": "X",
/// ts and dur in us) per interval, pid = device, one tid per stream (more where its
/// intervals overlap), and metadata events naming each device and track.
std::string chrome_trace(const std::vector<Interval>& intervals, const std::string& device_name);

}  // namespace lab
