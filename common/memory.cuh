/// @file memory.cuh
/// @brief Owning, move-only wrappers for device memory, pinned host memory and
/// page-locked registration of existing host memory.
///
/// Chapter code never calls cudaFree, cudaFreeHost or cudaHostUnregister itself:
/// the destructor does, also when an exception leaves the scope.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

#include "check.cuh"

namespace lab {

namespace detail {
// Destructors must not throw; a failure here is reported and otherwise ignored.
inline void report_release_failure(cudaError_t error, const char* what) {
  if (error != cudaSuccess) std::fprintf(stderr, "warning: %s failed: %s\n", what, cudaGetErrorString(error));
}
}  // namespace detail

/// `count` elements of T in device memory (cudaMalloc / cudaFree).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates @p count elements (uninitialised).
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) LAB_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
  }
  ~DeviceBuffer() { release(); }
  /// Takes over what @p other owns; @p other is left empty.
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  /// Releases what this owns, then takes over what @p other owns.
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() { return data_; }                               ///< device pointer
  const T* data() const { return data_; }                   ///< device pointer
  std::size_t size() const { return count_; }               ///< number of elements
  std::size_t bytes() const { return count_ * sizeof(T); }  ///< size in bytes

  /// Copies @p host (at most size() elements) to the device; blocks the host.
  void upload(const std::vector<T>& host) {
    LAB_CHECK(cudaMemcpy(data_, host.data(), std::min(host.size(), count_) * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Copies the whole buffer back into a new host vector; blocks the host.
  std::vector<T> download() const {
    std::vector<T> host(count_);
    LAB_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Fills every byte with 0xFF, which as a float is a NaN: a kernel that
  /// forgets to write an element leaves a value no comparison accepts.
  void poison(cudaStream_t stream = nullptr) { LAB_CHECK(cudaMemsetAsync(data_, 0xFF, bytes(), stream)); }

 private:
  void release() noexcept {
    if (data_ != nullptr) detail::report_release_failure(cudaFree(data_), "cudaFree");
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// `count` elements of T in page-locked ("pinned") host memory
/// (cudaMallocHost / cudaFreeHost). Only pinned memory lets a copy engine read
/// or write host memory directly, so only copies from/to it are truly asynchronous.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  /// Allocates @p count elements (uninitialised).
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) LAB_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), bytes()));
  }
  ~PinnedBuffer() { release(); }
  /// Takes over what @p other owns; @p other is left empty.
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  /// Releases what this owns, then takes over what @p other owns.
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() { return data_; }                                    ///< host pointer
  const T* data() const { return data_; }                        ///< host pointer
  std::size_t size() const { return count_; }                    ///< number of elements
  std::size_t bytes() const { return count_ * sizeof(T); }       ///< size in bytes
  T& operator[](std::size_t i) { return data_[i]; }              ///< element access
  const T& operator[](std::size_t i) const { return data_[i]; }  ///< element access
  T* begin() { return data_; }                                   ///< first element
  T* end() { return data_ + count_; }                            ///< one past the last element

 private:
  void release() noexcept {
    if (data_ != nullptr) detail::report_release_failure(cudaFreeHost(data_), "cudaFreeHost");
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// Page-locks memory the program already has (cudaHostRegister) for as long as
/// the object lives, then unlocks it (cudaHostUnregister). The contents stay
/// as they are. The C++ counterpart of Numba's `cuda.pinned(array)` context.
class HostRegistration {
 public:
  HostRegistration() = default;
  /// Registers @p bytes at @p pointer with cudaHostRegister @p flags.
  HostRegistration(void* pointer, std::size_t bytes, unsigned flags = cudaHostRegisterDefault) : pointer_(pointer) {
    LAB_CHECK(cudaHostRegister(pointer, bytes, flags));
  }
  ~HostRegistration() { release(); }
  /// Takes over what @p other owns; @p other is left empty.
  HostRegistration(HostRegistration&& other) noexcept : pointer_(std::exchange(other.pointer_, nullptr)) {}
  /// Releases what this owns, then takes over what @p other owns.
  HostRegistration& operator=(HostRegistration&& other) noexcept {
    if (this != &other) {
      release();
      pointer_ = std::exchange(other.pointer_, nullptr);
    }
    return *this;
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;

  /// The registered pointer, or nullptr once moved from.
  void* get() const { return pointer_; }

 private:
  void release() noexcept {
    if (pointer_ != nullptr) detail::report_release_failure(cudaHostUnregister(pointer_), "cudaHostUnregister");
    pointer_ = nullptr;
  }
  void* pointer_ = nullptr;
};

}  // namespace lab
