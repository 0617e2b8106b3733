/// @file dependent_chain.cuh
/// @brief Sections 1 and 2's lesson: a chain of K dependent small kernels,
/// launched plain and with programmatic dependent launch (PDL), in a stream and
/// as graphs, and what a read before cudaGridDependencySynchronize() does.
///
/// The chain is chapter 08's: kernel 0 writes x = a + b, kernel k > 0 writes
/// x = x + b, ping-ponging two buffers, so the result a + K b (the same float
/// additions in the same order as the CPU's) shows that every kernel ran after
/// its predecessor's data was there. As many blocks as SMs (the scheduler usually,
/// not by guarantee, spreads them one per SM), so that the blocks of kernel k + 1
/// can be resident beside those of kernel k. Each block stamps %globaltimer at its
/// start, after its wait and at its end.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"
#include "device.cuh"
#include "launch_graphs.cuh"
#include "memory.cuh"

namespace ch10 {

/// How kernel k > 0 of a chain is launched (kernel 0 always plain: its predecessor is not a chain kernel).
enum class Launch {
  plain,             ///< cudaLaunchKernelEx with no attribute: kernel k + 1 starts after kernel k completes
  pdl,               ///< with cudaLaunchAttributeProgrammaticStreamSerialization, the trigger implicit
  pdl_early_trigger  ///< the same, and every block calls cudaTriggerProgrammaticLaunchCompletion() after its preamble
};

/// The name a table gives @p how: "plain", "pdl", "pdl_early_trigger".
const char* launch_name(Launch how);

/// Was the chain's kernel compiled for compute capability 9.0 or later for the current device
/// (cudaFuncAttributes::ptxVersion >= 90)? Below that its cudaGridDependencySynchronize() compiles away.
bool pdl_built();

/// Can the chain use programmatic dependent launch here: compute capability 9.0 or later, and a build
/// whose kernels hold the wait (pdl_built())? When not, @p reason says why.
bool pdl_supported(std::string* reason);

/// The arguments of the chain's kernel, chain_step, in its parameters' order.
struct StepArgs {
  const float* in;        ///< the predecessor's output (a for kernel 0)
  const float* b;         ///< the addend
  float* out;             ///< this kernel's output
  std::int64_t n;         ///< floats
  long long preamble_ns;  ///< the spin before the wait
  int trigger_early;      ///< 1: cudaTriggerProgrammaticLaunchCompletion() after the preamble
  BlockStamps* stamps;    ///< this kernel's row of stamps, one per block
};

/// K dependent additions on two ping-pong buffers, with per-block stamps.
class DependentChain {
 public:
  /// @p n random floats per vector (seeded by @p seed), @p kernels kernels of 256-thread
  /// blocks, as many as @p device has SMs, each spinning @p preamble_us before its wait.
  DependentChain(std::int64_t n, int kernels, double preamble_us, std::uint64_t seed, const lab::DeviceInfo& device);
  /// Queues kernel @p k on @p stream, launched as @p how says (cudaLaunchKernelEx).
  void launch(int k, Launch how, cudaStream_t stream);
  /// chain_step's arguments for kernel @p k launched as @p how says (a graph's kernel node points at them).
  StepArgs args(int k, Launch how);
  /// Fills both buffers with NaN on @p stream.
  void poison(cudaStream_t stream);
  /// Downloads the last kernel's output (call once the stream is idle) and compares it exactly with the CPU's.
  lab::Comparison check() const;
  /// Downloads every block's stamps of the last run.
  std::vector<BlockStamps> stamps() const;
  int kernels() const { return kernels_; }  ///< K
  int blocks() const { return blocks_; }    ///< blocks per kernel

 private:
  std::int64_t n_;
  int kernels_, blocks_;
  long long preamble_ns_;
  std::vector<float> expected_;
  lab::DeviceBuffer<float> a_, b_, x_[2];
  lab::DeviceBuffer<BlockStamps> stamps_;
};

/// Records kernels 0..K-1 of @p chain, launched as @p how says on @p stream, into a graph.
ch08::Graph capture_chain(DependentChain& chain, Launch how, cudaStream_t stream);

/// Builds the chain's graph by hand: K kernel nodes, each joined to the one
/// before by a programmatic edge (cudaGraphAddNode with cudaGraphEdgeData).
ch08::Graph build_chain_with_edges(DependentChain& chain);

/// The edges of @p graph: how many, and how many are what a captured PDL launch gives (the guide's
/// table): type cudaGraphDependencyTypeProgrammatic from port cudaGraphKernelNodePortProgrammatic.
void count_edges(cudaGraph_t graph, int& edges, int& programmatic);

/// Queues the misuse demonstration's primary on @p stream: a kernel that
/// triggers its dependents at once, waits @p delay_ns, then writes out = in + b
/// (CCCL's trick to expose a missing cudaGridDependencySynchronize()).
/// It zeroes @p stored_at, then thread 0 of every block raises it (atomicMax) to %globaltimer when
/// that block's stores begin: it holds the latest block's store start.
void launch_late_writer(const float* in, const float* b, float* out, std::int64_t n, int blocks, long long delay_ns,
                        unsigned long long* stored_at, cudaStream_t stream);

/// The most kernels queued behind a held stream: the launch queue holds about a
/// thousand (chapter 08), and a launch that waits for room would wait for the hold.
inline constexpr int kMaxHeldKernels = 500;

/// 1. The chain behind a held stream (up to kMaxHeldKernels kernels, and not when
/// @p instrumented: a tool's work per launch can outlast any hold), @p samples
/// times per Launch, every result checked.
ChainRun run_pdl_stream(std::int64_t n, int kernels, double preamble_us, int samples, std::uint64_t seed,
                        bool instrumented, const lab::DeviceInfo& device);

/// 1. A PDL secondary that reads its input before its wait, one that never waits, and one that reads it after,
/// each launched behind launch_late_writer while it runs, one element per thread of as many blocks as SMs (all
/// resident at once); then the three again with both kernels queued behind a held stream ("_held"). Every
/// kernel runs once before. Skipped when @p instrumented (a sanitizer serialises the kernels).
MisuseRun run_pdl_misuse(std::uint64_t seed, bool instrumented, const lab::DeviceInfo& device);

/// 2. The chain captured plain and with PDL, and built by hand with programmatic
/// edges, each replayed @p samples times, every replay checked.
ChainRun run_pdl_graph(std::int64_t n, int kernels, double preamble_us, int samples, std::uint64_t seed,
                       const lab::DeviceInfo& device);

}  // namespace ch10
