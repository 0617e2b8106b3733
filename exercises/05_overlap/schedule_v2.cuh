/// @file schedule_v2.cuh
/// @brief Exercise 05: write NVIDIA's V2 schedule with chapter 05's pipeline.
#pragma once

#include "overlap.cuh"

namespace exercise05 {

/// Queues every chunk of @p pipeline in V2's order: all copies in, then all
/// kernels, then all copies out (each chunk on its own stream).
void schedule_v2(ch05::Pipeline& pipeline);

}  // namespace exercise05
