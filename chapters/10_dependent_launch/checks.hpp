/// @file checks.hpp
/// @brief Chapter 10's checks: the pure functions that judge the data each
/// section's lesson returns (data.hpp), split by section (checks_pdl.cpp for
/// sections 1-2, checks_graphs.cpp for 3-4, checks_children.cpp for 5-6), the
/// two tables that judge as they report (jacobi_table's "= CPU", queue_scale_table's
/// "as documented"), and the one line each child of sections 5 and 6 prints to
/// report its run (a JSON object, nlohmann-json, at the end of checks_children.cpp).
/// Plain C++: tests/ch10_pdl_checks_test.cpp, ch10_graphs_checks_test.cpp and
/// ch10_children_checks_test.cpp check every branch on hand-made data,
/// tests/ch10_replay_test.cpp on the kept runs. The other tables: tables.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch10 {

/// The first of @p rows whose `name` is @p name, or nullptr.
template <class Row>
const Row* find_named(const std::vector<Row>& rows, const std::string& name) {
  for (const Row& row : rows)
    if (row.name == name) return &row;
  return nullptr;
}

// --- 1 and 2. PDL in a stream and in a graph ---------------------------------

/// What a chain's stamps say, pair by pair of consecutive kernels.
struct StampSummary {
  std::vector<double> overlap_us;  ///< per pair k, k+1: max end(k) - min start(k+1); > 0: k+1 began before k ended
  double waited_us = 0;            ///< median over blocks of kernels 1..K-1 of waited - start (preamble included)
  double step_us = 0;              ///< the smallest non-zero difference between two stamps: the timer's step
  int pairs_overlapped = 0;        ///< pairs whose overlap exceeds one step
};

/// Reads @p stamps of @p kernels kernels of @p blocks blocks each (empty when the sizes disagree).
StampSummary summarize_stamps(const std::vector<BlockStamps>& stamps, int kernels, int blocks);

/// 1. chain_correct, blocks_started_early (an observation), pdl_benchmark (or pdl_stream.skipped).
std::vector<lab::Finding> pdl_stream_checks(const ChainRun& run);
/// 1. pdl_fix_correct and pdl_fix_correct_held (or pdl_misuse.skipped, pdl_misuse_held.skipped).
std::vector<lab::Finding> pdl_misuse_checks(const MisuseRun& run);

/// 2. graph_chain_correct, captured_edges_programmatic, pdl_graph_benchmark (or pdl_graph.skipped).
std::vector<lab::Finding> pdl_graph_checks(const ChainRun& run);

// --- 3. A graph that decides ---------------------------------------------------

/// Per way: sweeps, time per sweep, the kernels' share (CUPTI) and the rest, host calls.
lab::ResultTable jacobi_table(const JacobiRun& run);
/// jacobi_identical (bit for bit the CPU's) and while_overhead (besides the kernels, against the host loop).
std::vector<lab::Finding> jacobi_checks(const JacobiRun& run);

// --- 4. Timing inside a graph --------------------------------------------------

/// graph_timing_correct, external_pair_brackets (the pair, less the floor, against the node), graph_timing_benchmark.
std::vector<lab::Finding> graph_timing_checks(const GraphTimingRun& run);

// --- 5. What stream capture forbids --------------------------------------------

/// What the documentation says of a call made during capture in a mode.
enum class Documented { prohibited, allowed, not_stated };
/// The documented verdict for @p call in @p mode (the page's section 5 quotes the sentences).
Documented documented(const std::string& mode, const std::string& call);

/// Three checks: the calls against the documentation (capture_as_documented), the context after every
/// child (context_survives), what a refused call did to the capture (invalidation).
std::vector<lab::Finding> capture_checks(const CaptureRun& run);

// --- 6. The launch queue's depth -----------------------------------------------

/// The documented factor of @p value: 0.25, 0.5, 2 or 4, and 1 for anything else (the unset variable included).
double documented_ratio(const std::string& value);

/// One row per value: what the child read, the depth, its ratio to the unset depth, the documented ratio,
/// whether the two agree within 10 % ("as documented": yes / no).
lab::ResultTable queue_scale_table(const QueueScaleRun& run);
/// queue_scale.skipped when the children did not run; else none (the table says it).
std::vector<lab::Finding> queue_scale_checks(const QueueScaleRun& run);

// --- 5 and 6. The children's lines ----------------------------------------------

/// The capture modes, as the child's --mode takes them: global, thread_local, relaxed.
const std::vector<std::string>& capture_mode_names();
/// The calls made during capture, as the child's --call takes them, in the table's order.
const std::vector<std::string>& capture_call_names();
/// The call made with no capture at all (its mode is "none"): cudaEventRecordWithFlags(External).
extern const char kOutsideCaptureCall[];
/// The CUDA_SCALE_LAUNCH_QUEUES values section 6 tries, unset ("") first; "3x" is not a documented value.
const std::vector<std::string>& queue_scale_values();

/// The line ch10_capture_child prints: its name, then a JSON object of what it measured, e.g.
/// `ch10_capture_child {"call":"malloc","context":"cudaSuccess","end_capture":"cudaErrorStreamCaptureInvalidated",
/// "graph_null":true,"mode":"global","returned":"cudaErrorStreamCaptureUnsupported","status_after":"invalidated"}`.
std::string capture_line(const CaptureProbe& probe);
/// Reads such a line from @p text into @p into (measured = true). Returns false,
/// leaving @p into as it was, when @p text holds no complete line.
bool read_capture_line(const std::string& text, CaptureProbe& into);

/// The line ch10_queue_child prints: its name, then a JSON object of what it measured (seen "": unset), e.g.
/// `ch10_queue_child {"blocked_call_ms":100.4,"depth":2045,"holding_timed_out":false,"launches":16384,
/// "median_call_us":2.1,"seen":"2x"}`.
std::string queue_line(const QueueScaleProbe& probe);
/// Reads such a line from @p text into @p into (measured = true); false, leaving @p into as it was, when none.
bool read_queue_line(const std::string& text, QueueScaleProbe& into);

}  // namespace ch10
