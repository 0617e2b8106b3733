/// @file findings_pdl.hpp
/// @brief Sections 1 and 2's data (what dependent_chain.cuh returns) and the
/// pure functions that turn it into tables and findings. Plain C++:
/// tests/ch10_pdl_findings_test.cpp checks every branch on hand-made data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report.hpp"
#include "verify.hpp"

namespace ch10 {

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

}  // namespace ch10
