/// @file tables.hpp
/// @brief Chapter 06's tables: pure functions from the data of data.hpp to the printed tables, ids "sweep",
/// "both_directions", "calls", "registration", "upload", "cpu_freed", "write_combined", "zero_copy".
/// tests/ch06_checks_test.cpp tests them on hand-made data.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data.hpp"
#include "report.hpp"

namespace ch06 {

/// "4KiB", "256MiB", "1GiB": a size for a row name or a sentence.
std::string size_text(std::size_t bytes);
/// "pageable cudaMemcpy", "pinned cudaMemcpyAsync": a row name or a sentence.
std::string call_name(const CallTiming& c);

/// "sweep": GB/s (medians) per size, pageable and pinned each way, pinned both ways of sampling.
lab::ResultTable sweep_table(const SweepRun& run);
/// "both_directions": per size, each direction alone and with the other running, and the total.
lab::ResultTable both_directions_table(const SweepRun& run);
/// "calls": returned and done per combination, and whether the call returned after half the copy's time.
lab::ResultTable calls_table(const CallsRun& run);
/// "registration": register, unregister and both copies per size, and the copies until it pays.
lab::ResultTable registration_table(const std::vector<RegistrationRun>& runs);
/// "upload": the phases of a fresh vector, the same vector again, and upload_registered.
lab::ResultTable upload_table(const UploadRun& run);
/// "cpu_freed": the three orders against the pinned copy + CPU work, and against their own copy + CPU work.
lab::ResultTable cpu_freed_table(const CpuFreedRun& run);
/// "write_combined": H2D copy, CPU writes and CPU reads for both kinds.
lab::ResultTable write_combined_table(const WriteCombinedRun& run);
/// "zero_copy": per pass count, copy then kernel, zero-copy, and which was faster.
lab::ResultTable zero_copy_table(const MappedRun& run);

}  // namespace ch06
