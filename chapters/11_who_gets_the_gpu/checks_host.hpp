/// @file checks_host.hpp
/// @brief Sections 3, 4 and 5's checks on the data their experiments return
/// (data.hpp), and the readings of block records the lesson makes (span_of,
/// late_blocks, chain_gaps); their tables are tables_host.hpp's. Plain C++:
/// tests/ch11_host_checks_test.cpp checks every branch on hand-made data.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch11 {

/// The first of @p ways whose `name` is @p name, or nullptr.
template <class Way>
const Way* find_named(const std::vector<Way>& ways, const std::string& name) {
  for (const Way& w : ways)
    if (w.name == name) return &w;
  return nullptr;
}

/// Reads @p count records from @p first.
KernelSpan span_of(const BlockRecord* first, std::size_t count);

/// How many of @p records began more than @p after_us after the first of them began.
int late_blocks(const std::vector<BlockRecord>& records, double after_us);

/// Reads @p records of @p kernels kernels of @p blocks blocks each, kernel-major.
ChainGaps chain_gaps(const std::vector<BlockRecord>& records, int kernels, int blocks);

// --- 3. Green contexts ------------------------------------------------------------------

/// 3. green_disjoint, green_long_loss (or green_contexts.skipped).
std::vector<lab::Finding> green_checks(const GreenRun& run);

// --- 4. Host work inside a stream -------------------------------------------------------

/// 4. host_chain_order, and event_thread_gap.skipped when the third way did not run.
std::vector<lab::Finding> host_chain_checks(const HostChainRun& run);

/// host_calls.skipped when the children did not run; nothing else (the table says what each call returned).
std::vector<lab::Finding> host_call_checks(const HostCallRun& run);

// --- 5. A stream held by a wait on memory -----------------------------------------------

/// 5. stream_held (or wait_value.skipped).
std::vector<lab::Finding> wait_value_checks(const WaitValueRun& run);

}  // namespace ch11
