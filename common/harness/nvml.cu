#include <cuda_runtime.h>
#include <dlfcn.h>  // dlopen: NVML without linking it

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

}  // namespace lab
