/// @file data.hpp
/// @brief What chapter 11's experiments return: sections 1, 2 and 6
/// (block_timeline.cuh, priorities.cuh, nvtx_ranges.cuh) and sections 3, 4 and 5
/// (green_contexts.cuh, host_work.cuh, wait_value.cuh), with the block records'
/// readings the lesson makes (KernelSpan, ChainGaps). Plain structs: the
/// checks_*.hpp judge them, the tables_*.hpp print them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "block_recorder.hpp"
#include "verify.hpp"

namespace ch11 {

/// What one block of a timed kernel wrote: the course's block record
/// (common/timeline/block_recorder.hpp): %globaltimer at its start and end, its %smid.
using BlockRecord = lab::BlockRecord;

/// One kernel's blocks read together: from its first block's start to its last block's end.
struct KernelSpan {
  unsigned long long first_start_ns = 0;  ///< the earliest start
  unsigned long long last_end_ns = 0;     ///< the latest end
  int missing = 0;                        ///< blocks whose record is not complete()
  std::vector<unsigned> sms;              ///< the distinct SMs its blocks ran on, ascending
  double us() const { return static_cast<double>(last_end_ns - first_start_ns) * 1e-3; }  ///< the span in us
};

/// The gaps of a chain: kernel k+1's first start less kernel k's last end, for each pair.
struct ChainGaps {
  std::vector<double> gaps_us;  ///< one per pair (< 0: k+1 began before k ended)
  double per_kernel_us = 0;     ///< from kernel 0's first start to the last kernel's last end, / K
  int missing = 0;              ///< blocks with no record
};

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

// --- 3. Green contexts ------------------------------------------------------------------

/// Section 3: the SMs split into a small and a large green context.
struct GreenRun {
  bool skipped = false;                 ///< not run (no green contexts on this driver or GPU)
  std::string skip_reason;              ///< why
  int sm_count = 0;                     ///< SMs of the GPU
  int asked_sms = 0;                    ///< --green-sms
  int small_sms = 0;                    ///< what cuDevSmResourceSplitByCount gave the small part
  int large_sms = 0;                    ///< the remainder, the large part
  int min_partition_sms = 0;            ///< sm.minSmPartitionSize of the device's resource
  int alignment_sms = 0;                ///< sm.smCoscheduledAlignment
  int long_blocks = 0;                  ///< the long kernel's blocks
  int blocks_per_sm = 0;                ///< of the long kernel (occupancy)
  double long_block_us = 0;             ///< each long block's spin
  int urgent_blocks = 0;                ///< the urgent kernel's blocks
  double urgent_block_us = 0;           ///< each urgent block's spin
  std::vector<double> idle_delay_us;    ///< urgent kernel alone in the small part: start delay
  std::vector<double> green_delay_us;   ///< urgent in the small part, the long kernel in the large part
  std::vector<double> shared_delay_us;  ///< both in the primary context, the long kernel on every SM
  std::vector<double> long_all_us;      ///< the long kernel's span on every SM (primary context)
  std::vector<double> long_large_us;    ///< the same kernel's span in the large part
  int long_sms_used = 0;                ///< distinct SMs of the long kernel in the large part (all samples)
  int urgent_sms_used = 0;              ///< distinct SMs of the urgent kernel in the small part (all samples)
  int shared_sms = 0;                   ///< SMs used by both (all samples): 0 when the parts are disjoint
};

// --- 4. Host work inside a stream -------------------------------------------------------

/// One way of running the chain: its gaps over every sample.
struct HostChainVariant {
  std::string name;                   ///< "no_host_function", "host_function", "event_thread"
  bool skipped = false;               ///< not run (event_thread needs stream memory operations)
  std::string skip_reason;            ///< why
  std::vector<double> gaps_us;        ///< every pair of every sample
  std::vector<double> per_kernel_us;  ///< one per sample
  int missing = 0;                    ///< block records not written, all samples
  long long host_calls = 0;           ///< host functions (or releases by the host thread) that ran
  long long host_calls_expected = 0;  ///< (K - 1) x samples, or 0
};

/// Section 4: a chain of K short kernels, three ways.
struct HostChainRun {
  int kernels = 0;                         ///< K
  int blocks = 0;                          ///< blocks per kernel
  double kernel_us = 0;                    ///< each kernel's spin
  bool held = true;                        ///< each sample was queued behind a held stream
  std::vector<HostChainVariant> variants;  ///< in the order run
};

/// One CUDA call made inside a host function, in a child process of its own.
struct HostCallProbe {
  std::string call;        ///< host_calls.cuh's name for it
  std::string returned;    ///< the call's cudaError_t name ("-" if the host function never ran)
  std::string sync_after;  ///< what cudaStreamSynchronize of the host function's stream returned
  bool finished = false;   ///< the child printed its line
  std::string why_not;     ///< why not (stopped after the timeout, or a crash)
};

/// Section 4's second half: every call of host_call_names().
struct HostCallRun {
  bool skipped = false;               ///< not run
  std::string skip_reason;            ///< why
  double timeout_s = 0;               ///< each child's time limit
  std::vector<HostCallProbe> probes;  ///< one per call
};

// --- 5. A stream held by a wait on memory -----------------------------------------------

/// One way of holding stream A while a full wave runs on stream B.
struct WaveWay {
  std::string name;                 ///< "stream_free", "spin_blocker", "wait_value"
  std::vector<double> wave_us;      ///< the wave kernel's span, one per sample
  std::vector<double> late_blocks;  ///< its blocks that began after half a block's time, one per sample
  int held = 0;                     ///< samples whose kernel behind the hold began after the wave ended
  int samples = 0;                  ///< samples taken
  int missing = 0;                  ///< block records not written
};

/// Section 5: the wave kernel beside a held stream.
struct WaitValueRun {
  bool skipped = false;       ///< not run (no stream memory operations)
  std::string skip_reason;    ///< why
  int sm_count = 0;           ///< SMs
  int blocks_per_sm = 0;      ///< of the wave kernel (occupancy)
  int threads = 0;            ///< per block
  double block_us = 0;        ///< each block's spin
  std::vector<WaveWay> ways;  ///< stream_free, spin_blocker, wait_value
};

// --- 6. Ranges a profiler shows -----------------------------------------------------

/// Section 6: nvtxRangePushA / nvtxRangePop pairs timed on the host.
struct NvtxRun {
  int pairs_per_sample = 0;          ///< push/pop pairs per timed sample
  std::vector<double> per_range_ns;  ///< host time per pair, one per sample
  int push_result = 0;               ///< what nvtxRangePushA returned (-2: no tool tracks ranges)
  int pop_result = 0;                ///< what the matching nvtxRangePop returned
};

}  // namespace ch11
