/// @file tables.hpp
/// @brief Chapter 08's tables: pure functions from the data of data.hpp to the printed tables.
/// tests/ch08_checks_test.cpp tests them on hand-made data.
#pragma once

#include "data.hpp"
#include "report.hpp"

namespace ch08 {

// --- 1. What a launch costs ----------------------------------------------------

/// The three costs and the kernel's own duration, in microseconds, each against the GPU's pace
/// (CUPTI's row with the step its durations come in).
lab::ResultTable launch_cost_table(const LaunchCostRun& run);

// --- 2. The launch queue -------------------------------------------------------

/// Launch calls grouped by how many launches were already queued: median and longest call of each group.
lab::ResultTable queue_fill_table(const QueueFillRun& run);
/// The two cases: launch loop, CPU work, wait, total and GPU time; the loop as a share of the GPU's time, and
/// how much of what the CPU work could share with the GPU's it did.
lab::ResultTable queue_pace_table(const QueuePaceRun& run);

// --- 3. CUDA graphs ------------------------------------------------------------

/// Per K: capture, instantiation, per kernel stream launches against the graph (row "100": the page's
/// benchmark), and after how many replays the graph paid for its making.
lab::ResultTable graph_table(const GraphRun& run);
/// The update against a new instantiation (and the update's result when it was refused).
lab::ResultTable graph_update_table(const GraphRun& run);

// --- 4. Timing microsecond kernels honestly -------------------------------------

/// The four figures side by side, each against CUPTI's (with the step CUPTI's durations come in).
lab::ResultTable honest_timing_table(const HonestTimingRun& run);

// --- 5. Kernel errors arrive later ----------------------------------------------

/// What each call returned, in both runs, and the launch call's cost.
lab::ResultTable fault_table(const FaultRun& run);

}  // namespace ch08
