/// @file add_kernels.cuh
/// @brief Chapter 01's kernels and their launchers: `c = a + b` three ways, the
/// CPU reference, and a ready-made problem that later chapters and the PyTorch
/// extension (python/add_extension.cpp) use. Library ch01_kernels; it needs only
/// check.cuh, memory.cuh, stream.cuh and verify (no experiment, no timing).
///
/// The kernels follow the `add2` of godweiyang's NN-CUDA-Example (a
/// grid-stride loop launched as `<<<(n + 1023) / 1024, 1024>>>`). The variants:
///   - one thread per element with a bounds check (the grid covers n);
///   - a grid-stride loop over a grid sized to fill the GPU once;
///   - the same loop reading and writing `float4` (16 bytes per access).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "device.cuh"
#include "memory.cuh"
#include "verify.hpp"

namespace ch01 {

/// `c[i] = a[i] + b[i]`, one thread per element: launch ceil(n / block) blocks.
__global__ void add_one_thread_per_element(const float* a, const float* b, float* c, std::int64_t n);
/// `c[i] = a[i] + b[i]` for every i < n, with any grid: each thread loops in steps of the grid's size.
__global__ void add_grid_stride(const float* a, const float* b, float* c, std::int64_t n);
/// add_grid_stride() over 16-byte `float4`s; a, b and c must be 16-byte aligned.
__global__ void add_grid_stride_float4(const float* a, const float* b, float* c, std::int64_t n);

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

  std::int64_t n() const { return n_; }                             ///< elements per vector
  float* a() { return a_.data(); }                                  ///< the device input a
  float* b() { return b_.data(); }                                  ///< the device input b
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

}  // namespace ch01
