/// @file gallery.cuh
/// @brief Chapter 13's gallery: workloads whose true time is known, each a
/// callable a harness times. Honest ones time what they do; adversaries do
/// what published benchmark exploits and documented pitfalls do (work on a
/// side stream joined late, an output copied late on another stream, a cached
/// result, CPU work inside the call, work on a stream the timer never sees).
///
/// Every workload computes `c = a + b` on its own arrays, so one CPU reference
/// checks them all. Inputs come from a counter-based hash (input_value) that
/// the GPU fills and the CPU recomputes: fresh inputs for every call cost no
/// upload. File order: the inputs and the CPU reference, the kernels, the
/// calls (one per workload, the CUDA each queues written out), the gallery.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device.cuh"
#include "memory.cuh"
#include "options.hpp"
#include "stream.cuh"

namespace ch13 {

/// Input @p which (0: a, 1: b) at index @p i for seed @p seed: a float in
/// [-1, 1) with 24 random bits, computed identically on the CPU and the GPU.
__host__ __device__ inline float input_value(std::uint64_t seed, std::uint64_t i, int which) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 2 * i + static_cast<std::uint64_t>(which);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;  // splitmix64's finaliser
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<float>(x >> 40) * (1.0f / 8388608.0f) - 1.0f;  // 24 bits, exact in a float
}

/// The arrays of one workload: inputs a and b, output c, and the CPU's answer.
class Problem {
 public:
  /// @p n floats per array, launched with @p grid blocks of 256 threads.
  Problem(std::int64_t n, int grid);
  /// Fresh inputs for @p seed: a and b filled on @p stream, the CPU's c computed.
  void fill(std::uint64_t seed, cudaStream_t stream);
  /// c filled with NaN (0xFF bytes) on @p stream: an element no one wrote shows.
  void poison(cudaStream_t stream);
  /// c as it is now: copied on @p stream, which is then synchronised.
  std::vector<float> read(cudaStream_t stream) const;
  std::int64_t n() const { return n_; }                             ///< floats per array
  int grid() const { return grid_; }                                ///< blocks of 256 threads
  const float* a() const { return a_.data(); }                      ///< the device input a
  const float* b() const { return b_.data(); }                      ///< the device input b
  float* c() { return c_.data(); }                                  ///< the device output
  std::size_t bytes() const { return c_.bytes(); }                  ///< one array's size
  const std::vector<float>& expected() const { return expected_; }  ///< the CPU's c for the last fill

 private:
  std::int64_t n_;
  int grid_;
  lab::DeviceBuffer<float> a_, b_, c_;
  std::vector<float> expected_;
};

/// One timed workload: a callable, the arrays it computes on, and every stream
/// besides the caller's that it declares.
struct Workload {
  std::string id;                          ///< stable, e.g. "side_stream"
  std::string name;                        ///< in the tables
  bool honest = true;                      ///< false: an adversary
  bool cold_l2 = false;                    ///< the reference harness flushes the L2 before each call
  bool naive_reads_first = false;          ///< a first launch: the naive pair's first call is the one
  bool truth_from_first_call = false;      ///< later calls skip the work (a cache)
  Problem* problem = nullptr;              ///< its arrays
  std::vector<cudaStream_t> streams;       ///< streams it uses besides the caller's, as it declares them
  std::vector<cudaStream_t> undeclared;    ///< streams it uses and does not declare (exercise 13 is told)
  std::function<void(cudaStream_t)> call;  ///< queues the workload; the caller's stream is the argument
};

/// The workloads, with the arrays, streams and events they use. Not movable:
/// the callables hold a pointer to it.
class Gallery {
 public:
  /// The arrays and streams for @p sizes, the workloads in gallery order (@p device: the L2 to flush, the SMs).
  Gallery(const GallerySizes& sizes, const lab::DeviceInfo& device);
  Gallery(const Gallery&) = delete;
  Gallery& operator=(const Gallery&) = delete;
  std::vector<Workload>& workloads() { return workloads_; }  ///< honest ones first, then the adversaries
  /// The workload known as @p id; throws std::out_of_range when there is none.
  Workload& workload(const std::string& id);

  // The calls, one per workload: what each queues, written out (gallery.cu).
  void short_kernel(cudaStream_t caller);  ///< honest: c = a + b on n floats (the harness flushes the L2 first)
  void long_kernel(cudaStream_t caller);   ///< honest: the add and a spin of --long-ms, one kernel
  void first_launch(cudaStream_t caller);  ///< honest: a kernel launched for the first time in the process
  void l2_resident(cudaStream_t caller);   ///< honest: the add on inputs left in L2 by the call before
  void side_stream(cudaStream_t caller);   ///< adversary: the long kernel forked to a side stream, joined next call
  void late_copy(
      cudaStream_t caller);          ///< adversary: the add, its output copied on a stream the caller never waits for
  void cached(cudaStream_t caller);  ///< adversary: while the inputs' address is the same, the kept result is returned
  void cpu_bound(cudaStream_t caller);     ///< adversary: --cpu-ms of host work in the call, then the add
  void wrong_stream(cudaStream_t caller);  ///< adversary: the long kernel on the workload's own (declared) stream
  void left_queued(cudaStream_t caller);   ///< adversary: a spin, then the add, on a stream no one is told of

 private:
  Problem& add_problem(std::int64_t n);
  GallerySizes sizes_;
  int sm_count_;
  std::vector<std::unique_ptr<Problem>> problems_;
  std::vector<Workload> workloads_;
  lab::Stream side_{cudaStreamNonBlocking}, copy_{cudaStreamNonBlocking};
  lab::Stream own_{cudaStreamNonBlocking}, hidden_{cudaStreamNonBlocking};
  lab::Event fork_{cudaEventDisableTiming}, side_done_{cudaEventDisableTiming}, computed_{cudaEventDisableTiming};
  bool side_pending_ = false;
  lab::DeviceBuffer<float> scratch_, cache_;
  const float* cached_a_ = nullptr;
};

}  // namespace ch13
