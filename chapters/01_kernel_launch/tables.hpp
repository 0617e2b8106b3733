/// @file tables.hpp
/// @brief Chapter 01's tables: the pure functions that turn the data each
/// experiment returns (data.hpp) into the tables the chapter prints and writes to JSON.
///
/// Plain C++: no GPU is needed to build or test this file (tests/ch01_checks_test.cpp).
#pragma once

#include "data.hpp"
#include "device.cuh"
#include "report.hpp"

namespace ch01 {

/// The limits of one launch on @p device, beside those of compute capability
/// 1.x that older articles still quote (CUDA C++ Programming Guide, "Features
/// and Technical Specifications").
lab::ResultTable limits_table(const lab::DeviceInfo& device);
/// One row per variant (and the copy): grid, block, median, min, max,
/// bandwidth and percentage of the copy's bandwidth; the note gives a, b and c
/// as a multiple of the device's L2.
lab::ResultTable variants_table(const VariantsRun& run);
/// The three times, in one table.
lab::ResultTable launch_return_table(const LaunchReturnTiming& t);
/// The bad launch, what cudaGetLastError() said, and the launch after it.
lab::ResultTable launch_error_table(const LaunchErrorDemo& demo, int max_threads_per_block);

}  // namespace ch01
