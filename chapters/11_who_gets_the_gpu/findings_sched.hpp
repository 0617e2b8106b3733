/// @file findings_sched.hpp
/// @brief Sections 1, 2 and 6's data (what block_timeline.cuh, priorities.cuh
/// and nvtx_ranges.cuh return) and the pure functions that turn it into tables
/// and findings. Plain C++: tests/ch11_sched_findings_test.cpp checks every
/// branch on hand-made data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "block_recorder.hpp"
#include "report.hpp"
#include "verify.hpp"

namespace ch11 {

// --- 1. A block-level timeline -------------------------------------------------------

/// Section 1: the add kernel c = a + b, each sample launched once without and once
/// with its blocks recording, the pair queued behind a held stream.
struct BlockTimelineRun {
  std::int64_t n = 0;                      ///< floats per vector
  int blocks = 0;                          ///< blocks of each launch
  int threads = 0;                         ///< threads per block
  bool held = true;                        ///< the stream was held while each pair was queued
  std::vector<double> plain_cupti_us;      ///< CUPTI's duration of each launch that did not record
  std::vector<double> recorded_cupti_us;   ///< CUPTI's duration of each launch that recorded
  std::vector<double> plain_events_us;     ///< events around each launch that did not record
  std::vector<double> recorded_events_us;  ///< events around each launch that recorded
  std::vector<lab::BlockSpan> spans;       ///< every recording launch's records, read (summarize_blocks)
  std::vector<lab::BlockRecord> last;      ///< the last recording launch's records
  std::string cupti_missing;               ///< why there are no CUPTI durations ("" when there are)
  lab::Comparison result;                  ///< c against the CPU's a + b after the loop
};

/// The recorder's span (last end less first start) of each recording launch, in us.
std::vector<double> recorder_spans_us(const BlockTimelineRun& run);

/// 1. The recorder beside CUPTI and events: one row per way of timing, every sample; each recording row
/// against the same timer not recording.
lab::ResultTable block_timer_table(const BlockTimelineRun& run);
/// 1. The last recording launch read block by block: span, SMs, blocks per SM.
lab::ResultTable block_timeline_table(const BlockTimelineRun& run);
/// 1. block_add_correct, block_records_complete, recorder_vs_cupti (or recorder_vs_cupti.skipped).
std::vector<lab::Finding> block_timeline_findings(const BlockTimelineRun& run);

// --- 2. Stream priorities -----------------------------------------------------------

/// One way of launching the urgent kernel, sampled several times.
struct UrgentCase {
  std::string name;                        ///< "idle", "equal_priority", "greatest_priority", "launch_attribute"
  int priority = 0;                        ///< the priority the urgent kernel was launched with
  bool loaded = true;                      ///< the long kernel was running (false: "idle")
  std::vector<double> delay_us;            ///< first urgent block start less the launch, per sample (NaN: unseen)
  std::vector<double> launched_after_us;   ///< the launch less the long kernel's first block start, per sample
  std::vector<lab::BlockRecord> urgent;    ///< the last sample's urgent blocks
  std::vector<lab::BlockRecord> long_run;  ///< the last sample's long-kernel blocks (empty when idle)
  std::size_t missing = 0;                 ///< blocks of every sample, urgent and long, that recorded nothing
};

/// Section 2: an urgent kernel launched while a long low-priority kernel fills the GPU.
struct PriorityRun {
  bool skipped = false;           ///< not run
  std::string skip_reason;        ///< why
  int least = 0;                  ///< cudaDeviceGetStreamPriorityRange: the least priority (the largest number)
  int greatest = 0;               ///< and the greatest (the smallest number)
  int threads = 0;                ///< threads per block, both kernels
  int resident_per_sm = 0;        ///< blocks of that size one SM holds at once (the occupancy API)
  int long_blocks = 0;            ///< the long kernel's blocks: waves x resident_per_sm x SMs
  int long_waves = 0;             ///< waves of them: from 2, blocks are pending while the first wave runs
  double long_block_us = 0;       ///< each long block's spin
  int urgent_blocks = 0;          ///< the urgent kernel's blocks
  double urgent_block_us = 0;     ///< each urgent block's spin
  std::string attribute_missing;  ///< why "launch_attribute" was not run ("" when it was)
  std::vector<UrgentCase> cases;  ///< idle, equal_priority, greatest_priority[, launch_attribute]
};

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

/// 2. One row per case: start delay (every sample) and its ratio to equal priority's, launch point, SMs,
/// blocks on full SMs, the longest long block.
lab::ResultTable priority_table(const PriorityRun& run);
/// 2. priority_records_complete, priority_shortens_delay (an observation: priorities are a hint), and
/// launch_attribute_priority.skipped when that case did not run (or priorities.skipped).
std::vector<lab::Finding> priority_findings(const PriorityRun& run);

// --- 6. Ranges a profiler shows -----------------------------------------------------

/// Section 6: nvtxRangePushA / nvtxRangePop pairs timed on the host.
struct NvtxRun {
  int pairs_per_sample = 0;          ///< push/pop pairs per timed sample
  std::vector<double> per_range_ns;  ///< host time per pair, one per sample
  int push_result = 0;               ///< what nvtxRangePushA returned (-2: no tool tracks ranges)
  int pop_result = 0;                ///< what the matching nvtxRangePop returned
};

/// 6. The cost of a range, every sample, and what the push returned.
lab::ResultTable nvtx_table(const NvtxRun& run);

}  // namespace ch11
