/// @file tables.hpp
/// @brief Chapter 02's tables: pure functions that turn the data (data.hpp) into the tables
/// the chapter prints and writes to its JSON. The columns that judge (what a timer contained,
/// whether a call waited) come from checks.hpp; CPU-tested in tests/ch02_checks_test.cpp.
#pragma once

#include "data.hpp"
#include "report.hpp"

namespace ch02 {

/// Events on a held stream, then one row per case: its readings, the backlog in
/// flight, and what the timer contained (the launch call, or launch + kernel + sync, with the backlog),
/// from the case's readings against the held-stream events' median.
lab::ResultTable host_timer_table(const HostTimerRun& run);
/// One table per setup: whether each call's work runs after the queued work (documented), then what happened.
lab::ResultTable implicit_sync_table(const ImplicitSyncRun& run, WorkSetup setup);
/// The two pieces of work alone, then the two placements beside the longer piece and the sum.
lab::ResultTable placement_table(const Placement& placement);

}  // namespace ch02
