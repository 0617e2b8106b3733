#include "memory_fit.hpp"

#include <unistd.h>  // sysconf

#include <cstdio>
#include <fstream>
#include <string>

namespace lab {

std::size_t available_host_memory_bytes() noexcept {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) : 0;
}

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
