/// @file graph_options.hpp
/// @brief Chapter 08's command-line options, and the list of graph sizes they give.
#pragma once

#include <cstdint>
#include <vector>

#include "options.hpp"

namespace ch08 {

/// Chapter 08's settings; the initial values are the defaults.
struct GraphOptions {
  std::int64_t n = std::int64_t{1} << 16;   ///< floats per vector of sections 3 and 4: a kernel of a few microseconds
  std::int64_t reps = 20;                   ///< samples per measurement
  std::int64_t queue_launches = 8192;       ///< the most launches section 2 queues into a held stream
  double kernel_us = 20.0;                  ///< each spin kernel of section 2's free-stream run
  std::int64_t max_kernels = 1000;          ///< the largest graph of section 3
  std::int64_t graph_kernels = 100;         ///< K of section 4's graph
  std::int64_t seed = 1;                    ///< random input seed
};

/// Adds chapter 08's options to @p table, bound to @p options (which must outlive the table).
void add_graph_options(lab::Options& table, GraphOptions& options);

/// Section 3's K: 1, 10, 100, 1000 ... up to @p max_kernels, and @p max_kernels itself.
std::vector<int> kernel_counts(std::int64_t max_kernels);

}  // namespace ch08
