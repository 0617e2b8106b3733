/// @file vector_add.cuh
/// @brief Chapter 01's lesson: `c = a + b` launched three ways (the kernels and
/// their launch are in add_kernels.cuh), what a launch error looks like, and
/// proof that a launch returns before the kernel ends. Each experiment returns
/// its data (data.hpp) and prints nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "add_kernels.cuh"
#include "data.hpp"
#include "device.cuh"
#include "measure.cuh"
#include "memory.cuh"

namespace ch01 {

/// What time_then_check() returns: the event-timed samples and the output's
/// check after them.
struct TimedCheck {
  std::vector<double> samples;  ///< ms, from lab::measure_ms
  lab::Comparison after;        ///< @p c against the CPU after the timed runs
};

/// Poisons @p c on @p stream, times @p launch with lab::measure_ms (its warm-up
/// launches, then the timed ones), then checks c against @p expected: an element
/// that none of those launches wrote stays NaN and fails, so a launch function
/// that writes nothing cannot pass "still correct after timing".
TimedCheck time_then_check(const std::function<void(cudaStream_t)>& launch, lab::DeviceBuffer<float>& c,
                           const std::vector<float>& expected, cudaStream_t stream, const lab::MeasureConfig& measure);

/// Section 2: the device-to-device copy of n floats, then each variant on
/// random inputs of @p n floats: a first run into a poisoned output checked
/// against the CPU, then time_then_check(): @p samples event-timed runs into a
/// poisoned output, and a check after them.
VariantsRun compare_variants(std::int64_t n, int block, int samples, std::uint64_t seed, const lab::DeviceInfo& device,
                             cudaStream_t stream);

/// Section 3: launches a kernel that runs for @p kernel_ms on @p stream and
/// times the launch call on the host, the kernel with events, and the wait for it.
LaunchReturnTiming time_launch_return(double kernel_ms, cudaStream_t stream);

/// Section 4: launches the add kernel with @p threads_per_block threads per
/// block (more than the GPU allows, e.g. 2048), catches the error with
/// cudaGetLastError() instead of throwing, then shows the program carries on
/// with a valid launch.
LaunchErrorDemo launch_with_bad_config(int threads_per_block);

}  // namespace ch01
