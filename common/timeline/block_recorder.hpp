/// @file block_recorder.hpp
/// @brief What the block recorder (block_recorder.cuh) wrote, read on the host:
/// one record per block ({start, end, SM}), a kernel's span, its lanes per SM,
/// and the same records as trace rows (trace.hpp). Plain C++, so the CPU tests
/// check it on hand-made records (tests/common_block_recorder_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace.hpp"

namespace lab {

/// One block's stamps: %globaltimer at its start and at its end, and the SM it ran on.
/// A record still all zero was never written (the block did not run, or the buffer was not cleared).
struct BlockRecord {
  unsigned long long start_ns = 0;  ///< %globaltimer when the block began (ns since an arbitrary epoch)
  unsigned long long end_ns = 0;    ///< %globaltimer when every thread of the block had finished its work
  unsigned int smid = 0;            ///< %smid: the SM the block ran on
  unsigned int written = 0;         ///< 1 once the block wrote its end (0: never ran, or cleared)
  /// Did the block write its record, and does it end at or after its start?
  bool complete() const { return written == 1 && end_ns >= start_ns; }
};

/// One kernel's records, read together.
struct BlockSpan {
  std::size_t blocks = 0;                 ///< records written (written == 1 and end >= start)
  std::size_t missing = 0;                ///< records not written, or ending before they start
  unsigned long long first_start_ns = 0;  ///< the earliest block start (0 when no block was written)
  unsigned long long last_end_ns = 0;     ///< the latest block end
  double span_us = 0;                     ///< last end less first start: the kernel as its blocks saw it
  double median_block_us = 0;             ///< median of end - start over the blocks (NaN when none)
  double max_block_us = 0;                ///< the longest block
  int sms = 0;                            ///< distinct SMs that ran a block
  std::size_t min_blocks_per_sm = 0;      ///< fewest blocks on an SM that ran any
  std::size_t max_blocks_per_sm = 0;      ///< most blocks on one SM
};

/// One SM's share of a kernel: its lane of the timeline.
struct SmLane {
  unsigned int smid = 0;                  ///< the SM
  std::size_t blocks = 0;                 ///< blocks it ran
  unsigned long long first_start_ns = 0;  ///< its first block's start
  unsigned long long last_end_ns = 0;     ///< its last block's end
  double busy_us = 0;                     ///< time during which at least one of its blocks ran (their union)
};

/// Reads @p records (one kernel's, any order).
BlockSpan summarize_blocks(const std::vector<BlockRecord>& records);

/// One lane per SM that ran a written record of @p records, in SM order.
std::vector<SmLane> sm_lanes(const std::vector<BlockRecord>& records);

/// The SMs of @p records' written blocks as a short list of ranges: "0-65, 70, 72-131" ("" when none).
std::string sm_list_text(const std::vector<BlockRecord>& records);

/// Written records as three columns of equal length, in the order of @p records:
/// the figures' and the JSON's form of a block timeline.
struct BlockColumns {
  std::vector<double> start_us;  ///< each block's start, in us after the origin (negative before it)
  std::vector<double> end_us;    ///< each block's end, in us after the origin
  std::vector<double> sm;        ///< each block's SM
};

/// The written records of @p records as columns, in us after @p origin_ns (a %globaltimer reading).
BlockColumns block_columns(const std::vector<BlockRecord>& records, unsigned long long origin_ns);

/// @p records as trace rows: one lab::Interval (Kind::kernel, named @p name) per
/// written block, on the track "SM <id>", in ns after @p origin_ns (a %globaltimer
/// reading, e.g. the first start of the first kernel shown). lab::chrome_trace()
/// turns them into Perfetto's tracks, one per SM (more where blocks overlap on it).
std::vector<Interval> block_intervals(const std::vector<BlockRecord>& records, const std::string& name,
                                      unsigned long long origin_ns, int device = 0);

}  // namespace lab
