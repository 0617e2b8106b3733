/// @file launch_options.hpp
/// @brief Chapter 01's command-line options and the checks on them that the
/// option table alone cannot express (they need the GPU's limits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "device.cuh"
#include "options.hpp"

namespace ch01 {

/// Chapter 01's settings; the initial values are the defaults.
struct LaunchOptions {
  std::int64_t n = std::int64_t{64} << 20;  ///< floats per vector (64Mi: 768 MiB for a, b and c)
  std::int64_t block = 256;                 ///< threads per block
  std::int64_t reps = 20;                   ///< timed samples per variant
  std::int64_t seed = 1;                    ///< random input seed
};

/// Adds chapter 01's options to @p table, bound to @p options (which must
/// outlive the table), with check_block_size() as a rule.
void add_launch_options(lab::Options& table, LaunchOptions& options);

/// The checks that need no GPU: a block is a whole number of 32-thread warps.
/// Returns "" when fine, otherwise the message for the user.
std::string check_block_size(std::int64_t block);

/// The checks against the machine: the block fits the GPU, a, b and c fit in
/// its free memory, and the host copies (a, b, the reference and a result) fit
/// in the host's available memory. Returns "" when fine, otherwise the message.
std::string check_against_machine(const LaunchOptions& options, int max_threads_per_block,
                                  std::size_t free_device_bytes, std::size_t available_host_bytes);

/// check_against_machine() for @p device and this host's available memory;
/// throws lab::UsageError (exit 2) with its message when something does not fit.
void require_fits_machine(const LaunchOptions& options, const lab::DeviceInfo& device);

/// The memory check behind check_against_machine(), for any chapter that
/// holds c = a + b: three vectors of @p n floats fit in the device's free
/// memory, and four (a, b, the reference, a result) in the host's available
/// memory. @p what names the options in the message, e.g. "--n 1Ti".
/// Returns "" when fine, otherwise the message.
std::string check_vectors_fit(const std::string& what, std::int64_t n, std::size_t free_device_bytes,
                              std::size_t available_host_bytes);

}  // namespace ch01
