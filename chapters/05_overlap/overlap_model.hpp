/// @file overlap_model.hpp
/// @brief Chapter 05's model: how long copy in -> kernel -> copy out can take
/// at best, from bandwidths and a kernel time measured in the same run.
///
/// Plain C++ (no GPU), so the CPU tests check it on hand-worked numbers.
///
///   sequential      = H + K + D
///   transfer bound  = max(H, D, B)            with 2+ copy engines (one per direction)
///                   = H + D                   with 1 copy engine (the directions take turns)
///   overlap bound   = max(transfer bound, K)  no schedule beats the busiest resource
///   pipelined(n)    = h + k + d + (n - 1) * max(h, k, d, b)     with h = H/n, k = K/n, d = D/n, b = B/n
///                   = h + k + d + (n - 1) * max(h + d, k)       with 1 copy engine
///
/// where H, D are all the data copied in / out alone, B is both directions at
/// once (the link, or the host's memory, may not carry both at full speed) and
/// K is the kernel over all the data. pipelined(n) is the classic pipeline: the
/// first chunk must be copied in before anything overlaps (fill) and the last
/// one copied out after everything else (drain); in between the slowest stage
/// sets the pace. pipelined(1) is the sequential time, and pipelined(n) falls
/// toward the overlap bound as n grows (per-launch costs are not modelled).
///
/// Given the fastest of several measurements of H, D, B and K, overlap_bound_ms
/// is a lower bound: a schedule must copy every byte in, run the kernel over
/// every element and copy every byte out, and none of these goes faster inside
/// a schedule than alone (chapter 05's findings say so, with the numbers, when
/// a row did beat it).
///
/// The hardware's work queues (section 3): with two spin kernels of length T
/// per stream, queued stream by stream (depth first), streams that share one of
/// the C connections wait for each other: a stream's first kernel cannot leave
/// the queue before the previous stream's second kernel, which waits for that
/// stream's first. With S streams spread round robin over C connections, each
/// queue holds ceil(S / C) streams and the whole takes (ceil(S / C) + 1) T;
/// queued kernel by kernel (breadth first) it takes 2 T whatever S and C.
#pragma once

#include <cstdint>
#include <string>

namespace ch05 {

/// Smallest chunk a schedule may use: 1024 floats (4 KiB). Smaller chunks
/// only measure launch and copy overheads.
constexpr std::int64_t kMinChunkFloats = 1024;

/// "" when @p chunks chunks of @p mib MiB each hold at least kMinChunkFloats
/// floats; else the usage error that names @p option.
std::string too_many_chunks(const std::string& option, std::int64_t chunks, std::int64_t mib);

/// What the model needs, all measured in the same run.
struct LinkAndKernel {
  double bytes = 0;       ///< bytes copied each way
  double h2d_ms = 0;      ///< H: copying all bytes in, alone
  double d2h_ms = 0;      ///< D: copying all bytes out, alone
  double both_ms = 0;     ///< B: copying all bytes in and all bytes out at the same time
  double kernel_ms = 0;   ///< K: the kernel over all the data
  int copy_engines = 2;   ///< the device's asyncEngineCount
};

/// H + K + D: nothing overlaps.
double sequential_ms(const LinkAndKernel& m);

/// The least time the copies alone need: max(H, D, B), or H + D with one copy engine.
double transfer_bound_ms(const LinkAndKernel& m);

/// The least time any schedule needs: max(transfer bound, K).
double overlap_bound_ms(const LinkAndKernel& m);

/// The best time for @p chunks equal chunks, fill and drain included (see the file comment).
/// Throws std::invalid_argument for chunks < 1.
double pipelined_ms(const LinkAndKernel& m, int chunks);

/// Two kernels per stream queued depth first over @p streams streams that share
/// @p connections work queues round robin: how many kernel lengths the whole
/// takes, ceil(streams / connections) + 1. Throws std::invalid_argument unless both are >= 1.
int depth_first_kernel_lengths(int streams, int connections);

}  // namespace ch05
