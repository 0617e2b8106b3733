// Chapter 12, the tma version on the GPU (piece 2 fills this file): equal to
// the CPU for 1-4 stages, short last tiles and full-shared-memory tiles. Every
// case needs compute capability 9.0 and a build with sm_90 code: below it, each
// skips (exit 77) with the reason (tests/CMakeLists.txt lists them as SKIPPABLE "tma:*").
#include <doctest/doctest.h>

#include <string>

#include "device.cuh"
#include "staging.cuh"
#include "support/skip.hpp"

namespace {

void require_tma() {
  static const lab::DeviceInfo info = lab::query_device(0);
  std::string why;
  if (!ch12::version_supported(ch12::Version::tma, info, &why)) lab_test::skip(why);
}

}  // namespace

TEST_CASE("tma: the version runs where it is supported") {
  require_tma();
  CHECK(ch12::tma_built());
}
