/// @file registration_model.hpp
/// @brief When page-locking an existing buffer pays for itself: plain C++,
/// tested on the CPU with numbers worked by hand.
///
/// Registering costs a fixed time per buffer (cudaHostRegister plus
/// cudaHostUnregister, which pin and unpin every page); every copy from the
/// registered buffer then saves (pageable copy - pinned copy). After n copies:
///   pageable:   n x pageable_copy_ms
///   registered: registration_ms + n x pinned_copy_ms
/// and registration wins from the smallest n with registered < pageable.
/// Beside it, the PCIe link's data rate after line encoding, which bounds every copy,
/// and the rescaling that calibrates section 4's CPU work.
#pragma once

#include <cstdint>

namespace ch06 {

/// The measured costs that decide whether registering pays.
struct RegistrationCosts {
  double registration_ms = 0;   ///< cudaHostRegister + cudaHostUnregister of the buffer
  double pageable_copy_ms = 0;  ///< one copy from the buffer unregistered
  double pinned_copy_ms = 0;    ///< one copy from the buffer registered
};

/// The smallest number of copies after which registering has saved time, or 0
/// when it never does (a registered copy is not faster). 1 means it pays on the
/// very first copy.
int copies_to_break_even(const RegistrationCosts& costs);

/// The data rate of a PCIe link in GB/s per direction after line encoding (8b/10b for Gen 1-2, 128b/130b for
/// Gen 3-5; packet overhead not counted): Gen 5 x16 = 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s. 0 for an
/// unknown generation.
double pcie_gigabytes_per_second(int generation, int lanes);

/// Section 4's calibration: @p steps of CPU work took @p took_ms; the steps that would take
/// @p target_ms at the same rate (at least 1). @p steps unchanged when @p took_ms is not positive.
std::int64_t rescaled_cpu_steps(std::int64_t steps, double took_ms, double target_ms);

}  // namespace ch06
