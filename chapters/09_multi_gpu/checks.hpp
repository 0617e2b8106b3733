/// @file checks.hpp
/// @brief Chapter 09's checks on the data its experiments return (data.hpp):
/// correctness and timing checks, what was skipped and why, section 1's table
/// of calls against the guide (it judges each row), and the pipeline's bound
/// (a model the tables and checks use). Plain C++ with no CUDA header:
/// tests/ch09_checks_test.cpp checks every branch on hand-made data, on any
/// machine. The tables: tables.hpp.
///
/// A section that needs two GPUs and finds one returns its struct with
/// `skipped` set to the reason; its checks then say that it was skipped and
/// why (lab::skipped), and summary_checks() names every such section ("partly skipped").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch09 {

/// "" when @p devices holds at least two GPUs; otherwise why a two-GPU section is skipped,
/// e.g. "needs 2 GPUs; this machine shows 1".
std::string two_gpu_reason(const DeviceSet& devices);

// --- 1. What belongs to a device -------------------------------------------------

/// Each probe's call, situation, what the guide says, what it returned and whether the two agree: the
/// invalid device on any machine; with two GPUs also the current device per thread, the buffer's device
/// and the calls across devices.
lab::ResultTable ownership_table(const OwnershipRun& run);
/// Checks: the invalid device fails, the copy across devices arrives, the devices are usable afterwards.
std::vector<lab::Finding> ownership_checks(const OwnershipRun& run);

// --- 2. Peer access ----------------------------------------------------------------

/// Nothing with two GPUs or more (the matrix is the table); with one, that peer access was skipped.
std::vector<lab::Finding> peer_matrix_checks(const PeerMatrix& matrix);

/// Correctness, and a timing check (peer copy beats staging through the host).
std::vector<lab::Finding> peer_copy_checks(const PeerCopyRun& run);

// --- 3. Ordering across devices -----------------------------------------------------

/// A correctness check: no stale element with the event (the table shows the runs without it).
std::vector<lab::Finding> ordering_checks(const OrderingRun& run);

// --- 4. Splitting work over GPUs ----------------------------------------------------

/// The bound of a pipeline over @p devices GPUs: the largest of the bytes in
/// over the host-to-device rate, the bytes out over the device-to-host rate
/// (for one GPU its rate alone, for several their rate together) and the
/// kernel's time divided over the GPUs. 0 when a rate is missing.
double pipeline_bound_ms(const PipelineRun& run, int devices);
/// Correctness of each variant; the split skipped on one GPU.
std::vector<lab::Finding> pipeline_checks(const PipelineRun& run);

// --- 5. One GPU only ----------------------------------------------------------------

/// The sections that were skipped in whole or in part, and why: one finding
/// named "partly skipped" (the tour lists it), or one that says every section ran.
std::vector<lab::Finding> summary_checks(const OwnershipRun& ownership, const PeerCopyRun& copies,
                                         const OrderingRun& ordering, const PipelineRun& pipeline);

/// The name of the finding the tour looks for.
inline const char* partly_skipped_name() { return "partly skipped"; }

}  // namespace ch09
