/// @file checks.hpp
/// @brief Chapter 04's checks: pure functions from the data of data.hpp to
/// findings (stable ids), with what they and the tables share (whether a
/// recording is usable, how three kernels ran); every branch CPU-tested in
/// tests/ch04_checks_test.cpp. What the documentation says is on the page.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch04 {

/// Every element of @p c within tolerance and the sum within kNormalizeTolerance of 1.
bool normalisation_passed(const NormalizeCheck& c);
/// One line: the element comparison, the largest relative error and the sum.
std::string normalisation_detail(const NormalizeCheck& c);
/// Every array's result of @p run passed (and there was one).
bool all_arrays_correct(const ArraysRun& run);
/// Did the middle kernel overlap neither A nor B (each started after the previous ended)?
bool serialised(const DefaultStreamRun& run);
/// Did all three kernels run at the same time at some moment?
bool concurrent(const DefaultStreamRun& run);

/// "" when @p recording is usable (recorded, nothing dropped), else why not.
std::string why_unusable(const ArraysRecording& recording);
/// How the three kernels of @p run ran: "one after another", "at once" or "partly overlapped".
std::string what_ran(const DefaultStreamRun& run);

/// Section 1: correctness against the CPU reference.
std::vector<lab::Finding> first_checks(const FirstRun& run);
/// Section 2: correctness of every run; "recorded.skipped" when CUPTI could not record.
std::vector<lab::Finding> streams_checks(const StreamsComparison& run);
/// Section 3: every kernel ran; the legacy stream serialised (a timing check); what the others did is in the table.
std::vector<lab::Finding> default_stream_checks(const DefaultStreamCases& cases);
/// Section 4: the event's fix is always correct (correctness); whether the race showed is in the table.
std::vector<lab::Finding> race_checks(const RaceRun& run);
/// Section 5: correctness with each kind of temporaries, and the pool's attributes restored.
std::vector<lab::Finding> memory_checks(const MemoryRun& run);

}  // namespace ch04
