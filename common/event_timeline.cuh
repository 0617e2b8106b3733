/// @file event_timeline.cuh
/// @brief Events recorded between the steps of several streams, read back as
/// lab::Span s on one time axis (see timeline.hpp for the chart).
///
/// @code
///   lab::EventTimeline timeline(streams[0], 64);   // origin: the idle stream 0, now
///   int begin = timeline.mark(s);  copy<<<...>>>;  int end = timeline.mark(s);
///   timeline.span("stream 1", 'H', begin, end);
///   std::vector<lab::Span> spans = timeline.spans();  // waits for every event
/// @endcode
///
/// cudaEventElapsedTime works between events of different streams, so all
/// marks share the origin's clock. Events are created up front: creating one
/// while work is being queued would slow the queueing down.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "stream.cuh"
#include "timeline.hpp"

namespace lab {

/// A fixed number of events on one time axis.
class EventTimeline {
 public:
  /// Records the origin on @p origin_stream, which should be idle so that the
  /// origin comes before everything queued after it; @p capacity marks at most.
  EventTimeline(cudaStream_t origin_stream, int capacity) : events_(static_cast<std::size_t>(capacity)) {
    origin_.record(origin_stream);
  }

  /// Records the next event on @p stream; returns its index for span().
  int mark(cudaStream_t stream) {
    if (used_ >= events_.size()) throw std::logic_error("EventTimeline: more marks than its capacity");
    events_[used_].record(stream);
    return static_cast<int>(used_++);
  }

  /// Declares that @p symbol ran on track @p row between two marks.
  void span(const std::string& row, char symbol, int begin_mark, int end_mark) {
    pending_.push_back({row, symbol, begin_mark, end_mark});
  }

  /// Waits for the marks and returns ms from the origin to mark @p index.
  double ms(int index) {
    events_.at(static_cast<std::size_t>(index)).synchronize();
    return Event::elapsed_ms(origin_, events_[static_cast<std::size_t>(index)]);
  }

  /// Waits for every mark and returns the declared spans, in ms after the origin.
  std::vector<Span> spans() {
    std::vector<Span> result;
    for (const Pending& p : pending_) result.push_back({p.row, p.symbol, ms(p.begin), ms(p.end)});
    return result;
  }

 private:
  struct Pending {
    std::string row;
    char symbol;
    int begin, end;
  };
  Event origin_;
  std::vector<Event> events_;
  std::size_t used_ = 0;
  std::vector<Pending> pending_;
};

}  // namespace lab
