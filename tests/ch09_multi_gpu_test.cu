// Chapter 09 on one GPU: what runs anywhere (the pipeline's kernel against its
// CPU reference, the device choice, the probe that needs no second GPU, the
// pipeline on one GPU). The two-GPU parts are in ch09_two_gpu_test.cu.
#include <doctest/doctest.h>

#include <vector>

#include "device.cuh"
#include "memory.cuh"
#include "multi_gpu.cuh"
#include "program.hpp"
#include "stream.cuh"
#include "verify.hpp"

TEST_CASE("the pipeline's kernel matches its closed-form CPU reference") {
  lab::require_device();
  lab::Stream stream;
  for (int iterations : {1, 100, 5000}) {
    CAPTURE(iterations);
    const std::int64_t n = 100'003;
    const std::vector<float> x = lab::random_floats(n, 5);
    lab::DeviceBuffer<float> x_device(n), y_device(n);
    x_device.upload(x);
    y_device.poison(stream);
    ch09::launch_iterate(x_device.data(), y_device.data(), n, iterations, stream);
    stream.synchronize();
    const lab::Comparison result =
        lab::compare(y_device.download(), ch09::iterate_reference(x.data(), n, iterations), ch09::kIterateTolerance);
    CHECK_MESSAGE(result.passed(), result.detail());
  }
}

TEST_CASE("--devices: 0 means all, more than the machine has is a usage error") {
  lab::require_device();
  const ch09::DeviceSet all = ch09::choose_devices(0);
  CHECK(all.used == all.visible);
  CHECK(all.names.size() == static_cast<std::size_t>(all.used));
  CHECK(ch09::choose_devices(1).used == 1);
  CHECK_THROWS_AS(ch09::choose_devices(all.visible + 1), lab::UsageError);
}

TEST_CASE("on one GPU (--devices 1): the invalid-device probe runs, the rest says it was skipped") {
  lab::require_device();
  const ch09::DeviceSet one = ch09::choose_devices(1);
  const ch09::OwnershipRun ownership = ch09::probe_ownership(one, 1024, 1);
  CHECK(ownership.set_invalid_device == "cudaErrorInvalidDevice");
  CHECK(!ownership.skipped.empty());
  CHECK(!ch09::measure_peer_copies(one, 1 << 20, 1, 1).skipped.empty());
  CHECK(!ch09::race_across_devices(one, 1024, 1.0, 1).skipped.empty());
  int current = -1;
  REQUIRE(cudaGetDevice(&current) == cudaSuccess);
  CHECK(current == 0);
}

TEST_CASE("the pipeline on one GPU is correct, and its bound comes from the same run") {
  lab::require_device();
  const ch09::PipelineRun run = ch09::split_pipeline(ch09::choose_devices(1), 1'000'003, 7, 50, 2, 3);
  REQUIRE(run.variants.size() == 1);
  CHECK_MESSAGE(run.variants[0].result.passed(), run.variants[0].result.detail());
  CHECK(run.variants[0].ms.size() == 2);
  CHECK(run.variants[0].bound_ms > 0);
  CHECK(run.link.h2d_alone_gbps.size() == 1);
  CHECK(run.link.h2d_together_gbps == 0);
}
