/// @file nvtx_ranges.cuh
/// @brief Section 6's lesson: NVTX ranges. Sections 1 and 2 open a range with
/// nvtxRangePushA and close it with nvtxRangePop around their work, so a profiler
/// (Nsight Systems: nsys profile --trace=cuda,nvtx) draws them above the kernels
/// they launched; this section times what a range costs when no tool listens.
#pragma once

#include "data.hpp"

namespace ch11 {

/// 6. @p samples samples of 100000 nvtxRangePushA / nvtxRangePop pairs, timed
/// on the host; also what a push and a pop returned (-2 when no tool tracks ranges).
NvtxRun time_nvtx_ranges(int samples);

}  // namespace ch11
