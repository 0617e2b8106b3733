/// @file tables.hpp
/// @brief Chapter 03's tables: pure functions that turn the data (data.hpp) into the tables the
/// chapter prints and writes to its JSON, one per section. No CUDA header:
/// tests/ch03_checks_test.cpp checks every column they compute.
#pragma once

#include "data.hpp"
#include "report.hpp"

namespace ch03 {

/// Table "stopwatch": events and host timer side by side.
lab::ResultTable stopwatch_table(const StopwatchRun& run);
/// Table "event_costs": the three costs in microseconds, and the smallest difference between two empty-pair readings.
lab::ResultTable event_cost_table(const EventCostRun& run);
/// Table "waits": wall and CPU time of each way, its wait call, the flag in force, and whether the
/// thread spun (CPU / wall from 50 %) or slept (below 20 %).
lab::ResultTable wait_table(const WaitRun& run);
/// Table "free_host": kernel, host time, polls, CPU work.
lab::ResultTable free_host_table(const FreeHostRun& run);
/// Table "bracketing": the three placements, in microseconds.
lab::ResultTable bracketing_table(const BracketingRun& run);
/// Table "launch_gap_<option>": each method's events beside CUPTI's duration of the same launches.
lab::ResultTable launch_gap_table(const LaunchGapSize& size);
/// Table "many_streams": each stream's pair, the whole two ways, one kernel alone, and that times the streams.
lab::ResultTable many_streams_table(const ManyStreamsRun& run);
/// Table "wrong_stream": every timer of the same launches, beside the host timer.
lab::ResultTable wrong_stream_table(const WrongStreamRun& run);

}  // namespace ch03
