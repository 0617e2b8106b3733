/// @file cpu_work.hpp
/// @brief Real work for one CPU core, that the compiler cannot fold away, in
/// slices short enough to poll an event between them (chapters 02, 03).
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
