/// @file capture_sequence.cuh
/// @brief Exercise 08: capture a stream sequence into a CUDA graph, and replay it.
#pragma once

#include <cuda_runtime.h>

#include <functional>

#include "launch_graphs.cuh"

namespace exercise08 {

/// Work that queues itself on the stream it is given (kernels, copies), and never waits.
using Sequence = std::function<void(cudaStream_t)>;

/// A captured sequence: the graph and its executable form.
struct CapturedSequence {
  ch08::Graph graph;     ///< what the capture recorded
  ch08::GraphExec exec;  ///< the graph, instantiated: what a replay launches
};

/// Records what @p sequence queues on @p stream (not the legacy default
/// stream) into a graph, without running it, and instantiates the graph.
CapturedSequence capture(const Sequence& sequence, cudaStream_t stream);

/// Queues one run of the whole captured sequence on @p stream (does not wait).
void replay(const CapturedSequence& captured, cudaStream_t stream);

}  // namespace exercise08
