/// @file tables_host.hpp
/// @brief Sections 3, 4 and 5's tables, from the data their experiments return
/// (data.hpp). They judge nothing: checks_host.hpp does. Plain C++.
#pragma once

#include "data.hpp"
#include "report.hpp"

namespace ch11 {

// --- 3. Green contexts ------------------------------------------------------------------

/// 3. The urgent kernel's time outside its blocks (and its ratio to idle) and the long kernel's spans.
lab::ResultTable green_table(const GreenRun& run);

// --- 4. Host work inside a stream -------------------------------------------------------

/// 4. Gaps of each way, each against no_host_function's, and the per-kernel time.
lab::ResultTable host_chain_table(const HostChainRun& run);

/// One row per call: returned, the stream's sync after it, or why there is no answer (id "host_call").
lab::ResultTable host_call_table(const HostCallRun& run);

// --- 5. A stream held by a wait on memory -----------------------------------------------

/// 5. The wave's span beside each hold (against the free stream's) and its late blocks.
lab::ResultTable wait_value_table(const WaitValueRun& run);

}  // namespace ch11
