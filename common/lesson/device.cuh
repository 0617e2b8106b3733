/// @file device.cuh
/// @brief Finding a usable GPU, and what it is.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "fields.hpp"

namespace lab {

/// What every chapter prints at its top and stores in its JSON.
struct DeviceInfo {
  int ordinal = 0;                          ///< the device number used
  std::string name;                         ///< e.g. "NVIDIA H100 80GB HBM3"
  int cc_major = 0;                         ///< compute capability, major
  int cc_minor = 0;                         ///< compute capability, minor
  int sm_count = 0;                         ///< streaming multiprocessors
  std::size_t l2_bytes = 0;                 ///< L2 cache size
  std::size_t persisting_l2_max_bytes = 0;  ///< largest L2 set-aside for persisting lines
  int copy_engines = 0;                     ///< asyncEngineCount: copies that can run beside kernels
  std::size_t memory_bytes = 0;             ///< total device memory
  std::size_t free_memory_bytes = 0;        ///< free device memory when queried
  int memory_bus_bits = 0;                  ///< memory bus width
  double nominal_sm_clock_mhz = 0;          ///< the peak SM clock the driver reports
  double nominal_memory_clock_mhz = 0;      ///< the peak memory clock the driver reports
  int max_threads_per_block = 0;            ///< the largest block
  int max_block_dim[3] = {0, 0, 0};         ///< the largest block per dimension
  int max_grid_dim[3] = {0, 0, 0};          ///< the largest grid per dimension
  std::size_t shared_per_block = 0;         ///< shared memory per block without opt-in
  std::size_t shared_per_block_optin = 0;   ///< shared memory per block with cudaFuncSetAttribute
  int warp_size = 0;                        ///< threads per warp
  bool concurrent_kernels = false;          ///< can kernels of different streams run at once?
  int driver_cuda_version = 0;              ///< CUDA version the driver supports, e.g. 13000
  int runtime_version = 0;                  ///< CUDA runtime the program was built with, e.g. 13000
  std::string driver_release;               ///< the driver's own version, e.g. "580.159.04", or "unknown"

  /// A few aligned lines for the top of a chapter's output.
  std::string summary() const;
  /// The same as named fields, for the JSON report.
  Fields fields() const;
};

/// Is there a device this process can create a context on? Never throws.
bool usable_device(std::string* reason = nullptr) noexcept;

/// Reads the properties of device @p ordinal (throws lab::CudaError).
DeviceInfo query_device(int ordinal = 0);

/// One attribute of the current device, e.g. cudaDevAttrMultiProcessorCount.
int current_device_attribute(cudaDeviceAttr attribute);

/// Selects device 0 and returns what it is; throws lab::NoDeviceError (exit code 77).
DeviceInfo require_device();

}  // namespace lab
