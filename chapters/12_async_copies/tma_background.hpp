/// @file tma_background.hpp
/// @brief What the documentation says about the TMA bulk copies the tma version
/// (tma.cu) relies on, with the section of each sentence: background lines for
/// the chapter's report (versions_background can append them), true whatever the run.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"

namespace ch12 {

/// The rules and promises of one-dimensional TMA bulk copies completed on a shared-memory barrier.
inline std::vector<lab::Background> tma_background() {
  const std::string tma =
      "CUDA Programming Guide, Asynchronous Data Copies, Using TMA to transfer one-dimensional arrays";
  return {
      {"TMA transfers \"are asynchronous and are modeled as async proxy operations\"; \"whether the data transfer "
       "occurs asynchronously in practice is up to the hardware implementation and may change in the future\"",
       "CUDA Programming Guide, Asynchronous Data Copies, Using the Tensor Memory Accelerator (TMA)"},
      {"cuda::device::memcpy_async_tx and cuda::ptx::cp_async_bulk \"always use TMA and will result in undefined "
       "behavior if the requirements are not met\": global and shared addresses 16 byte aligned, the size of the "
       "transfer a multiple of 16 bytes, the barrier 8 byte aligned (the tma version checks them before each launch)",
       tma},
      {"the copying thread tells the barrier how many bytes to expect; \"the barrier will only flip once all threads "
       "have arrived and all bytes have arrived\" (the tma version's barriers expect one arrival: the copying "
       "thread's)",
       tma},
      {"\"issuing as few bulk copies with as big a size as possible results in the best performance\" (one copy per "
       "tile here)",
       tma},
      {"copying the tiles of the next stages ahead allows \"hiding the latency of data transfers of future iterations "
       "with "
       "computation on the current iteration\"; the wait is for the barrier's phase parity (explicit phase tracking)",
       tma + ", Prefetching Data"},
      {"the mbarrier's tx-count \"tracks the number of asynchronous transactions ... that are outstanding and yet to "
       "be "
       "complete\"; barrier_arrive_tx accepts a transaction count update of at most (1 << 20) - 1 bytes",
       "PTX ISA, Tracking asynchronous operations by the mbarrier object; libcu++, cuda::device::barrier_arrive_tx"},
      {"memcpy_async_tx \"can only be used under CUDA Compute Capability 9.0 (Hopper) or higher\" and \"there is no "
       "feature flag to check\" for it: the tma version asks the runtime which code the device runs and skips below "
       "9.0",
       "libcu++, cuda::device::memcpy_async_tx, Notes"},
  };
}

}  // namespace ch12
