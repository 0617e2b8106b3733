/// @file program.hpp
/// @brief Exit codes, and lab::run_program, which turns errors into them:
/// every main() is `return lab::run_program("chNN_name", [&] { ... });`.
#pragma once

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

namespace lab {

/// The exit codes of every program in this repository.
namespace exit_code {
constexpr int success = 0;     ///< everything ran and every check passed
constexpr int failure = 1;     ///< a wrong result or a CUDA error
constexpr int usage = 2;       ///< bad command line
constexpr int no_device = 77;  ///< no usable CUDA device (ctest's "skipped")
}  // namespace exit_code

/// Bad command line: unknown option, invalid value, out of range. Exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// No CUDA device can be used (no driver, no GPU, hidden GPUs). Exit code 77.
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs @p body, which returns the exit code, and maps what it throws to a
/// message on stderr (prefixed with @p program) and an exit code.
template <class Body>
int run_program(const char* program, Body&& body) noexcept {
  try {
    return body();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: %s (try --help)\n", program, e.what());
    return exit_code::usage;
  } catch (const NoDeviceError& e) {
    std::fprintf(stderr, "%s: no usable CUDA device: %s\n", program, e.what());
    return exit_code::no_device;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return exit_code::failure;
  } catch (...) {
    std::fprintf(stderr, "%s: error: unknown exception\n", program);
    return exit_code::failure;
  }
}

}  // namespace lab
