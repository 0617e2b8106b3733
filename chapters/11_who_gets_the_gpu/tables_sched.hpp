/// @file tables_sched.hpp
/// @brief Sections 1, 2 and 6's tables, from the data their experiments return
/// (data.hpp): the measures they print (the recorder's spans, a case's median
/// start delay) and the tables. They judge nothing: checks_sched.hpp does. Plain C++.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch11 {

// --- 1. A block-level timeline -------------------------------------------------------

/// The recorder's span (last end less first start) of each recording launch, in us.
std::vector<double> recorder_spans_us(const BlockTimelineRun& run);

/// 1. The recorder beside CUPTI and events: one row per way of timing, every sample; each recording row
/// against the same timer not recording.
lab::ResultTable block_timer_table(const BlockTimelineRun& run);

/// 1. The last recording launch read block by block: span, SMs, blocks per SM.
lab::ResultTable block_timeline_table(const BlockTimelineRun& run);

// --- 2. Stream priorities -----------------------------------------------------------

/// The case of @p run named @p name, or nullptr.
const UrgentCase* find_case(const PriorityRun& run, const std::string& name);
/// The median start delay of the case named @p name (NaN when it did not run).
double median_delay(const PriorityRun& run, const std::string& name);

/// 2. One row per case: start delay (every sample) and its ratio to equal priority's, launch point, SMs,
/// blocks on full SMs, the longest long block.
lab::ResultTable priority_table(const PriorityRun& run);

// --- 6. Ranges a profiler shows -----------------------------------------------------

/// 6. The cost of a range, every sample, and what the push returned.
lab::ResultTable nvtx_table(const NvtxRun& run);

}  // namespace ch11
