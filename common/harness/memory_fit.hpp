/// @file memory_fit.hpp
/// @brief Does a size the user asked for fit in the memory there is? Checked
/// before allocating, so `--n 1Ti` is a usage error (exit 2), not a failed cudaMalloc.
#pragma once

#include <cstddef>
#include <string>

namespace lab {

/// Host memory available now, in bytes: Linux's MemAvailable (free memory plus
/// what the page cache can give back), else the physical memory.
std::size_t available_host_memory_bytes() noexcept;

/// Memory a size option asks for, and what it is made of (for the message).
struct MemoryNeed {
  double device_bytes = 0;   ///< device memory the run allocates
  std::string device_parts;  ///< e.g. "a, b and c: 3 x n floats"
  double host_bytes = 0;     ///< host memory the run allocates (pinned or not)
  std::string host_parts;    ///< e.g. "4 x n floats"
  std::string what;          ///< the options it comes from, e.g. "--n 64Mi"
};

/// "" when @p need fits in @p free_device_bytes and @p available_host_bytes,
/// else the message for lab::UsageError (need.what names the options).
std::string check_memory_fits(const MemoryNeed& need, std::size_t free_device_bytes, std::size_t available_host_bytes);

/// "" when @p need fits, else a message for lab::UsageError naming @p what
/// (e.g. "--n 4Gi"), the GiB needed and the GiB free.
std::string check_memory_fits(const std::string& what, const MemoryNeed& need, std::size_t free_device_bytes,
                              std::size_t available_host_bytes);

}  // namespace lab
