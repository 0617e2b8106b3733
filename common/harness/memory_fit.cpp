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
  const auto too_much = [&](double needed, std::size_t there, const char* memory, const std::string& parts,
                            const char* there_is) {
    const double gib = 1024.0 * 1024.0 * 1024.0;
    char message[320];
    std::snprintf(message, sizeof message, "%s needs %.2f GiB of %s memory (%s), but only %.2f GiB %s", what.c_str(),
                  needed / gib, memory, parts.c_str(), static_cast<double>(there) / gib, there_is);
    return std::string(message);
  };
  if (need.device_bytes > static_cast<double>(free_device_bytes))
    return too_much(need.device_bytes, free_device_bytes, "device", need.device_parts, "is free");
  if (need.host_bytes > static_cast<double>(available_host_bytes))
    return too_much(need.host_bytes, available_host_bytes, "host", need.host_parts, "is available");
  return "";
}

std::string check_memory_fits(const MemoryNeed& need, std::size_t free_device_bytes, std::size_t available_host_bytes) {
  return check_memory_fits(need.what, need, free_device_bytes, available_host_bytes);
}

}  // namespace lab
