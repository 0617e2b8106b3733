/// @file nvml.cuh
/// @brief What the driver's management library (NVML, opened at run time, so
/// optional) says: the driver release, the SM clock and the PCIe link.
#pragma once

#include <string>

namespace lab {

/// The driver's release, e.g. "580.159.04", or "unknown". Never throws.
std::string driver_release() noexcept;

/// What NVML reports now; zeros where it cannot answer.
struct NvmlReading {
  bool available = false;       ///< NVML was found and knows this device
  double sm_clock_mhz = 0;      ///< the SM clock now, as the driver reports it
  double max_sm_clock_mhz = 0;  ///< the highest SM clock the driver allows
  int pcie_generation_max = 0;  ///< the highest PCIe generation of the GPU and its slot
  int pcie_width_max = 0;       ///< the most PCIe lanes
  int pcie_generation_now = 0;  ///< the PCIe generation in use now (lower when the link idles)
  int pcie_width_now = 0;       ///< the PCIe lanes in use now
  double power_watts = 0;        ///< the board's power draw now (nvmlDeviceGetPowerUsage)
  double power_limit_watts = 0;  ///< the power limit the driver enforces (nvmlDeviceGetEnforcedPowerLimit)
  bool clock_reasons_known = false;        ///< clock_reasons was read
  unsigned long long clock_reasons = 0;    ///< why the clocks are below their maximum now, NVML's bit mask
                                           ///< (nvmlDeviceGetCurrentClocksEventReasons: 0x1 idle, 0x4 software
                                           ///< power cap, 0x8 hardware slowdown, 0x20 software thermal, ...)
};

/// Reads NVML for CUDA device @p ordinal (matched by PCI bus id: NVML numbers
/// devices its own way). Never throws.
NvmlReading read_nvml(int ordinal) noexcept;

/// The theoretical rate of a PCIe link in GB/s per direction after line coding:
/// Gen 5 x16 = 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s. 0 for an unknown generation.
double pcie_gigabytes_per_second(int generation, int lanes);

}  // namespace lab
