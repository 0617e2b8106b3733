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
/// Beside it, the PCIe link's raw rate after line coding, which bounds every copy.
#pragma once

namespace ch06 {

/// The measured costs that decide whether registering pays.
struct RegistrationCosts {
  double registration_ms = 0;   ///< cudaHostRegister + cudaHostUnregister of the buffer
  double pageable_copy_ms = 0;  ///< one copy from the buffer unregistered
  double pinned_copy_ms = 0;    ///< one copy from the buffer registered
};

/// Time for @p copies copies without registering.
double pageable_total_ms(const RegistrationCosts& costs, int copies);

/// Time for @p copies copies, registering once first.
double registered_total_ms(const RegistrationCosts& costs, int copies);

/// The smallest number of copies after which registering has saved time, or 0
/// when it never does (a registered copy is not faster). 1 means it pays on the
/// very first copy.
int copies_to_break_even(const RegistrationCosts& costs);

/// The raw rate of a PCIe link in GB/s per direction after line coding (packet overhead not counted):
/// Gen 5 x16 = 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s. 0 for an unknown generation.
double pcie_gigabytes_per_second(int generation, int lanes);

}  // namespace ch06
