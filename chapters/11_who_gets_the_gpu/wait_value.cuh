/// @file wait_value.cuh
/// @brief Section 5's lesson: a stream that waits without an SM. Stream A is
/// held while one full wave of blocks (two per SM, each half an SM's threads)
/// runs on stream B, three ways: A free, A held by the course's spin kernel
/// (lab::StreamBlocker, a one-thread kernel that polls a pinned flag), and A
/// held by cuStreamWaitValue32 on a pinned flag, released by a plain host
/// store. The spin kernel sits on an SM, so one block of the wave cannot start
/// until the wave's first blocks end; the wait-value is done by the GPU's front
/// end and takes no SM.
#pragma once

#include <cuda_runtime.h>

#include "data.hpp"
#include "device.cuh"

namespace ch11 {

/// 5. The wave of blocks of @p block_us beside stream A free, held by the spin
/// blocker and held by cuStreamWaitValue32, @p samples times each. Skipped when
/// the GPU has no stream memory operations, and when @p instrumented (a tool
/// that serialises kernels would run the spin kernel to its timeout first).
WaitValueRun run_wait_value(double block_us, int samples, bool instrumented, const lab::DeviceInfo& device);

}  // namespace ch11
