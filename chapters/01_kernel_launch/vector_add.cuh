/// @file vector_add.cuh
/// @brief Chapter 01's lesson: `c = a + b` launched three ways, what a launch
/// error looks like, and proof that a launch returns before the kernel ends.
///
/// In the order of the page: the CPU reference, the kernels and their launch
/// (`launch_add`: `kernel<<<grid, block, 0, stream>>>`), then the experiments,
/// which return their data (findings.hpp) and print nothing.
///
/// The kernels follow the `add2` of godweiyang's NN-CUDA-Example (a
/// grid-stride loop launched as `<<<(n + 1023) / 1024, 1024>>>`). Here the three
/// variants are compared in one run:
///   - one thread per element with a bounds check (the grid covers n);
///   - a grid-stride loop over a grid sized to fill the GPU once;
///   - the same loop reading and writing `float4` (16 bytes per access).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "device.cuh"
#include "findings.hpp"
#include "memory.cuh"
#include "verify.hpp"

namespace ch01 {

/// The three ways of launching `c = a + b`.
enum class AddVariant {
  one_thread_per_element,  ///< grid = ceil(n / block), `if (i < n)`
  grid_stride,             ///< grid fills the GPU once, each thread loops
  grid_stride_float4       ///< grid-stride over 16-byte vectors, scalar tail
};

/// All variants, in the order the chapter compares them.
constexpr AddVariant kAllVariants[] = {AddVariant::one_thread_per_element, AddVariant::grid_stride,
                                       AddVariant::grid_stride_float4};

/// A short name, e.g. "grid-stride float4".
const char* variant_name(AddVariant variant);

/// A one-dimensional launch configuration: `<<<grid, block>>>`.
struct LaunchConfig {
  std::int64_t grid = 0;  ///< blocks
  int block = 0;          ///< threads per block
};

/// The configuration a variant uses for @p n elements and @p block threads per
/// block on @p device: enough blocks to cover n for one-thread-per-element; for
/// the grid-stride variants, as many blocks as fit on the GPU at once
/// (SMs x resident blocks per SM, from the occupancy calculator), never more
/// than the work needs.
LaunchConfig choose_config(AddVariant variant, std::int64_t n, int block, const lab::DeviceInfo& device);

/// Queues `c[i] = a[i] + b[i]` for i < n on @p stream and checks the launch.
/// a, b, c are device pointers; the float4 variant needs them 16-byte aligned
/// (cudaMalloc gives 256) and throws std::invalid_argument otherwise.
void launch_add(AddVariant variant, const float* a, const float* b, float* c, std::int64_t n,
                const LaunchConfig& config, cudaStream_t stream);

/// The CPU reference: `c[i] = a[i] + b[i]`.
std::vector<float> add_on_cpu(const std::vector<float>& a, const std::vector<float>& b);

/// Any function that queues `c = a + b` for n elements on a stream: a chapter
/// variant, or an exercise's kernel.
using AddLauncher = std::function<void(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t)>;

/// Runs @p launch once on @p n random inputs (seeded by @p seed) into a
/// poisoned output and compares the result exactly with add_on_cpu(). The one
/// correctness check the chapter's tests and the exercise check share.
lab::Comparison check_add(const AddLauncher& launch, std::int64_t n, std::uint64_t seed);

/// A ready-to-run `c = a + b` for the later chapters, which time and
/// synchronise it rather than study it: random a and b already on the device,
/// the CPU's answer, and one launch configuration chosen once.
class AddProblem {
 public:
  /// @p n random floats per vector (seeded by @p seed) on @p device, launched as @p variant.
  AddProblem(std::int64_t n, std::uint64_t seed, const lab::DeviceInfo& device,
             AddVariant variant = AddVariant::grid_stride, int block = 256);
  /// Queues `c = a + b` on @p stream (checked, never synchronises).
  void launch(cudaStream_t stream);
  /// Fills c with NaN (queued on @p stream), so a launch that did not happen shows.
  void poison(cudaStream_t stream) { c_.poison(stream); }
  /// Compares @p result exactly with the CPU's answer.
  lab::Comparison check(const std::vector<float>& result) const;
  /// Downloads c (a blocking copy: waits for queued work) and checks it.
  lab::Comparison check() const { return check(c_.download()); }

  std::int64_t n() const { return n_; }                            ///< elements per vector
  float* a() { return a_.data(); }                                  ///< the device input a
  float* c() { return c_.data(); }                                  ///< the device output
  std::size_t c_bytes() const { return c_.bytes(); }                ///< its size in bytes
  const std::vector<float>& a_host() const { return a_host_; }      ///< the input a, on the host
  const std::vector<float>& expected() const { return expected_; }  ///< the CPU's answer
  const LaunchConfig& config() const { return config_; }            ///< the launch configuration
  AddVariant variant() const { return variant_; }                   ///< the kernel used

 private:
  std::int64_t n_;
  AddVariant variant_;
  LaunchConfig config_;
  std::vector<float> a_host_;
  std::vector<float> expected_;
  lab::DeviceBuffer<float> a_, b_, c_;
};

/// Section 2: the device-to-device copy of n floats, then each variant on
/// random inputs of @p n floats: a first run into a poisoned output checked
/// against the CPU, @p samples event-timed runs, and a check after them.
VariantsRun compare_variants(std::int64_t n, int block, int samples, std::uint64_t seed,
                             const lab::DeviceInfo& device, cudaStream_t stream);

/// Section 3: launches a kernel that runs for @p kernel_ms on @p stream and
/// times the launch call on the host, the kernel with events, and the wait for it.
LaunchReturnTiming time_launch_return(double kernel_ms, cudaStream_t stream);

/// Section 4: launches the add kernel with @p threads_per_block threads per
/// block (more than the GPU allows, e.g. 2048), catches the error with
/// cudaGetLastError() instead of throwing, then shows the program carries on
/// with a valid launch.
LaunchErrorDemo launch_with_bad_config(int threads_per_block);

}  // namespace ch01
