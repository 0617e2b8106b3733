/// @file nvml_link.cuh
/// @brief What the driver's management library (NVML) says about the links
/// between GPUs: the closest common point of two GPUs in the machine's
/// topology, whether NVML reports peer-to-peer reads and NVLink between them,
/// and how many NVLinks each GPU has up.
///
/// NVML is opened at run time (dlopen), as common/harness/nvml.cu does, so the chapter
/// builds and runs without it; then PeerMatrix::nvml_missing says why.
#pragma once

#include "data.hpp"

namespace ch09 {

/// Fills @p matrix.links (one per device), @p matrix.pairs (one per unordered
/// pair) and, when NVML cannot answer, @p matrix.nvml_missing. Never throws.
void read_nvml_links(PeerMatrix& matrix) noexcept;

}  // namespace ch09
