/// @file findings_host.hpp
/// @brief Sections 3, 4 and 5's data (what green_contexts.cuh, host_work.cuh and
/// wait_value.cuh return) and the pure functions that turn it into tables and
/// findings. Plain C++: tests/ch11_host_findings_test.cpp checks every branch on
/// hand-made data.
#pragma once

#include <string>
#include <vector>

#include "block_recorder.hpp"
#include "report.hpp"

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

/// Reads @p count records from @p first.
KernelSpan span_of(const BlockRecord* first, std::size_t count);

/// How many of @p records began more than @p after_us after the first of them began.
int late_blocks(const std::vector<BlockRecord>& records, double after_us);

/// The gaps of a chain: kernel k+1's first start less kernel k's last end, for each pair.
struct ChainGaps {
  std::vector<double> gaps_us;  ///< one per pair (< 0: k+1 began before k ended)
  double per_kernel_us = 0;     ///< from kernel 0's first start to the last kernel's last end, / K
  int missing = 0;              ///< blocks with no record
};

/// Reads @p records of @p kernels kernels of @p blocks blocks each, kernel-major.
ChainGaps chain_gaps(const std::vector<BlockRecord>& records, int kernels, int blocks);

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

/// 3. The urgent kernel's time outside its blocks (and its ratio to idle) and the long kernel's spans.
lab::ResultTable green_table(const GreenRun& run);
/// 3. green_disjoint, green_long_loss (or green_contexts.skipped).
std::vector<lab::Finding> green_findings(const GreenRun& run);

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

/// 4. Gaps of each way, each against no_host_function's, and the per-kernel time.
lab::ResultTable host_chain_table(const HostChainRun& run);
/// 4. host_chain_order, and event_thread_gap.skipped when the third way did not run.
std::vector<lab::Finding> host_chain_findings(const HostChainRun& run);

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
/// One row per call: returned, the stream's sync after it, or why there is no answer (id "host_call").
lab::ResultTable host_call_table(const HostCallRun& run);
/// host_calls.skipped when the children did not run; nothing else (the table says what each call returned).
std::vector<lab::Finding> host_call_findings(const HostCallRun& run);

// --- 5. A stream that waits without an SM -----------------------------------------------

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

/// 5. The wave's span beside each hold (against the free stream's) and its late blocks.
lab::ResultTable wait_value_table(const WaitValueRun& run);
/// 5. stream_held (or wait_value.skipped).
std::vector<lab::Finding> wait_value_findings(const WaitValueRun& run);

}  // namespace ch11
