/// @file tables.hpp
/// @brief Chapter 04's tables: pure functions from the data of data.hpp to the
/// printed tables (every number declared once, printed and written to the JSON
/// by lab::Report); they judge nothing (checks.hpp does). CPU-tested in
/// tests/ch04_checks_test.cpp.
#pragma once

#include <string>

#include "data.hpp"
#include "report.hpp"

namespace ch04 {

/// "1 stream", "8 streams".
std::string streams_name(int streams);
/// A default-stream case's name, e.g. "legacy build, blocking A/B, middle on stream 0".
std::string case_name(const DefaultStreamRun& run);

// --- 1. The normalisation ------------------------------------------------------

/// One row: elements, largest relative error, |sum - 1|, the tolerance.
lab::ResultTable first_table(const FirstRun& run);

// --- 2. One stream against many ------------------------------------------------

/// Events: total (median, min, max of the runs) and the per-array median of the median run, per case.
lab::ResultTable streams_table(const StreamsComparison& run);
/// CUPTI: busy time of each copy direction and of the kernels, and what ran beside what, per case.
lab::ResultTable recorded_table(const StreamsComparison& run);
/// CUPTI: each of the three kernels' median duration, from the 1-stream recording.
lab::ResultTable kernel_table(const StreamsComparison& run);

// --- 3. The default stream -----------------------------------------------------

/// Wall time and each kernel's start and end, per case.
lab::ResultTable default_stream_table(const DefaultStreamCases& cases);

// --- 4. A race between two streams ----------------------------------------------

/// Two rows: runs, wrong runs, wrong values in the last run.
lab::ResultTable race_table(const RaceRun& run);

// --- 5. Stream-ordered memory -----------------------------------------------------

/// The normalisation behind queued work, with each kind of temporaries; the call's time as % of the queued work.
lab::ResultTable temporaries_table(const MemoryRun& run);
/// Each allocation call alone: median, min, max, idle and behind queued work (there also as % of that work).
lab::ResultTable allocation_table(const MemoryRun& run);
/// Reserved memory after a sync and the next large cudaMallocAsync, per release threshold, and x UINT64_MAX's.
lab::ResultTable threshold_table(const MemoryRun& run);
/// The four allocations after a pending free: measured? same address? did the allocating stream wait?
/// The note gives the pool's three reuse attributes as read.
lab::ResultTable reuse_table(const MemoryRun& run);

}  // namespace ch04
