/// @file memory.cuh
/// @brief Owning, move-only wrappers for device memory, pinned host memory and
/// page-locked registration of existing host memory.
///
/// Chapter code never calls cudaFree, cudaFreeHost or cudaHostUnregister itself:
/// the destructor does, also when an exception leaves the scope. All of them,
/// and the streams and events of stream.cuh, rest on one small template,
/// detail::UniqueHandle, so the rules of ownership are written once.
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

// Owns one CUDA resource and gives it back with Release exactly once: when the
// owner is destroyed, or when another resource is moved into it. Move-only,
// because two owners would release the same resource twice. A destructor must
// not throw, so a failed release is reported on stderr and otherwise ignored.
template <class Handle, cudaError_t (*Release)(Handle)>
class UniqueHandle {
 public:
  UniqueHandle() = default;
  explicit UniqueHandle(Handle handle) noexcept : handle_(handle) {}
  ~UniqueHandle() { reset(); }
  UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
  UniqueHandle& operator=(UniqueHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, Handle{});
    }
    return *this;
  }
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;

  Handle get() const noexcept { return handle_; }

 private:
  void reset() noexcept {
    if (handle_ != Handle{}) {
      const cudaError_t error = Release(handle_);
      if (error != cudaSuccess)
        std::fprintf(stderr, "warning: releasing a CUDA resource failed: %s\n", cudaGetErrorString(error));
    }
    handle_ = Handle{};
  }
  Handle handle_{};
};

}  // namespace detail

/// `count` elements of T in device memory (cudaMalloc / cudaFree). Move-only.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates @p count elements (uninitialised).
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    void* memory = nullptr;
    if (count > 0) LAB_CHECK(cudaMalloc(&memory, count * sizeof(T)));
    memory_ = Memory(memory);
  }

  T* data() { return static_cast<T*>(memory_.get()); }                    ///< device pointer
  const T* data() const { return static_cast<const T*>(memory_.get()); }  ///< device pointer
  std::size_t size() const {
    return memory_.get() != nullptr ? count_ : 0;
  }                                                         ///< number of elements (0 once moved from)
  std::size_t bytes() const { return size() * sizeof(T); }  ///< size in bytes

  /// Copies @p host (at most size() elements) to the device; blocks the host.
  void upload(const std::vector<T>& host) {
    LAB_CHECK(cudaMemcpy(data(), host.data(), std::min(host.size(), size()) * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Copies the whole buffer back into a new host vector; blocks the host.
  std::vector<T> download() const {
    std::vector<T> host(size());
    LAB_CHECK(cudaMemcpy(host.data(), data(), bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Fills every byte with 0xFF, which as a float is a NaN: a kernel that
  /// forgets to write an element leaves a value no comparison accepts.
  void poison(cudaStream_t stream = nullptr) { LAB_CHECK(cudaMemsetAsync(data(), 0xFF, bytes(), stream)); }

 private:
  using Memory = detail::UniqueHandle<void*, cudaFree>;
  Memory memory_;
  std::size_t count_ = 0;
};

/// `count` elements of T in page-locked ("pinned") host memory
/// (cudaMallocHost / cudaFreeHost). Move-only. Only pinned memory lets a copy
/// engine read or write host memory directly, so only copies from/to it are
/// truly asynchronous.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  /// Allocates @p count elements (uninitialised) with cudaHostAlloc @p flags:
  /// cudaHostAllocDefault (the same as cudaMallocHost), or for example
  /// cudaHostAllocWriteCombined or cudaHostAllocMapped (chapter 06).
  explicit PinnedBuffer(std::size_t count, unsigned flags = cudaHostAllocDefault) : count_(count) {
    void* memory = nullptr;
    if (count > 0) LAB_CHECK(cudaHostAlloc(&memory, count * sizeof(T), flags));
    memory_ = Memory(memory);
  }

  T* data() { return static_cast<T*>(memory_.get()); }                    ///< host pointer
  const T* data() const { return static_cast<const T*>(memory_.get()); }  ///< host pointer
  std::size_t size() const {
    return memory_.get() != nullptr ? count_ : 0;
  }                                                               ///< number of elements (0 once moved from)
  std::size_t bytes() const { return size() * sizeof(T); }        ///< size in bytes
  T& operator[](std::size_t i) { return data()[i]; }              ///< element access
  const T& operator[](std::size_t i) const { return data()[i]; }  ///< element access
  T* begin() { return data(); }                                   ///< first element
  T* end() { return data() + size(); }                            ///< one past the last element

 private:
  using Memory = detail::UniqueHandle<void*, cudaFreeHost>;
  Memory memory_;
  std::size_t count_ = 0;
};

/// Page-locks memory the program already has (cudaHostRegister) for as long as
/// the object lives, then unlocks it (cudaHostUnregister). The contents stay
/// as they are. Move-only. The C++ counterpart of Numba's `cuda.pinned(array)`.
class HostRegistration {
 public:
  HostRegistration() = default;
  /// Registers @p bytes at @p pointer with cudaHostRegister @p flags.
  HostRegistration(void* pointer, std::size_t bytes, unsigned flags = cudaHostRegisterDefault) {
    LAB_CHECK(cudaHostRegister(pointer, bytes, flags));
    registered_ = Registered(pointer);
  }

  /// The registered pointer, or nullptr once moved from.
  void* get() const { return registered_.get(); }

 private:
  using Registered = detail::UniqueHandle<void*, cudaHostUnregister>;
  Registered registered_;
};

}  // namespace lab
