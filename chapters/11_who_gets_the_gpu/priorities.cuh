/// @file priorities.cuh
/// @brief Section 2's lesson: stream priorities. A long kernel of several waves
/// of resident blocks runs on a stream of the least priority; part-way in, a
/// small urgent kernel is launched on another stream of the same priority, on a
/// stream of the greatest priority, and with the per-launch priority attribute.
/// Both kernels record their blocks (common/lesson/block_recorder.cuh), so the table
/// says when the urgent blocks began, on which SMs, and whether any began on an
/// SM still full of long blocks.
#pragma once

#include <cuda_runtime.h>

#include "data.hpp"
#include "device.cuh"

namespace ch11 {

/// 2. The urgent kernel (16 blocks spinning @p urgent_block_us) launched into an
/// idle GPU and while the long kernel (@p waves waves of resident blocks, each
/// spinning @p long_block_us) runs, once per way of giving it priority, @p samples
/// times each. Skipped when @p instrumented (a tool that serialises kernels would
/// run the urgent kernel after the long one whatever its priority) or when the
/// device cannot run kernels side by side.
PriorityRun run_priorities(int waves, double long_block_us, double urgent_block_us, int samples, bool instrumented,
                           const lab::DeviceInfo& device);

/// Section 2's measurement for a stream of the caller's (exercise 11's check):
/// the long kernel as in run_priorities on a stream of the least priority, and
/// part-way in the urgent kernel on @p urgent, @p samples times after a warm-up.
/// The case is named "given_stream"; its priority is @p urgent's, read back with
/// cudaStreamGetPriority. Throws std::runtime_error where run_priorities would
/// skip on @p device (it cannot run kernels side by side).
UrgentCase run_urgent_on(cudaStream_t urgent, int waves, double long_block_us, double urgent_block_us, int samples,
                         const lab::DeviceInfo& device);

}  // namespace ch11
