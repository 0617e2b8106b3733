/// @file background.hpp
/// @brief What holds whatever the run, with the documentation that states it:
/// lab::Report::add() prints it as background, never as a result.
#pragma once

#include <vector>

#include "report.hpp"

namespace ch05 {

/// 3. What CUDA_DEVICE_MAX_CONNECTIONS sets, how streams alias to connections,
/// and why NVIDIA's article found V1 and V2 apart.
std::vector<lab::Background> queue_background();

}  // namespace ch05
