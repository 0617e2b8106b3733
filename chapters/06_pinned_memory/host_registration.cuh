/// @file host_registration.cuh
/// @brief Page-locking memory the program already has, for as long as an object lives.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "check.cuh"
#include "memory.cuh"

namespace ch06 {

/// Page-locks memory the program already has (cudaHostRegister) for as long as
/// the object lives; the contents stay as they are. Move-only.
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
  using Registered = lab::detail::UniqueHandle<void*, cudaHostUnregister>;
  Registered registered_;
};

}  // namespace ch06
