#include <cuda_runtime.h>
#include <dlfcn.h>  // dlopen: NVML without linking it

#include <fstream>

#include "nvml.cuh"

namespace lab {

namespace {

// NVML opened at run time, so the programs need it neither to build nor to
// start. The function types below are NVML's own (nvml.h).
class Nvml {
 public:
  Nvml() {
    library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) return;
    auto init = reinterpret_cast<int (*)()>(dlsym(library_, "nvmlInit_v2"));
    shutdown_ = reinterpret_cast<int (*)()>(dlsym(library_, "nvmlShutdown"));
    ready_ = init != nullptr && shutdown_ != nullptr && init() == 0;
  }
  ~Nvml() {
    if (ready_) shutdown_();
    if (library_ != nullptr) dlclose(library_);
  }
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  // The function @p name as type F, or nullptr when NVML or the function is missing.
  template <class F>
  F function(const char* name) const {
    return ready_ ? reinterpret_cast<F>(dlsym(library_, name)) : nullptr;
  }

 private:
  void* library_ = nullptr;
  int (*shutdown_)() = nullptr;
  bool ready_ = false;
};

}  // namespace

// The runtime API does not know the driver's release; NVML or the kernel module does.
std::string driver_release() noexcept {
  {
    Nvml nvml;
    if (auto get_version = nvml.function<int (*)(char*, unsigned)>("nvmlSystemGetDriverVersion")) {
      char buffer[96] = {};
      if (get_version(buffer, sizeof buffer) == 0) return buffer;
    }
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

NvmlReading read_nvml(int ordinal) noexcept {
  NvmlReading reading;
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal) != cudaSuccess) {
    (void)cudaGetLastError();
    return reading;
  }
  Nvml nvml;
  using Device = void*;  // nvmlDevice_t
  auto by_bus_id = nvml.function<int (*)(const char*, Device*)>("nvmlDeviceGetHandleByPciBusId_v2");
  Device device = nullptr;
  if (by_bus_id == nullptr || by_bus_id(bus_id, &device) != 0) return reading;
  reading.available = true;
  constexpr int kClockSm = 1;  // NVML_CLOCK_SM
  unsigned value = 0;
  using ClockQuery = int (*)(Device, int, unsigned*);
  if (auto clock = nvml.function<ClockQuery>("nvmlDeviceGetClockInfo"); clock && clock(device, kClockSm, &value) == 0)
    reading.sm_clock_mhz = value;
  if (auto clock = nvml.function<ClockQuery>("nvmlDeviceGetMaxClockInfo");
      clock && clock(device, kClockSm, &value) == 0)
    reading.max_sm_clock_mhz = value;
  using LinkQuery = int (*)(Device, unsigned*);
  auto link = [&](const char* name, int* out) {
    if (auto query = nvml.function<LinkQuery>(name); query && query(device, &value) == 0)
      *out = static_cast<int>(value);
  };
  link("nvmlDeviceGetMaxPcieLinkGeneration", &reading.pcie_generation_max);
  link("nvmlDeviceGetMaxPcieLinkWidth", &reading.pcie_width_max);
  link("nvmlDeviceGetCurrPcieLinkGeneration", &reading.pcie_generation_now);
  link("nvmlDeviceGetCurrPcieLinkWidth", &reading.pcie_width_now);
  // Power in milliwatts (the board's draw and the limit the driver enforces).
  if (auto power = nvml.function<LinkQuery>("nvmlDeviceGetPowerUsage"); power && power(device, &value) == 0)
    reading.power_watts = value / 1000.0;
  if (auto limit = nvml.function<LinkQuery>("nvmlDeviceGetEnforcedPowerLimit"); limit && limit(device, &value) == 0)
    reading.power_limit_watts = value / 1000.0;
  // The reasons for a lower clock; the older name of the same query is still exported.
  using ReasonQuery = int (*)(Device, unsigned long long*);
  auto reasons = nvml.function<ReasonQuery>("nvmlDeviceGetCurrentClocksEventReasons");
  if (reasons == nullptr) reasons = nvml.function<ReasonQuery>("nvmlDeviceGetCurrentClocksThrottleReasons");
  reading.clock_reasons_known = reasons != nullptr && reasons(device, &reading.clock_reasons) == 0;
  return reading;
}

double pcie_gigabytes_per_second(int generation, int lanes) {
  // GT/s per lane of Gen 1..5. Gen 1-2 send 10 bits per byte (8b/10b), Gen 3-5
  // 130 bits per 128 (128b/130b); Gen 6 is not handled.
  constexpr double kGigatransfers[] = {2.5, 5.0, 8.0, 16.0, 32.0};
  if (generation < 1 || generation > 5) return 0.0;
  const double efficiency = generation <= 2 ? 0.8 : 128.0 / 130.0;
  return kGigatransfers[generation - 1] * efficiency / 8.0 * lanes;
}

}  // namespace lab
