/// @file checks.hpp
/// @brief Chapter 06's checks: pure functions from the data of data.hpp to findings, with their thresholds and
/// the measurements they share with the tables (a series' GB/s, when a call returned, which variant was faster).
/// tests/ch06_checks_test.cpp tests every branch on hand-made data.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch06 {

// --- 1. Copy bandwidth over sizes ----------------------------------------------

/// The row of the experiment's size (--mib), or the largest when it is missing.
const SizeSamples& at_experiment_size(const SweepRun& run);
/// GB/s of one series of copies of @p s's size (median of its samples).
double series_gbps(const SizeSamples& s, const std::vector<double>& ms);
/// Total GB/s of both directions at once: twice the bytes, until the later stop.
double both_total_gbps(const SizeSamples& s);
/// sweep_intact, pinned_faster, benchmark (against the PCIe link), both_directions.
std::vector<lab::Finding> sweep_checks(const SweepRun& run);

// --- 2. The four combinations --------------------------------------------------

/// A call "returned after half the copy" when it returned after more than this share of the copy's time.
constexpr double kReturnedLateShare = 0.5;
/// When the call returned, as a share of when the copy was done (medians).
double returned_share(const CallTiming& c);
/// returned_share(c) > kReturnedLateShare.
bool returned_after_half(const CallTiming& c);
/// calls_intact, pinned_async_returns (a timing check).
std::vector<lab::Finding> calls_checks(const CallsRun& run);

// --- 3. Registering memory the program already has ------------------------------

/// registration_intact.
std::vector<lab::Finding> registration_checks(const std::vector<RegistrationRun>& runs, const UploadRun& upload);

// --- 4. The CPU time a non-blocking copy frees ---------------------------------

/// Copy and CPU work one after the other take copy + cpu; perfectly overlapped, max(copy, cpu): the most an
/// overlap can save is min(copy, cpu). The overlapped order counts as overlapped when it saved at least this
/// share of that (judged against the sum instead, a short CPU work could never pass, nor a long one fail).
constexpr double kOverlapSavedShare = 0.5;
/// cpu_freed_intact, overlap (a timing check: saved at least kOverlapSavedShare of what a perfect overlap saves).
std::vector<lab::Finding> cpu_freed_checks(const CpuFreedRun& run);

// --- 5. Write-combined and mapped memory ----------------------------------------

/// write_combined_intact.
std::vector<lab::Finding> write_combined_checks(const WriteCombinedRun& run);
/// Two times within this share of each other count as the same.
constexpr double kSameShare = 0.05;
/// Which of copy-then-kernel and zero-copy was faster (medians), by how much, or the same within kSameShare.
std::string faster_text(const ZeroCopyPasses& z);
/// zero_copy_exact, unified_addressing (a correctness check of the Runtime API's promise; skipped without it).
std::vector<lab::Finding> zero_copy_checks(const MappedRun& run);

}  // namespace ch06
