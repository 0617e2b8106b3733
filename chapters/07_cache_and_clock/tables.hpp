/// @file tables.hpp
/// @brief Chapter 07's tables: pure functions from the data of data.hpp to the printed tables (stable ids);
/// tests/ch07_checks_test.cpp tests them on hand-made data.
#pragma once

#include "data.hpp"
#include "report.hpp"

namespace ch07 {

// --- 1. Warm and cold L2, and the flush's two effects --------------------------

/// Every case of @p set: median, min, max, vs warm, GB/s, correct (id "working_set_" + role).
lab::ResultTable working_set_table(const WorkingSetRun& set);
/// Differences of two cases' medians on @p set, each changing one thing (the placement, or what ran before),
/// with how it is measured (id "flush_effects_" + role).
lab::ResultTable effects_table(const WorkingSetRun& set);

// --- 2. The SM clock ------------------------------------------------------------

/// In-kernel clock and NVML at idle, under load and after, with power and nvbench's rule (id "clock").
lab::ResultTable clock_table(const ClockRun& run);
/// The in-kernel method's error terms: spread, %globaltimer's step, their sum with NVML's step, the gap to NVML
/// (id "clock_error").
lab::ResultTable clock_error_table(const ClockRun& run);

// --- 3. Many samples ------------------------------------------------------------

/// The samples' statistics, Tukey's outliers and the clock inside them (id "samples").
lab::ResultTable samples_table(const SamplesRun& run);
/// The samples sorted into 12 bins, each with a bar (id "histogram").
lab::ResultTable histogram_table(const SamplesRun& run);
/// A 95 % bootstrap interval of the median of the first n samples, for growing n, beside 1/sqrt(n) (id "precision").
lab::ResultTable precision_table(const SamplesRun& run);

}  // namespace ch07
