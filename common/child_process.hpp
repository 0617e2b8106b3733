/// @file child_process.hpp
/// @brief Running a small program of the chapter's in a process of its own and
/// reading what it prints: for what must not touch the chapter's own process
/// (a device flag, chapter 03; the hardware queues an environment variable
/// sets, chapter 05; a kernel that faults, chapter 08).
#pragma once

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

/// The path of the executable @p name in the folder of the running one (the
/// chapters' helper programs are built beside them).
std::string program_beside_this_one(const std::string& name);

}  // namespace lab
