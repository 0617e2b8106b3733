/// @file pin_for_copy.cuh
/// @brief Exercise 06: page-lock an existing buffer for the duration of a copy.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "host_registration.cuh"

namespace exercise06 {

/// Queues the copy of @p host to @p device on @p stream from page-locked memory
/// and returns without waiting for it. The pages of @p host must stay locked
/// until the copy is done, so the registration is returned: the caller
/// synchronises @p stream and only then lets it go. Same contract as
/// ch06::upload_registered.
ch06::HostRegistration upload_pinned(std::vector<float>& host, float* device, cudaStream_t stream);

}  // namespace exercise06
