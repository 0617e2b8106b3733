/// @file graph_timing.cuh
/// @brief Section 4's lesson: timing one kernel node inside a replayed graph.
///
/// A graph of seven dependent additions on n floats (x = a + b, then x += b six
/// times; the fourth kernel has a name of its own, `timed_add`, so that CUPTI's
/// records can be told apart) is captured with an event pair recorded around
/// the fourth kernel by cudaEventRecordWithFlags(..., cudaEventRecordExternal),
/// and a second external pair around nothing (the floor: what a pair reads with
/// no work between). A second graph records the same pair with a plain
/// cudaEventRecord, which during capture only marks a dependency. Each replay
/// is checked against the CPU; CUPTI records the timed node's own duration.
#pragma once

#include <cstdint>

#include "data.hpp"

namespace ch10 {

/// Section 4: @p reps replays of each graph on @p n floats (random, seeded by @p seed).
GraphTimingRun time_node_in_graph(std::int64_t n, int reps, std::uint64_t seed);

}  // namespace ch10
