/// @file check.cuh
/// @brief Error checking: every CUDA call and every kernel launch is checked.
///
/// A failed call throws lab::CudaError with the call's text, file, line and
/// CUDA's description; lab::run_program() makes it exit code 1. The checks stay
/// in release builds: an unnoticed wrong result costs more than a check.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace lab {

/// A CUDA runtime call (or a kernel launch) failed.
class CudaError : public std::runtime_error {
 public:
  /// @p call is the call's source text, e.g. "cudaMalloc(&p, bytes)".
  CudaError(cudaError_t error, const char* call, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                           " failed: " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")") {}
};

/// Throws lab::CudaError unless @p error is cudaSuccess. Use through LAB_CHECK.
inline void check(cudaError_t error, const char* call, const char* file, int line) {
  if (error != cudaSuccess) throw CudaError(error, call, file, line);
}

}  // namespace lab

/// Wraps a CUDA runtime call: `LAB_CHECK(cudaMalloc(&p, bytes));`
#define LAB_CHECK(call) ::lab::check((call), #call, __FILE__, __LINE__)

/// Checks the launch just made: a bad configuration is reported only by
/// cudaGetLastError(); errors inside the kernel appear at the next synchronising call.
#define LAB_CHECK_LAUNCH() ::lab::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
