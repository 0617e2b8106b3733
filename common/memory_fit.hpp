/// @file memory_fit.hpp
/// @brief Does a size the user asked for fit in the memory there is?
///
/// A chapter checks its size options once the device is known (its free memory
/// comes from cudaMemGetInfo) and turns a "no" into a usage error (exit 2)
/// before allocating anything, so that `--n 1Ti` is a clear message rather than
/// a failed cudaMalloc half-way through a run.
#pragma once

#include <cstddef>
#include <string>

namespace lab {

/// Host memory available to this process now, in bytes: Linux's MemAvailable
/// (free memory plus what the page cache can give back), else the physical
/// memory. Chapters check large sizes against it before they allocate.
std::size_t available_host_memory_bytes() noexcept;

/// Memory a size option asks for, and what it is made of (for the message).
struct MemoryNeed {
  double device_bytes = 0;   ///< device memory the run allocates
  std::string device_parts;  ///< e.g. "a, b and c: 3 x n floats"
  double host_bytes = 0;     ///< host memory the run allocates (pinned or not)
  std::string host_parts;    ///< e.g. "4 x n floats"
};

/// Checks a size option against the memory there is. Returns "" when it fits,
/// else a message for lab::UsageError (exit 2) naming @p what (e.g. "--n 4Gi"),
/// the GiB needed and the GiB free.
std::string check_memory_fits(const std::string& what, const MemoryNeed& need, std::size_t free_device_bytes,
                              std::size_t available_host_bytes);

}  // namespace lab
