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

#include <cstddef>
#include <string>
#include <vector>

namespace ch05 {

/// The three schedules of NVIDIA's async.cu.
enum class Schedule { sequential, v1_per_chunk, v2_per_stage };

/// A short name: "sequential", "V1", "V2".
const char* schedule_name(Schedule schedule);

/// One chunk of a schedule: floats [offset, offset + count) of the data.
struct Chunk {
  std::size_t offset = 0;                                      ///< first float
  std::size_t count = 0;                                       ///< floats (0 for a chunk past the end)
  std::size_t bytes() const { return count * sizeof(float); }  ///< bytes one copy of it moves
};

/// Chunk @p i of @p n floats split into @p chunks: ceil(n / chunks) floats
/// each, the last ones shorter (or empty) when @p chunks does not divide @p n.
/// Throws std::invalid_argument unless 0 <= i < chunks.
Chunk chunk_of(std::size_t n, int chunks, int i);

/// What the model needs, all measured in the same run.
struct LinkAndKernel {
  double bytes = 0;      ///< bytes copied each way
  double h2d_ms = 0;     ///< H: copying all bytes in, alone
  double d2h_ms = 0;     ///< D: copying all bytes out, alone
  double both_ms = 0;    ///< B: copying all bytes in and all bytes out at the same time
  double kernel_ms = 0;  ///< K: the kernel over all the data
  int copy_engines = 2;  ///< the device's asyncEngineCount
};

/// The copies and the kernels alone, each sampled before and after the sweep
/// (section 1): the measurements the model is made of.
struct LinkRun {
  double bytes = 0;              ///< bytes copied each way
  int copy_engines = 2;          ///< the device's asyncEngineCount
  std::vector<double> h2d_ms;    ///< all bytes copied in, alone
  std::vector<double> d2h_ms;    ///< all bytes copied out, alone
  std::vector<double> both_ms;   ///< all bytes in and all bytes out at the same time (two streams)
  std::vector<double> light_ms;  ///< the light kernel (1 step) over all the data
  std::vector<double> heavy_ms;  ///< the heavy kernel over all the data
  int heavy_steps = 1;           ///< the heavy kernel's steps
  bool heavy_calibrated = true;  ///< steps chosen so it takes about as long as the copy in
};

/// The fastest of @p samples (NaN when there are none): what a lower bound is made of.
double fastest_of(const std::vector<double>& samples);

/// The model's inputs for @p kernel ("light" or "heavy"), each the median of its samples.
LinkAndKernel typical_inputs(const LinkRun& link, const std::string& kernel);
/// The same, each the fastest of its samples: what the lower bound is made of.
LinkAndKernel best_inputs(const LinkRun& link, const std::string& kernel);

/// H + K + D: nothing overlaps.
double sequential_ms(const LinkAndKernel& m);

/// The least time the copies alone need: max(H, D, B), or H + D with one copy engine.
double transfer_bound_ms(const LinkAndKernel& m);

/// The least time any schedule needs: max(transfer bound, K).
double overlap_bound_ms(const LinkAndKernel& m);

/// The term of overlap_bound_ms that sets it: "kernel" (K), "one_engine" (H + D with one
/// copy engine), "both_directions" (B), "copy_in" (H) or "copy_out" (D), in that order of precedence.
std::string bound_term(const LinkAndKernel& m);

/// The best time for @p chunks equal chunks, fill and drain included (see the file comment).
/// Throws std::invalid_argument for chunks < 1.
double pipelined_ms(const LinkAndKernel& m, int chunks);

/// Two kernels per stream queued depth first over @p streams streams that share
/// @p connections work queues round robin: how many kernel lengths the whole
/// takes, ceil(streams / connections) + 1. Throws std::invalid_argument unless both are >= 1.
int depth_first_kernel_lengths(int streams, int connections);

}  // namespace ch05
