/// @file l2_flush.cuh
/// @brief Evicting the L2 cache before a "cold" sample (chapters 03 and 07).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "memory.cuh"

namespace lab {

/// Evicts the L2 cache: resets lines marked persisting, at the call and not in
/// stream order (a plain flush keeps them: nvbench issue #458), then writes a
/// buffer twice the L2's size with cudaMemsetAsync (nvbench memsets once the
/// L2's size). What it leaves behind
/// are written lines; whether their write-back costs the next kernel time is
/// what chapter 07 measures (beside a flush that only reads), not assumes.
class L2Flusher {
 public:
  /// Allocates the flush buffer for the current device.
  L2Flusher();
  /// Resets persisting lines at the call (not stream-ordered), then queues a
  /// memset on @p stream.
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return buffer_.bytes(); }  ///< size of the flush buffer

 private:
  DeviceBuffer<unsigned char> buffer_;
};

}  // namespace lab
