/// @file output_file.hpp
/// @brief Files a program writes (`--json PATH`, `--trace PATH`): checked
/// before any GPU work, written whole or not at all.
///
/// A run that fails half-way must never leave a half-written file, nor destroy
/// the result of an earlier run: the text goes to a temporary file in the
/// target's folder, which is renamed over the target only when complete.
#pragma once

#include <string>

namespace lab {

/// Can @p path be written as a result file? Returns "" when it can, else why
/// not: its folder is missing or not a folder, the path names something that
/// is not a regular file (a folder, `/dev/full`), or no file can be created in
/// its folder (`/proc/x.json`, a read-only folder) — tested by creating and
/// removing a temporary file there, so it holds for root too.
std::string check_output_file(const std::string& path);

/// Writes @p text to @p path atomically: a temporary file in the same folder,
/// flushed and closed, then renamed over @p path. On any error the temporary
/// file is removed, @p path is left as it was, and std::runtime_error names
/// the path and the reason.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace lab
