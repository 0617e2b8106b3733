/// @file time_in_graph.cuh
/// @brief Exercise 08b: time a kernel of a few microseconds as a graph of many launches.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

namespace exercise08b {

/// Times one run of @p work (a kernel of a few microseconds, queued on the
/// stream it is given; it never waits) as triton's do_bench_cudagraph does:
/// @p launches runs of it are captured into one CUDA graph, and each of
/// @p samples replays of that graph is timed between two events on @p stream
/// (not the legacy default stream) and divided by @p launches. Returns one
/// time per sample, in ms per run of @p work.
std::vector<double> time_in_graph_ms(const std::function<void(cudaStream_t)>& work, cudaStream_t stream, int launches,
                                     int samples);

}  // namespace exercise08b
