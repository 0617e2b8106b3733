/// @file stamps.hpp
/// @brief What a block records per tile when asked (staging.cuh's launch_version
/// with a stamps buffer): plain C++, so the findings can summarise it on the CPU.
#pragma once

namespace ch12 {

/// One block's %globaltimer stamps for one of its tiles, taken by its thread 0.
/// A tile the block never handled keeps all three at 0.
struct StageStamps {
  unsigned long long issued;    ///< the copy of this tile was issued (direct: the tile's loop iteration began)
  unsigned long long ready;     ///< the wait for this tile returned: its data is visible to the whole block
  unsigned long long computed;  ///< the block finished computing and storing this tile
};

}  // namespace ch12
