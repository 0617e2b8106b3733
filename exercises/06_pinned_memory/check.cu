// The check for exercise 06, built from this file against your pin_for_copy.cu
// (test ch06_exercise_check, label "exercise"), against solutions/ (test
// ch06_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch06_pristine_check, label
// "pristine": it must fail). The device buffer is poisoned with NaN before the copy.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "pin_for_copy.cuh"
#include "stream.cuh"
#include "verify.hpp"

namespace {

// Is @p pointer in page-locked host memory the CUDA driver knows about?
bool page_locked(const void* pointer) {
  cudaPointerAttributes attributes{};
  LAB_CHECK(cudaPointerGetAttributes(&attributes, pointer));
  return attributes.type == cudaMemoryTypeHost;
}

// "device[0] is NaN (the poison value): the copy never wrote it"
std::string explain_copy(const lab::Comparison& result) {
  if (result.first.empty()) return result.detail();
  const lab::Mismatch& first = result.first.front();
  std::ostringstream text;
  text << result.mismatches << " of " << result.count << " floats on the device are wrong; device[" << first.index
       << "]";
  if (std::isnan(first.actual)) {
    text << " is NaN (the poison value): the copy never wrote it; does your function still queue the "
            "whole copy, host.size() * sizeof(float) bytes?";
  } else {
    text << " = " << first.actual << ", expected the vector's " << first.expected;
  }
  return text.str();
}

}  // namespace

// The check looks at the pages at two moments only, when upload_pinned returns and after its registration is
// released: it cannot tell whether the copy was queued before or after the pages were locked (a copy queued
// from pageable memory first, then a registration, passes). HINTS.md and the chapter page say so.
TEST_CASE("exercise 06: the buffer is page-locked when the call returns, unlocked after, and the data arrives") {
  for (std::size_t count : {std::size_t{1} << 10, (std::size_t{64} << 20) / sizeof(float) + 1}) {
    CAPTURE(count);
    std::vector<float> host = lab::random_floats(count, 6);
    const std::vector<float> original = host;
    lab::Stream stream;
    lab::DeviceBuffer<float> device(count);
    device.poison(stream);
    LAB_CHECK(cudaStreamSynchronize(stream));
    REQUIRE_MESSAGE(!page_locked(host.data()),
                    "the check's own vector was page-locked before your function ran "
                    "(a registration from an earlier call that was never released?)");
    {
      ch06::HostRegistration registration = exercise06::upload_pinned(host, device.data(), stream);
      CHECK_MESSAGE(page_locked(host.data()),
                    "after upload_pinned returned, the vector's memory is not page-locked: the registration you "
                    "return must keep it locked until the caller lets it go (did you register host.data() before "
                    "the copy, and return that registration, not a new, empty one?)");
      CHECK_MESSAGE(page_locked(host.data() + count - 1),
                    "the vector's first page is locked but its last (element "
                        << count - 1 << ") is not: register the whole vector, host.size() * sizeof(float) bytes");
      LAB_CHECK(cudaStreamSynchronize(stream));
    }
    CHECK_MESSAGE(!page_locked(host.data()),
                  "the pages are still locked after the registration you returned was "
                  "destroyed: nothing else may keep them locked (no cudaHostRegister "
                  "outside ch06::HostRegistration)");
    CHECK_MESSAGE(host == original, "upload_pinned changed the vector's values: it should only read them");
    const lab::Comparison result = lab::compare(device.download(), original);
    CHECK_MESSAGE(result.passed(), explain_copy(result));
  }
}
