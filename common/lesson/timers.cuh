/// @file timers.cuh
/// @brief The host's stopwatch (chapter 02). The GPU's is a pair of lab::Event
/// (stream.cuh) with cudaEventRecord written out, as every lesson does.
#pragma once

#include <cuda_runtime.h>

#include <chrono>

namespace lab {

/// Wall-clock time on the host; around GPU work it means something only after a
/// synchronisation (chapter 02).
class HostTimer {
 public:
  HostTimer() { restart(); }
  /// Starts counting from now.
  void restart() { start_ = std::chrono::steady_clock::now(); }
  /// Milliseconds since construction or the last restart().
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace lab
