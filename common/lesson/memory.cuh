/// @file memory.cuh
/// @brief Owning, move-only device memory and pinned host memory: the
/// destructor frees them, also when an exception leaves the scope.
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

// Owns one CUDA resource (memory here, streams and events in stream.cuh, a host
// registration in chapter 06) and
// releases it exactly once; move-only, since two owners would release it twice.
// A destructor must not throw, so a failed release only warns on stderr.
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
  /// Number of elements (0 once moved from).
  std::size_t size() const { return memory_.get() != nullptr ? count_ : 0; }
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

/// `count` elements of T in page-locked ("pinned") host memory (cudaHostAlloc /
/// cudaFreeHost). Move-only. A copy engine reads and writes only pinned memory
/// directly, so only copies from/to it are truly asynchronous.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  /// Allocates @p count elements (uninitialised) with cudaHostAlloc @p flags,
  /// e.g. cudaHostAllocWriteCombined or cudaHostAllocMapped (chapter 06).
  explicit PinnedBuffer(std::size_t count, unsigned flags = cudaHostAllocDefault) : count_(count) {
    void* memory = nullptr;
    if (count > 0) LAB_CHECK(cudaHostAlloc(&memory, count * sizeof(T), flags));
    memory_ = Memory(memory);
  }

  T* data() { return static_cast<T*>(memory_.get()); }                    ///< host pointer
  const T* data() const { return static_cast<const T*>(memory_.get()); }  ///< host pointer
  /// Number of elements (0 once moved from).
  std::size_t size() const { return memory_.get() != nullptr ? count_ : 0; }
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

}  // namespace lab
