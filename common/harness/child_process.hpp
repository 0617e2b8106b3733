/// @file child_process.hpp
/// @brief Running a small program of the chapter's in a process of its own and
/// reading what it prints: for what must not touch the chapter's own process
/// (a device flag, chapter 03; the hardware queues an environment variable
/// sets, chapter 05; a kernel that faults, chapter 08).
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <vector>

namespace lab {

/// What a child process printed (stdout and stderr together), and how it ended.
struct ChildOutput {
  int exit_code = -1;  ///< -1: killed by a signal, or never started
  std::string text;    ///< everything it printed
  std::string error;   ///< why it could not run or finish ("" when it did)
};

/// Runs @p program with @p arguments (posix_spawn, this process's environment
/// with @p environment applied: "NAME=value" replaces or adds NAME, a bare "NAME"
/// removes it) and collects what it prints, for at most @p timeout_s seconds; then it
/// is killed, by its id, and error says so.
ChildOutput run_child(const std::string& program, const std::vector<std::string>& arguments, double timeout_s,
                      const std::vector<std::string>& environment = {});

/// Why a run of the child @p name gave nothing to read: @p out.error when it
/// could not run or finish, else "NAME exited with code N" and the last @p tail
/// characters it printed (trailing blanks and newlines left out).
std::string child_failure(const std::string& name, const ChildOutput& out, std::size_t tail = 200);

/// The child's report in @p text: for each line whose first word is @p tag, in
/// order, calls @p read with the rest of the line's words, until one returns
/// true (it read what it expects). False when no line did.
bool find_child_line(const std::string& text, const std::string& tag, const std::function<bool(std::istream&)>& read);

/// The path of the executable @p name in the folder of the running one (the
/// chapters' helper programs are built beside them).
std::string program_beside_this_one(const std::string& name);

}  // namespace lab
