/// @file overlap_model.hpp
/// @brief Chapter 05's model, what its tables print beside each row: plain C++,
/// CPU-tested in tests/ch05_model_test.cpp. The page (README.md, "The lesson
/// code") derives each formula.
///
///   bound          = max(H, D, B, K)                       (1 copy engine: max(H + D, K))
///   pipelined(n)   = h + k + d + (n - 1) * max(h, k, d, b)  (1 copy engine: max(h + d, k)), h = H/n, ...
///   depth first    = ceil(streams / connections) + 1 kernel lengths
///
/// H, D: all the data copied in / out alone; B: both directions at once; K: the
/// kernel over all the data.
#pragma once

#include <string>
#include <vector>

#include "data.hpp"

namespace ch05 {

/// What the model needs, all measured in the same run.
struct LinkAndKernel {
  double h2d_ms = 0;     ///< H: copying all bytes in, alone
  double d2h_ms = 0;     ///< D: copying all bytes out, alone
  double both_ms = 0;    ///< B: copying all bytes in and all bytes out at the same time
  double kernel_ms = 0;  ///< K: the kernel over all the data
  int copy_engines = 2;  ///< the device's asyncEngineCount
};

/// The fastest of @p samples (NaN when there are none): what the bound is made of.
double fastest_of(const std::vector<double>& samples);

/// The model's inputs for @p kernel ("light" or "heavy"), each the median of its samples.
LinkAndKernel typical_inputs(const LinkRun& link, const std::string& kernel);
/// The same, each the fastest of its samples: what the bound is made of.
LinkAndKernel best_inputs(const LinkRun& link, const std::string& kernel);

/// The bound: max(H, D, B, K), or max(H + D, K) with one copy engine.
double overlap_bound_ms(const LinkAndKernel& m);

/// The pipeline over @p chunks equal chunks, fill and drain included; pipelined(1) = H + K + D.
/// Throws std::invalid_argument for chunks < 1.
double pipelined_ms(const LinkAndKernel& m, int chunks);

/// Two kernels per stream queued depth first over @p streams streams that share
/// @p connections work queues round robin: ceil(streams / connections) + 1 kernel
/// lengths. Throws std::invalid_argument unless both are >= 1.
int depth_first_kernel_lengths(int streams, int connections);

}  // namespace ch05
