/// @file nvml.cuh
/// @brief NVML, the driver's management library (what nvidia-smi shows),
/// opened at run time so that a program needs it neither to build nor to start.
///
/// @code
///   const lab::Nvml nvml(device.ordinal);
///   unsigned mhz = 0;  // the arguments after the device, as nvml.h declares them
///   if (nvml.query("nvmlDeviceGetClockInfo", 1 /* NVML_CLOCK_SM */, &mhz)) ...
/// @endcode
#pragma once

namespace lab {

/// NVML opened for one CUDA device, found by its PCI bus id (NVML numbers
/// devices its own way). Never throws: without NVML every query() is false.
class Nvml {
 public:
  /// Opens NVML and finds CUDA device @p ordinal (-1: none, for system queries).
  explicit Nvml(int ordinal) noexcept;
  /// Shuts NVML down again.
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  /// Was NVML found, and does it know the device?
  bool available() const { return device_ != nullptr; }
  /// The NVML function @p name, or nullptr when NVML or the function is missing.
  void* function(const char* name) const noexcept;
  /// Calls the device query @p name with the device and @p args; true when it
  /// exists and returned NVML_SUCCESS.
  template <class... Args>
  bool query(const char* name, Args... args) const noexcept {
    const auto call = reinterpret_cast<int (*)(void*, Args...)>(function(name));
    return available() && call != nullptr && call(device_, args...) == 0;
  }

 private:
  void* library_ = nullptr;
  int (*shutdown_)() = nullptr;
  void* device_ = nullptr;  // nvmlDevice_t
};

}  // namespace lab
