/// @file tables.hpp
/// @brief Chapter 10's tables: the data of sections 1, 2, 4 and 5 (data.hpp)
/// as lab::ResultTable, in tables.cpp. They judge nothing; the checks, and the
/// two tables that judge (sections 3 and 6), are checks.hpp's. Plain C++.
#pragma once

#include <string>

#include "data.hpp"
#include "report.hpp"

namespace ch10 {

/// 1. Per kernel time (and to plain's), overlap, wait and mismatches of each stream variant.
lab::ResultTable pdl_stream_table(const ChainRun& run);

/// 1 and 2. Every pair's overlap as the row's samples (table @p id).
lab::ResultTable overlap_table(const std::string& id, const ChainRun& run);

/// 1. The misuse and its fix: mismatches, first bad index, largest error.
lab::ResultTable pdl_misuse_table(const MisuseRun& run);

/// 2. Per kernel time (and to graph_plain's), edges, overlap and mismatches of each graph.
lab::ResultTable pdl_graph_table(const ChainRun& run);

/// Rows external_pair, external_floor, cupti_node, default_pair.
lab::ResultTable graph_timing_table(const GraphTimingRun& run);

/// One row per child ("call / mode"): documented, returned, status after, EndCapture, NULL graph, context.
lab::ResultTable capture_calls_table(const CaptureRun& run);

}  // namespace ch10
