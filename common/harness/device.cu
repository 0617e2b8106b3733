#include <cstdio>
#include <fstream>

#include "check.cuh"
#include "device.cuh"
#include "nvml.cuh"
#include "program.hpp"

namespace lab {

namespace {

std::string version_text(int version) {  // 13000 -> "13.0"
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

double mib(std::size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

std::string compute_capability(const DeviceInfo& d) {
  return std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
}

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

}  // namespace

std::string DeviceInfo::summary() const {
  char text[1024];
  std::snprintf(text, sizeof text,
                "device %d: %s (compute capability %s)\n"
                "  %d SMs, L2 %.0f MiB, %d copy engines, %.1f GiB memory (%.1f GiB free), %d-bit bus\n"
                "  nominal clocks: SM %.0f MHz, memory %.0f MHz\n"
                "  driver %s (CUDA %s), runtime CUDA %s\n",
                ordinal, name.c_str(), compute_capability(*this).c_str(), sm_count, mib(l2_bytes), copy_engines,
                mib(memory_bytes) / 1024.0, mib(free_memory_bytes) / 1024.0, memory_bus_bits, nominal_sm_clock_mhz,
                nominal_memory_clock_mhz, driver_release.c_str(), version_text(driver_cuda_version).c_str(),
                version_text(runtime_version).c_str());
  return text;
}

Fields DeviceInfo::fields() const {
  auto dims = [](const int(&d)[3]) { return std::vector<double>{double(d[0]), double(d[1]), double(d[2])}; };
  return {{"ordinal", ordinal},
          {"name", name},
          {"compute_capability", compute_capability(*this)},
          {"sm_count", sm_count},
          {"l2_bytes", l2_bytes},
          {"persisting_l2_max_bytes", persisting_l2_max_bytes},
          {"copy_engines", copy_engines},
          {"memory_bytes", memory_bytes},
          {"free_memory_bytes", free_memory_bytes},
          {"memory_bus_bits", memory_bus_bits},
          {"nominal_sm_clock_mhz", nominal_sm_clock_mhz},
          {"nominal_memory_clock_mhz", nominal_memory_clock_mhz},
          {"max_threads_per_block", max_threads_per_block},
          {"max_block_dim", dims(max_block_dim)},
          {"max_grid_dim", dims(max_grid_dim)},
          {"shared_per_block", shared_per_block},
          {"shared_per_block_optin", shared_per_block_optin},
          {"warp_size", warp_size},
          {"concurrent_kernels", concurrent_kernels},
          {"driver_release", driver_release},
          {"driver_cuda_version", version_text(driver_cuda_version)},
          {"runtime_version", version_text(runtime_version)}};
}

bool usable_device(std::string* reason) noexcept {
  int count = 0;
  cudaError_t error = cudaGetDeviceCount(&count);
  if (error == cudaSuccess && count == 0) {
    if (reason != nullptr) *reason = "the driver reports no CUDA devices";
    return false;
  }
  // A device may be listed and still refuse a context (exclusive mode, a broken
  // driver state). cudaFree(nullptr) creates the context and touches nothing.
  if (error == cudaSuccess) error = cudaSetDevice(0);
  if (error == cudaSuccess) error = cudaFree(nullptr);
  if (error == cudaSuccess) return true;
  if (reason != nullptr) {
    *reason = std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
    // With no driver at all, the runtime's message reads like a version problem.
    if (error == cudaErrorInsufficientDriver) *reason += " (no NVIDIA driver is loaded, or it is too old)";
  }
  (void)cudaGetLastError();  // these errors are not sticky: clear them
  return false;
}

DeviceInfo query_device(int ordinal) {
  cudaDeviceProp p{};
  LAB_CHECK(cudaGetDeviceProperties(&p, ordinal));
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.persisting_l2_max_bytes = static_cast<std::size_t>(p.persistingL2CacheMaxSize);
  d.copy_engines = p.asyncEngineCount;
  d.memory_bytes = p.totalGlobalMem;
  d.memory_bus_bits = p.memoryBusWidth;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  for (int i = 0; i < 3; ++i) {
    d.max_block_dim[i] = p.maxThreadsDim[i];
    d.max_grid_dim[i] = p.maxGridSize[i];
  }
  d.shared_per_block = p.sharedMemPerBlock;
  d.shared_per_block_optin = p.sharedMemPerBlockOptin;
  d.warp_size = p.warpSize;
  d.concurrent_kernels = p.concurrentKernels != 0;
  int khz = 0;
  LAB_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, ordinal));
  d.nominal_sm_clock_mhz = khz / 1000.0;
  LAB_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, ordinal));
  d.nominal_memory_clock_mhz = khz / 1000.0;
  LAB_CHECK(cudaDriverGetVersion(&d.driver_cuda_version));
  LAB_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  d.driver_release = driver_release();
  int current = 0;
  LAB_CHECK(cudaGetDevice(&current));
  if (current == ordinal) {
    std::size_t total = 0;
    LAB_CHECK(cudaMemGetInfo(&d.free_memory_bytes, &total));
  }
  return d;
}

int current_device_attribute(cudaDeviceAttr attribute) {
  int device = 0;
  int value = 0;
  LAB_CHECK(cudaGetDevice(&device));
  LAB_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

DeviceInfo require_device() {
  std::string reason;
  if (!usable_device(&reason)) throw NoDeviceError(reason);
  return query_device(0);
}

}  // namespace lab
