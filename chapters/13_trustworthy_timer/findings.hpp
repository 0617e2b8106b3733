/// @file findings.hpp
/// @brief Chapter 13's data (what gallery.cuh and harness.cuh return) and the
/// pure functions that turn it into tables and checks. No CUDA header:
/// tests/ch13_findings_test.cpp checks every branch on hand-made data.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "report.hpp"
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

/// The reference harness's verdict on one workload.
struct Verdict {
  std::string branch;  ///< "measured", "host_bound", "refused.unwritten", "refused.stale", "refused.queued",
                       ///< "refused.not_held"
  std::string reason;  ///< in words, for the table
  bool refused() const { return branch.rfind("refused", 0) == 0; }  ///< did it refuse to give a time?
};

/// The verdict from the calls: refused when any call was not held, left its
/// output unwritten or stale at the stop event, or left work queued; host_bound
/// when the callable's host time is over kHostBoundFactor times its GPU window
/// and over kHostBoundMinUs; else measured.
Verdict reference_verdict(const WorkloadRun& w);
inline constexpr double kHostBoundFactor = 10.0;  ///< host time over GPU window that flags a CPU-bound call
inline constexpr double kHostBoundMinUs = 100.0;  ///< ... and at least this much host time

/// The reference harness's reading: the median window less the median empty pair, in µs.
double reference_reading_us(const WorkloadRun& w, const std::vector<double>& empty_pair_us);
/// CUPTI's median span of the reference harness's calls, NaN when not recorded.
double reference_cupti_us(const WorkloadRun& w);
/// What the call really ran, by CUPTI in the naive loop: the median span, or the first call's span.
double truth_us(const WorkloadRun& w);
/// The naive pair's reading compared with truth_us: the median, or the first call.
double naive_reading_us(const WorkloadRun& w);

/// How far a harness reading may lie from CUPTI's: 10 % of CUPTI's reading (the
/// chapter's goal) plus 1 µs (two event readings subtracted, each with the
/// resolution of about 0.5 µs that cudaEventElapsedTime documents).
double tolerance_us(double cupti_us);

/// Table "naive": each workload's naive pair against CUPTI's reading of the same calls.
lab::ResultTable naive_table(const GalleryRun& run);
/// "results_when_idle": every naive call's output matched once the GPU was idle;
/// "naive.<id>.agrees|.off": the naive reading within tolerance_us of the truth, or not.
std::vector<lab::Finding> naive_findings(const GalleryRun& run);

/// Table "reference": each workload's reference reading, CUPTI's, the tolerance and the verdict.
lab::ResultTable reference_table(const GalleryRun& run);
/// "reference_results": every honest call's output matched at the stop event;
/// "honest_within_tolerance.<id>": a timing check per honest workload;
/// "adversary_caught.<id>.<branch>": refused or host_bound (a correctness check),
/// or measured within tolerance of the truth (a timing check).
std::vector<lab::Finding> reference_findings(const GalleryRun& run);

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

/// Table "sequence": lone, stream sequence and graph, each beside CUPTI.
lab::ResultTable sequence_table(const SequenceRun& run);
/// "sequence_results": both outputs matched; "two_quantities": the per-kernel costs against the lone reading.
std::vector<lab::Finding> sequence_findings(const SequenceRun& run);

}  // namespace ch13
