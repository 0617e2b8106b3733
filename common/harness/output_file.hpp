/// @file output_file.hpp
/// @brief Files a program writes (`--json PATH`, `--trace PATH`): checked
/// before any GPU work, and written whole or not at all, so a failed run never
/// leaves half a file nor destroys an earlier result.
#pragma once

#include <string>

namespace lab {

/// "" when @p path can be written as a result file, else why not: no such
/// folder, not a regular file (a folder, `/dev/full`), or no file can be
/// created in its folder (tried, so it holds for root in `/proc` too).
std::string check_output_file(const std::string& path);

/// Writes @p text to a temporary file beside @p path, then renames it over
/// @p path. On error @p path is left as it was and std::runtime_error says why.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace lab
