/// @file data.hpp
/// @brief Chapter 13's data: what gallery.cuh and harness.cuh return (the
/// readings of each timer, CUPTI's record beside them). Plain structs, no CUDA
/// header: checks.hpp judges them and tables.hpp prints them.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "verify.hpp"

namespace ch13 {

/// What the output held when the reference harness's stop event had completed.
enum class OutputAtStop {
  matched,    ///< equal to the CPU's answer for this call's inputs
  unwritten,  ///< some elements still hold the poison (NaN)
  stale       ///< every element written, but not the answer for these inputs
};

/// One call timed by the reference harness.
struct ReferenceCall {
  double window_us = 0;                         ///< start to stop, every declared stream forked and joined
  double host_us = 0;                           ///< host time spent inside the callable
  OutputAtStop output = OutputAtStop::matched;  ///< the output, read once the stop event completed
  bool queued_after_stop = false;               ///< a declared stream still had work after the stop event
  bool held = true;                             ///< false: the holding kernel gave up before the call was queued
  double cupti_span_us = 0;                     ///< CUPTI: first start to last end of the call's kernels and copies
  bool cupti = false;                           ///< was cupti_span_us recorded?
};

/// One workload of the gallery, timed by a naive event pair and by the reference harness.
struct WorkloadRun {
  std::string id;                           ///< stable, e.g. "side_stream"
  std::string name;                         ///< e.g. "work on a side stream, joined late"
  bool honest = true;                       ///< false: an adversary
  bool naive_reads_first = false;           ///< the naive pair is compared on its first call (a first launch)
  bool truth_from_first_call = false;       ///< the true time is the first call's work (later calls skip it)
  std::vector<double> naive_us;             ///< the naive pair, one reading per call
  std::vector<double> naive_cupti_span_us;  ///< CUPTI's span of each of those calls (all its GPU work)
  std::vector<double> naive_cupti_busy_us;  ///< CUPTI's sum of the durations of the same work
  std::size_t naive_matched = 0;            ///< naive calls whose output matched the CPU once the GPU was idle
  std::vector<ReferenceCall> reference;     ///< the reference harness's calls
  std::string cupti_missing;                ///< why CUPTI recorded nothing ("" when it did)
};

/// The gallery as both timers read it.
struct GalleryRun {
  std::vector<WorkloadRun> workloads;  ///< in the gallery's order
  std::vector<double> empty_pair_us;   ///< two events back to back behind a held stream
};

/// A short kernel's two quantities: its lone duration, and its cost in a sequence.
struct SequenceRun {
  std::string workload;                                             ///< the workload's name
  int kernels = 0;                                                  ///< K, the calls in a sequence
  double lone_us = std::numeric_limits<double>::quiet_NaN();        ///< the reference harness's reading of one call
  double lone_cupti_us = std::numeric_limits<double>::quiet_NaN();  ///< CUPTI's span of those calls
  std::vector<double> stream_us;        ///< K calls queued behind a held stream, events around them, / K
  std::vector<double> stream_cupti_us;  ///< CUPTI's sum of their kernels / K
  std::vector<double> graph_us;         ///< a CUDA graph of the K calls, one launch, / K
  std::vector<double> graph_cupti_us;   ///< CUPTI's sum of its kernels / K
  lab::Comparison stream_result;        ///< the output after the stream sequences
  lab::Comparison graph_result;         ///< the output after the graph launches
  std::string cupti_missing;            ///< why CUPTI recorded nothing ("" when it did)
};

}  // namespace ch13
