/// @file copy_while_working.cuh
/// @brief Exercise 06b: keep the CPU working while a copy from pinned memory runs.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>

namespace exercise06b {

/// Copies @p bytes from @p pinned_host (page-locked memory) to @p device on
/// @p stream, and runs @p cpu_work once on this thread while the copy engine
/// copies. Returns once both are done: the copy has arrived and the CPU work
/// has finished. The same placement as chapter 06's
/// ch06::Placement::after_nonblocking_copy.
void copy_while_working(const unsigned char* pinned_host, unsigned char* device, std::size_t bytes,
                        const std::function<void()>& cpu_work, cudaStream_t stream);

}  // namespace exercise06b
