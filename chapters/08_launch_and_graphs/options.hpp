/// @file options.hpp
/// @brief Chapter 08's command-line options, their memory need, and the
/// settings main passes on to the lesson.
#pragma once

#include <cstdint>
#include <vector>

#include "command_line.hpp"
#include "memory_fit.hpp"

namespace ch08 {

/// Chapter 08's settings; the initial values are the defaults.
struct Options {
  std::int64_t n = std::int64_t{1} << 16;  ///< floats per vector of sections 3 and 4: a kernel of a few microseconds
  std::int64_t reps = 20;                  ///< samples per measurement
  std::int64_t queue_launches = 8192;      ///< the most launches section 2 queues into a held stream
  double kernel_us = 20.0;                 ///< each spin kernel of section 2's free-stream run
  std::int64_t max_kernels = 1000;         ///< the largest graph of section 3
  std::int64_t graph_kernels = 100;        ///< K of section 4's graph
  std::int64_t seed = 1;                   ///< random input seed
};

/// Adds chapter 08's options to @p table, bound to @p o (which must outlive the table).
void add_options(lab::Options& table, Options& o);

/// Device and host memory of the largest section (3: two chains of additions on n floats).
lab::MemoryNeed memory_need(const Options& o);

/// Section 1's samples: --reps, but at least 100 (a launch call takes microseconds; its spread needs many).
int launch_cost_samples(const Options& o);

/// Section 1's kernels queued behind the held stream per sample: well below the
/// queue's depth (section 2), or the held stream would time out.
constexpr int kBackToBack = 100;
/// Section 2: a launch call still running after this long is waiting for room in the queue.
constexpr double kStallMs = 100.0;
/// Section 2: the launches of the free-stream run below the queue's depth.
constexpr std::int64_t kFewLaunches = 16;

/// Section 3's K: 1, 10, 100, 1000 ... up to @p max_kernels, and @p max_kernels itself.
std::vector<int> kernel_counts(std::int64_t max_kernels);

}  // namespace ch08
