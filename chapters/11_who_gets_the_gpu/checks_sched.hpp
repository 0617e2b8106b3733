/// @file checks_sched.hpp
/// @brief Sections 1, 2 and 6's checks on the data their experiments return
/// (data.hpp), and the reading of section 2's block records they use; their
/// tables are tables_sched.hpp's. Plain C++: tests/ch11_sched_checks_test.cpp
/// checks every branch on hand-made data.
#pragma once

#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch11 {

// --- 1. A block-level timeline -------------------------------------------------------

/// 1. block_add_correct, block_records_complete, recorder_vs_cupti (or recorder_vs_cupti.skipped).
std::vector<lab::Finding> block_timeline_checks(const BlockTimelineRun& run);

// --- 2. Stream priorities -----------------------------------------------------------

/// What a case's records say about its urgent blocks against the long kernel's on the same SMs.
struct PreemptionSummary {
  int urgent_blocks = 0;       ///< urgent blocks read
  int started_on_full_sm = 0;  ///< of them, those that began while resident_per_sm long blocks ran on their SM
  double slot_wait_us = 0;     ///< median: urgent start less the last long block end before it on its SM
  double longest_long_us = 0;  ///< the longest long block (one paused for an urgent block would run longer)
  int sms = 0;                 ///< distinct SMs the urgent blocks ran on
};

/// Reads @p c's last sample; @p resident_per_sm long blocks fill an SM.
PreemptionSummary read_preemption(const UrgentCase& c, int resident_per_sm);

/// 2. priority_records_complete, priority_shortens_delay (an observation: priorities are a hint), and
/// launch_attribute_priority.skipped when that case did not run (or priorities.skipped).
std::vector<lab::Finding> priority_checks(const PriorityRun& run);

}  // namespace ch11
