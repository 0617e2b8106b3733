/// @file tables.hpp
/// @brief Chapter 13's tables: each section's data (data.hpp) as the table
/// printed and written to the JSON file. The readings and the verdict they
/// show come from checks.hpp; no CUDA header (tests/ch13_checks_test.cpp).
#pragma once

#include "data.hpp"
#include "report.hpp"

namespace ch13 {

/// Table "naive": each workload's naive pair against CUPTI's reading of the same calls.
lab::ResultTable naive_table(const GalleryRun& run);

/// Table "reference": each workload's reference reading, CUPTI's, the tolerance and the verdict.
lab::ResultTable reference_table(const GalleryRun& run);

/// Table "sequence": lone, stream sequence and graph, each beside CUPTI.
lab::ResultTable sequence_table(const SequenceRun& run);

}  // namespace ch13
