/// @file queue_scale.cuh
/// @brief Chapter 10, section 6: the launch queue's depth under
/// CUDA_SCALE_LAUNCH_QUEUES.
///
/// The driver reads the variable when the process creates its context, so one
/// child process (ch10_queue_child) runs per value, with the variable set in
/// its environment (or removed, for the driver's default), as chapter 05 does
/// for CUDA_DEVICE_MAX_CONNECTIONS. The child measures the depth with chapter
/// 08's ch08::fill_launch_queue: empty kernels into a held stream, each launch
/// call timed, until one waits for room.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"

namespace ch10 {

/// 6, in ch10_queue_child: the depth of this process's launch queue, filling it
/// with at most @p max_launches empty kernels; records the variable as read.
QueueScaleProbe measure_queue_depth(std::int64_t max_launches);

/// 6. Runs @p child_program once per value of @p values ("" removes the variable)
/// with at most @p max_launches launches each; skipped (with the reason) when @p instrumented.
QueueScaleRun run_queue_children(const std::string& child_program, const std::vector<std::string>& values,
                                 std::int64_t max_launches, bool instrumented);

/// Where ch10_queue_child is: beside the running executable.
std::string queue_child_program();

}  // namespace ch10
