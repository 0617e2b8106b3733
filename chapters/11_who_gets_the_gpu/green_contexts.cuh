/// @file green_contexts.cuh
/// @brief Section 3's lesson: green contexts. The GPU's SMs split with the
/// driver API into a small part and a large one (cuDeviceGetDevResource,
/// cuDevSmResourceSplitByCount, cuDevResourceGenerateDesc, cuGreenCtxCreate,
/// cuGreenCtxStreamCreate); the long kernel runs in the large part's stream and,
/// once it runs, an urgent kernel is launched in the small part's stream. Every
/// block records its %smid, so the run shows whether the parts stayed apart.
#pragma once

#include <cuda_runtime.h>

#include "data.hpp"
#include "device.cuh"
#include "options.hpp"

namespace ch11 {

/// What section 3 runs: the long kernel's and the urgent kernel's shapes.
struct GreenSettings {
  int green_sms = 16;            ///< SMs asked for the small part (the API rounds them up)
  int long_waves = 4;            ///< the long kernel's blocks, in waves of every SM's block slots
  double long_block_us = 200.0;  ///< each long block's spin
  double urgent_block_us = 5.0;  ///< each urgent block's spin
  int samples = 10;              ///< samples of each measurement
};

/// Section 3's settings from the chapter's options.
GreenSettings green_settings(const Options& o);

/// 3. Each sample: the urgent kernel alone in the small part (its idle start
/// delay), the long kernel alone on every SM, the long kernel in the large part
/// with the urgent kernel launched in the small part once the long one runs,
/// and both in the primary context (the urgent kernel waits for a block slot).
/// Skipped with the reason when the driver (before CUDA 12.4) or the GPU has no
/// green contexts, or when the split leaves no large part.
GreenRun run_green_contexts(const GreenSettings& settings, const lab::DeviceInfo& device);

}  // namespace ch11
