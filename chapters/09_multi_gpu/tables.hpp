/// @file tables.hpp
/// @brief Chapter 09's tables, from the data its experiments return (data.hpp):
/// every number declared once, printed and written to the JSON by lab::Report.
/// They judge nothing (the checks, and section 1's table of calls against the
/// guide, are checks.hpp's). Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch09 {

/// The rate of moving @p bytes in the median of @p ms, in GB/s; NaN without samples.
double rate_gbps(double bytes, const std::vector<double>& ms);
/// The runs of @p stale that read at least one stale element.
std::int64_t stale_runs(const std::vector<std::int64_t>& stale);
/// The sum of @p v.
std::int64_t total(const std::vector<std::int64_t>& v);

/// One row per device in use: its ordinal and name, and how many the machine shows.
lab::ResultTable devices_table(const DeviceSet& devices);

// --- 2. Peer access ----------------------------------------------------------------

/// The NVLink version an nvmlNvlinkVersion_t value stands for ("4.0" for 6).
std::string nvlink_version_text(int nvml_version);
/// Per device: can it access each other device, its NVLinks; and, when NVML
/// reported pairs, the link of each pair (table "links").
std::vector<lab::ResultTable> peer_matrix_tables(const PeerMatrix& matrix);

/// Each way of moving the bytes: time, GB/s and the rate against peer access on; none when the section was skipped.
std::vector<lab::ResultTable> peer_copy_tables(const PeerCopyRun& run);

// --- 3. Ordering across devices -----------------------------------------------------

/// The two ways, with stale elements per run; none when the section was skipped.
std::vector<lab::ResultTable> ordering_tables(const OrderingRun& run);

// --- 4. Splitting work over GPUs ----------------------------------------------------

/// Each GPU's host link alone and all at once (that rate as a share of the sum of the rates alone).
lab::ResultTable host_link_table(const HostLinkRun& link);
/// Each variant: time, bound, the fastest run against its bound, speed-up over one GPU and what the bounds allow.
lab::ResultTable pipeline_table(const PipelineRun& run);

}  // namespace ch09
