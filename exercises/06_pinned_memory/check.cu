// The check for exercise 06, built twice: against your file in exercises/
// (test ch06_exercise_check, label "exercise") and against solutions/
// (test ch06_solution_check, label "solution", part of the default test run).
#include <doctest/doctest.h>

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

}  // namespace

TEST_CASE("exercise 06: the buffer is page-locked while the copy runs, unlocked after, and the data arrives") {
  for (std::size_t count : {std::size_t{1} << 10, (std::size_t{64} << 20) / sizeof(float) + 1}) {
    CAPTURE(count);
    std::vector<float> host = lab::random_floats(count, 6);
    const std::vector<float> original = host;
    lab::Stream stream;
    lab::DeviceBuffer<float> device(count);
    device.poison(stream);
    LAB_CHECK(cudaStreamSynchronize(stream));
    REQUIRE_FALSE(page_locked(host.data()));
    {
      lab::HostRegistration registration = exercise06::upload_pinned(host, device.data(), stream);
      CHECK_MESSAGE(page_locked(host.data()), "the returned registration must keep the first page locked");
      CHECK_MESSAGE(page_locked(host.data() + count - 1), "... and the last one: register the whole vector");
      LAB_CHECK(cudaStreamSynchronize(stream));
    }
    CHECK_MESSAGE(!page_locked(host.data()), "once the registration is gone, the pages are unlocked again");
    CHECK(host == original);
    const lab::Comparison result = lab::compare(device.download(), original);
    CHECK_MESSAGE(result.passed(), result.detail());
  }
}
