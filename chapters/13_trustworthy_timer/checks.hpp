/// @file checks.hpp
/// @brief Chapter 13's checks: the reference harness's verdict on a workload,
/// the readings it compares, and the checks printed after each table. Pure
/// functions of data.hpp, no CUDA header: tests/ch13_checks_test.cpp checks
/// every branch on hand-made data.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch13 {

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
/// The median host time spent inside the callable by the reference harness's calls, NaN when none.
double reference_host_us(const WorkloadRun& w);
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

/// "results_when_idle": every naive call's output matched once the GPU was idle;
/// "naive.<id>.agrees|.off": the naive reading within tolerance_us of the truth, or not.
std::vector<lab::Finding> naive_checks(const GalleryRun& run);

/// "reference_results": every honest call's output matched at the stop event;
/// "honest_holds.<id>": the reading at least CUPTI's less 1 us (a timing check) and
/// "honest_goal.<id>.met|.missed": within tolerance_us of CUPTI's, per honest workload;
/// "adversary_caught.<id>.<branch>": refused or host_bound (a correctness check),
/// or measured within tolerance of the truth (a timing check).
std::vector<lab::Finding> reference_checks(const GalleryRun& run);

/// "sequence_results": both outputs matched; "two_quantities": the per-kernel costs against the lone reading.
std::vector<lab::Finding> sequence_checks(const SequenceRun& run);

}  // namespace ch13
