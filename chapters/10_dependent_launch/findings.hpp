/// @file findings.hpp
/// @brief Chapter 10's data and the pure functions that turn it into tables and
/// findings: what each section's lesson returns (dependent_chain.cuh,
/// decide.cuh, graph_timing.cuh, capture_rules.cuh, queue_scale.cuh), the
/// tables and findings made from it (findings_pdl.cpp for sections 1-2,
/// findings_graphs.cpp for 3-4, findings_children.cpp for 5-6), and the one
/// line each child of sections 5 and 6 prints to report its run (a JSON object,
/// nlohmann-json, at the end of findings_children.cpp). Plain C++: tests/ch10_pdl_findings_test.cpp,
/// ch10_graphs_findings_test.cpp and ch10_children_findings_test.cpp check every
/// branch on hand-made data, tests/ch10_replay_test.cpp on the kept runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report.hpp"
#include "verify.hpp"

namespace ch10 {

/// The first of @p rows whose `name` is @p name, or nullptr.
template <class Row>
const Row* find_named(const std::vector<Row>& rows, const std::string& name) {
  for (const Row& row : rows)
    if (row.name == name) return &row;
  return nullptr;
}

// --- 1 and 2. PDL in a stream and in a graph ---------------------------------

/// What one block of one chain kernel wrote: three readings of %globaltimer (ns).
struct BlockStamps {
  unsigned long long start_ns = 0;   ///< the block's first instruction
  unsigned long long waited_ns = 0;  ///< after cudaGridDependencySynchronize() (the preamble before it)
  unsigned long long end_ns = 0;     ///< after its last store
};

/// One way of running the K-kernel chain: its samples, its stamps, its results.
struct ChainVariant {
  std::string name;                   ///< "plain", "pdl", "pdl_early_trigger", "graph_plain", ...
  std::vector<double> per_kernel_us;  ///< events around the K kernels (or the graph launch) / K, one per sample
  std::vector<BlockStamps> stamps;    ///< the last sample's, kernel-major: stamps[k * blocks + block]
  int edges = -1;                     ///< graphs: edges of the graph (cudaGraphGetEdges); -1: not a graph
  int programmatic_edges = -1;        ///< graphs: programmatic ones, type and port (count_edges)
  int results_checked = 0;            ///< samples whose result was compared with the CPU
  std::size_t mismatches = 0;         ///< wrong elements over all of them
  std::string wrong;                  ///< the first wrong result ("" when all were right)
};

/// Sections 1 and 2: the chain in a stream, or as graphs; skipped below compute capability 9.0.
struct ChainRun {
  bool skipped = false;                ///< not run (the GPU has no programmatic dependent launch)
  std::string skip_reason;             ///< why
  std::int64_t n = 0;                  ///< floats per buffer
  int kernels = 0;                     ///< K
  int blocks = 0;                      ///< blocks per kernel (as many as SMs)
  double preamble_us = 0;              ///< each kernel's work before its wait
  bool held = true;                    ///< the stream was held while the K launches were queued (section 1)
  std::vector<ChainVariant> variants;  ///< in the order run
};

/// One kernel pair of the misuse demonstration: a primary that writes late, a PDL secondary.
struct MisuseCase {
  std::string name;  ///< "read_before_wait", "never_waits", "read_after_wait"; "_held" after: behind a held stream
  lab::Comparison result;  ///< the secondary's output against the CPU
  double lead_us = 0;  ///< the latest primary block's store start less the secondary's first block start (> 0: before)
};

/// Section 1's misuse and its fix; skipped below 9.0 and under --instrumented.
struct MisuseRun {
  bool skipped = false;           ///< not run
  std::string skip_reason;        ///< why
  double delay_us = 0;            ///< how long the primary waits, after its trigger, before it writes
  std::vector<MisuseCase> cases;  ///< read_before_wait, never_waits, read_after_wait, then the three _held
  std::string held_why_not;       ///< why the _held cases are missing ("" when they ran)
};

/// What a chain's stamps say, pair by pair of consecutive kernels.
struct StampSummary {
  std::vector<double> overlap_us;  ///< per pair k, k+1: max end(k) - min start(k+1); > 0: k+1 began before k ended
  double waited_us = 0;            ///< median over blocks of kernels 1..K-1 of waited - start (preamble included)
  double step_us = 0;              ///< the smallest non-zero difference between two stamps: the timer's step
  int pairs_overlapped = 0;        ///< pairs whose overlap exceeds one step
};

/// Reads @p stamps of @p kernels kernels of @p blocks blocks each (empty when the sizes disagree).
StampSummary summarize_stamps(const std::vector<BlockStamps>& stamps, int kernels, int blocks);

/// 1. Per kernel time (and to plain's), overlap, wait and mismatches of each stream variant.
lab::ResultTable pdl_stream_table(const ChainRun& run);
/// 1 and 2. Every pair's overlap as the row's samples (table @p id).
lab::ResultTable overlap_table(const std::string& id, const ChainRun& run);
/// 1. The misuse and its fix: mismatches, first bad index, largest error.
lab::ResultTable pdl_misuse_table(const MisuseRun& run);
/// 1. chain_correct, blocks_started_early (an observation), pdl_benchmark (or pdl_stream.skipped).
std::vector<lab::Finding> pdl_stream_findings(const ChainRun& run);
/// 1. pdl_fix_correct and pdl_fix_correct_held (or pdl_misuse.skipped, pdl_misuse_held.skipped).
std::vector<lab::Finding> pdl_misuse_findings(const MisuseRun& run);

/// 2. Per kernel time (and to graph_plain's), edges, overlap and mismatches of each graph.
lab::ResultTable pdl_graph_table(const ChainRun& run);
/// 2. graph_chain_correct, captured_edges_programmatic, pdl_graph_benchmark (or pdl_graph.skipped).
std::vector<lab::Finding> pdl_graph_findings(const ChainRun& run);

// --- 3. A graph that decides ---------------------------------------------------

/// One way of controlling the Jacobi solve: the same two kernels, another control.
struct JacobiWay {
  std::string name;                      ///< "host_loop", "graph_per_step" or "while_node"
  std::vector<double> total_ms;          ///< host time of each timed solve, first call to the end of the last wait
  std::vector<double> host_call_ms;      ///< per solve: time inside CUDA calls, the final wait left out
  std::vector<std::int64_t> iterations;  ///< sweeps of each solve (timed ones and the CUPTI one)
  std::int64_t host_calls = 0;           ///< CUDA calls the host made for one solve
  std::vector<double> cupti_kernel_us;   ///< CUPTI: both kernels' durations summed, per sweep; empty when missing
  std::string cupti_missing;             ///< why cupti_kernel_us is empty
  int results_checked = 0;               ///< solves compared with the CPU, bit for bit
  std::string wrong;                     ///< the first wrong result ("" when every one was right)
};

/// The Jacobi solve three ways.
struct JacobiRun {
  std::int64_t n = 0;               ///< unknowns
  double tolerance = 0;             ///< stop when no unknown moved more than this in a sweep
  std::int64_t max_iterations = 0;  ///< or after this many sweeps
  std::int64_t cpu_iterations = 0;  ///< sweeps the CPU reference made
  std::vector<JacobiWay> ways;      ///< host_loop, graph_per_step, while_node
};

/// Per way: sweeps, time per sweep, the kernels' share (CUPTI) and the rest, host calls.
lab::ResultTable jacobi_table(const JacobiRun& run);
/// jacobi_identical (bit for bit the CPU's) and while_overhead (besides the kernels, against the host loop).
std::vector<lab::Finding> jacobi_findings(const JacobiRun& run);

// --- 4. Timing inside a graph --------------------------------------------------

/// One kernel node timed inside a replayed graph, four ways.
struct GraphTimingRun {
  std::int64_t n = 0;  ///< floats per buffer
  std::string
      external_returned;  ///< cudaEventElapsedTime on the pair around the node (first failure, else cudaSuccess)
  std::vector<double> external_us;  ///< external event pair around the node, per replay
  std::vector<double> floor_us;     ///< external event pair around nothing, per replay
  std::string floor_returned;       ///< cudaEventElapsedTime on the floor pair (first failure, else cudaSuccess)
  std::vector<double> cupti_us;     ///< CUPTI's duration of the node, per replay; empty when missing
  std::string cupti_missing;        ///< why cupti_us is empty
  std::string default_returned;     ///< cudaEventElapsedTime on the pair recorded without the flag
  std::vector<double> default_us;   ///< what it gave, when it returned cudaSuccess
  int results_checked = 0;          ///< replays compared with the CPU
  std::string wrong;                ///< the first wrong result
};

/// Rows external_pair, external_floor, cupti_node, default_pair.
lab::ResultTable graph_timing_table(const GraphTimingRun& run);
/// graph_timing_correct, external_pair_brackets (the pair contains the node), graph_timing_benchmark.
std::vector<lab::Finding> graph_timing_findings(const GraphTimingRun& run);

// --- 5. What stream capture forbids --------------------------------------------

/// One call made while a stream captured, as ch10_capture_child reported it.
struct CaptureProbe {
  std::string mode;          ///< "global", "thread_local", "relaxed", or "none" (the call needs no capture)
  std::string call;          ///< e.g. "malloc" (capture_call_names() lists them)
  bool measured = false;     ///< false: the child did not run, or did not report
  std::string why_not;       ///< why not measured
  std::string returned;      ///< cudaGetErrorName of what the call returned
  std::string status_after;  ///< cudaStreamIsCapturing after it: "active", "invalidated", "none" (or its error)
  std::string end_capture;   ///< cudaGetErrorName of cudaStreamEndCapture; "-" when nothing was captured
  bool graph_null = false;   ///< cudaStreamEndCapture gave a NULL graph
  std::string context;  ///< "cudaSuccess" when a kernel, a copy and a sync after it all worked; else the first error
};

/// Every (mode, call) child, in order, or why they were skipped.
struct CaptureRun {
  bool skipped = false;              ///< not run (an instrumented run)
  std::string skip_reason;           ///< why
  std::vector<CaptureProbe> probes;  ///< one per child
};

/// What the documentation says of a call made during capture in a mode.
enum class Documented { prohibited, allowed, not_stated };
/// The documented verdict for @p call in @p mode (the page's section 5 quotes the sentences).
Documented documented(const std::string& mode, const std::string& call);

/// One row per child ("call / mode"): documented, returned, status after, EndCapture, NULL graph, context.
lab::ResultTable capture_calls_table(const CaptureRun& run);
/// Three checks: the calls against the documentation (capture_as_documented), the context after every
/// child (context_survives), what a refused call did to the capture (invalidation).
std::vector<lab::Finding> capture_findings(const CaptureRun& run);

// --- 6. The launch queue's depth -----------------------------------------------

/// One ch10_queue_child run: chapter 08's fill_launch_queue under one CUDA_SCALE_LAUNCH_QUEUES value.
struct QueueScaleProbe {
  std::string value;               ///< the value set ("": the variable removed, the driver's default)
  bool measured = false;           ///< false: the child did not run, or did not report
  std::string why_not;             ///< why not measured
  std::string seen;                ///< what the child read from its environment ("": unset)
  std::int64_t launches = 0;       ///< the most launches it queued into the held stream
  std::int64_t depth = -1;         ///< launches that returned before the first call that waited; -1: none waited
  double median_call_us = 0;       ///< median launch call before that one
  double blocked_call_ms = 0;      ///< how long the waiting call took (the holding kernel's release ends it)
  bool holding_timed_out = false;  ///< the holding kernel gave up before it was released (depth not valid)
};

/// Every value's child, in order (the unset one first), or why they were skipped.
struct QueueScaleRun {
  bool skipped = false;                 ///< not run (an instrumented run)
  std::string skip_reason;              ///< why
  std::vector<QueueScaleProbe> probes;  ///< one per value
};

/// The documented factor of @p value: 0.25, 0.5, 2 or 4, and 1 for anything else (the unset variable included).
double documented_ratio(const std::string& value);

/// One row per value: what the child read, the depth, its ratio to the unset depth, the documented ratio,
/// whether the two agree within 10 % ("as documented": yes / no).
lab::ResultTable queue_scale_table(const QueueScaleRun& run);
/// queue_scale.skipped when the children did not run; else none (the table says it).
std::vector<lab::Finding> queue_scale_findings(const QueueScaleRun& run);

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
