#include "memory_fit.hpp"

#include <cstdio>

namespace lab {

std::string check_memory_fits(const std::string& what, const MemoryNeed& need, std::size_t free_device_bytes,
                              std::size_t available_host_bytes) {
  const double gib = 1024.0 * 1024.0 * 1024.0;
  char message[320];
  if (need.device_bytes > static_cast<double>(free_device_bytes)) {
    std::snprintf(message, sizeof message, "%s needs %.2f GiB of device memory (%s), but only %.2f GiB is free",
                  what.c_str(), need.device_bytes / gib, need.device_parts.c_str(),
                  static_cast<double>(free_device_bytes) / gib);
    return message;
  }
  if (need.host_bytes > static_cast<double>(available_host_bytes)) {
    std::snprintf(message, sizeof message, "%s needs %.2f GiB of host memory (%s), but only %.2f GiB is available",
                  what.c_str(), need.host_bytes / gib, need.host_parts.c_str(),
                  static_cast<double>(available_host_bytes) / gib);
    return message;
  }
  return "";
}

}  // namespace lab
