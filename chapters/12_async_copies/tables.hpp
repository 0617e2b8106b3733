/// @file tables.hpp
/// @brief The tables every section prints, from the data its experiments
/// return (data.hpp): each run's bandwidth and row name, its ratio to
/// sync_staged, and sections 1-4's tables. No judgement: the checks are
/// checks_*.hpp's. Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checks_stages.hpp"
#include "data.hpp"
#include "report.hpp"

namespace ch12 {

/// Bytes the kernel and the copy move for @p n floats: n read, n written (chapter 01's copy_bytes).
double bytes_moved(std::int64_t n);
/// The median of @p r's samples in GB/s over bytes_moved(n) (NaN without samples).
double run_gbps(const ConfigRun& r, std::int64_t n);
/// The copy's median in GB/s.
double copy_gbps(const Sweep& s);
/// A row name: "pipeline x2 @ 8/SM, w4".
std::string run_label(const ConfigRun& r);
/// @p r's bandwidth / sync_staged's at the same point and work in @p s (NaN when that did not run).
double vs_sync_staged(const Sweep& s, const ConfigRun& r);

// --- 1. One staged kernel, four ways ---------------------------------------------

/// One row per run of @p s (@p id "versions", "stage_sweep" or "work_sweep"): tile, threads, shared memory,
/// registers, resident blocks, median, GB/s, % of the copy, against sync_staged at the same point and work,
/// values checked, exact (and, for the JSON, version, stages, point, work, or why a row was skipped).
lab::ResultTable sweep_table(const std::string& id, const std::string& title, const Sweep& s);

// --- 2. Against the copy ---------------------------------------------------------

/// The copy alone: bytes, median, GB/s, the working set against the L2.
lab::ResultTable copy_table(const Sweep& s);

// --- 3. Where each block waits ------------------------------------------------------

/// Per run: point, version, stages, per tile wait / compute / copy, wait share.
lab::ResultTable stamps_table(const StampsRun& s);

// --- 4. A model of the stages ------------------------------------------------------

/// Predicted, measured, error in %.
lab::ResultTable model_table(const std::vector<ModelRow>& rows);

}  // namespace ch12
