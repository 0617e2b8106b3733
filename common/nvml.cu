#include <cuda_runtime.h>
#include <dlfcn.h>  // dlopen: NVML without linking it

#include <fstream>

#include "nvml.cuh"

namespace lab {

Nvml::Nvml(int ordinal) noexcept {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) return;
  const auto init = reinterpret_cast<int (*)()>(dlsym(library_, "nvmlInit_v2"));
  shutdown_ = reinterpret_cast<int (*)()>(dlsym(library_, "nvmlShutdown"));
  if (init == nullptr || shutdown_ == nullptr || init() != 0) {
    shutdown_ = nullptr;
    return;
  }
  if (ordinal < 0) return;
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  const auto by_bus_id = reinterpret_cast<int (*)(const char*, void**)>(function("nvmlDeviceGetHandleByPciBusId_v2"));
  if (by_bus_id == nullptr || by_bus_id(bus_id, &device_) != 0) device_ = nullptr;
}

Nvml::~Nvml() {
  if (shutdown_ != nullptr) shutdown_();
  if (library_ != nullptr) dlclose(library_);
}

void* Nvml::function(const char* name) const noexcept { return shutdown_ != nullptr ? dlsym(library_, name) : nullptr; }

// The runtime API does not know the driver's release; NVML or the kernel module does.
std::string driver_release() noexcept {
  {
    const Nvml nvml(-1);
    const auto get_version = reinterpret_cast<int (*)(char*, unsigned)>(nvml.function("nvmlSystemGetDriverVersion"));
    char buffer[96] = {};
    if (get_version != nullptr && get_version(buffer, sizeof buffer) == 0) return buffer;
  }
  std::ifstream file("/proc/driver/nvidia/version");
  std::string word;
  std::string previous;
  while (file >> word) {
    if (previous == "Module" && !word.empty() && word[0] >= '0' && word[0] <= '9') return word;
    previous = word;
  }
  return "unknown";
}

}  // namespace lab
