/// @file event_options.hpp
/// @brief Chapter 03's command-line options, and the memory check they need
/// once the GPU is known.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "options.hpp"

namespace ch03 {

/// Chapter 03's settings; the initial values are the defaults.
struct EventOptions {
  std::int64_t n = std::int64_t{1} << 20;  ///< the small kernel: 1Mi floats, about 5 us on an H100, launch-gap sized
  std::int64_t n_large = std::int64_t{32} << 20;   ///< the large kernel: 32 times as many floats
  std::int64_t reps = 20;                          ///< samples per measurement
  double kernel_ms = 20.0;                         ///< the long kernel of sections 1, 3 and 4
  std::int64_t streams = 4;                        ///< streams in section 7
  std::int64_t stream_n = std::int64_t{16} << 20;  ///< floats per vector in each of those streams
  std::int64_t seed = 1;                           ///< random input seed
};

/// Adds chapter 03's options to @p table, bound to @p options (which must outlive the table).
void add_event_options(lab::Options& table, EventOptions& options);

/// Do the arrays of every section fit? Device: a, b and c of both kernel sizes
/// and of every stream, the copy's destination and the L2 flush buffer (twice
/// @p l2_bytes). Host: the inputs and the CPU's answers, and the pinned copy
/// source. Returns "" when they fit, else the message for lab::UsageError.
std::string check_memory(const EventOptions& options, std::size_t l2_bytes, std::size_t free_device_bytes,
                         std::size_t available_host_bytes);

}  // namespace ch03
