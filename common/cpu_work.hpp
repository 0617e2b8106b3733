/// @file cpu_work.hpp
/// @brief Real work for one CPU core, for the chapters that show CPU work
/// overlapping the GPU's (02, 03): it cannot be folded away by the compiler,
/// and it comes in slices short enough to check a clock or poll an event between them.
#pragma once

#include <cstdint>

namespace lab {

/// One slice of CPU work: 4096 dependent multiply-adds (a few microseconds on
/// one core). Returns the iterations done.
std::uint64_t cpu_work_slice();

/// Keeps one core busy with slices for about @p ms of host time; returns the
/// iterations done.
std::uint64_t do_cpu_work(double ms);

}  // namespace lab
