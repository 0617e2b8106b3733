// Chapter 13 on the GPU: the lesson's own functions (gallery.cuh, harness.cuh),
// checked with results against the CPU and with large effects measured as
// ratios in the same run.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "check.cuh"
#include "checks.hpp"
#include "device.cuh"
#include "gallery.cuh"
#include "harness.cuh"
#include "stream.cuh"

namespace {

ch13::GallerySizes small_sizes() {
  ch13::GallerySizes s;
  s.n = 100003;  // not a multiple of the block: the grid-stride tail runs
  s.n_large = std::int64_t{1} << 20;
  s.long_ms = 1.0;
  s.cpu_ms = 1.0;
  return s;
}

const ch13::WorkloadRun& by_id(const ch13::GalleryRun& run, const std::string& id) {
  for (const ch13::WorkloadRun& w : run.workloads) {
    if (w.id == id) return w;
  }
  FAIL("no workload " << id);
  return run.workloads.front();
}

}  // namespace

TEST_CASE("every workload, waited for, writes the CPU's answer into a poisoned output") {
  const lab::DeviceInfo device = lab::require_device();
  lab::Stream caller(cudaStreamNonBlocking);
  ch13::Gallery gallery(small_sizes(), device);
  for (ch13::Workload& w : gallery.workloads()) {
    CAPTURE(w.id);
    w.problem->fill(7, caller);
    w.problem->poison(caller);
    LAB_CHECK(cudaDeviceSynchronize());
    w.call(caller);
    LAB_CHECK(cudaDeviceSynchronize());
    CHECK(w.problem->read(caller) == w.problem->expected());
  }
}

TEST_CASE("the naive pair misses side-stream work; the reference harness measures it or refuses the cheat") {
  const lab::DeviceInfo device = lab::require_device();
  lab::Stream caller(cudaStreamNonBlocking);
  ch13::Gallery gallery(small_sizes(), device);
  ch13::GalleryRun run = ch13::time_naive(gallery, 3, 11, caller);
  CHECK(ch13::naive_checks(run).front().passed);  // every output right once the GPU is idle
  ch13::time_reference(gallery, 3, 11, caller, run);
  CHECK(ch13::reference_checks(run).front().passed);  // every honest output right at the stop event

  // Refusals do not depend on CUPTI: the outputs show them.
  CHECK(ch13::reference_verdict(by_id(run, "cached")).branch == "refused.stale");
  CHECK(ch13::reference_verdict(by_id(run, "left_queued")).branch == "refused.unwritten");
  CHECK(ch13::reference_verdict(by_id(run, "cpu_bound")).branch == "host_bound");  // 1 ms of CPU, a ~3 us kernel
  const ch13::WorkloadRun& side = by_id(run, "side_stream");
  CHECK(ch13::reference_verdict(side).branch == "measured");
  // A 1 ms kernel on the side stream: the naive pair reads a small part of it,
  // the reference harness most of it (ratios of the same run, CUPTI aside).
  const double naive = ch13::naive_reading_us(side);
  const double reference = ch13::reference_reading_us(side, run.empty_pair_us);
  CAPTURE(naive);
  CAPTURE(reference);
  CHECK(reference > 900.0);
  CHECK(naive < 0.5 * reference);
  const ch13::WorkloadRun& own = by_id(run, "wrong_stream");
  CHECK(ch13::reference_reading_us(own, run.empty_pair_us) > 900.0);
  CHECK(ch13::naive_reading_us(own) < 0.5 * ch13::reference_reading_us(own, run.empty_pair_us));
  if (side.cupti_missing.empty()) {
    CHECK(ch13::truth_us(side) > 900.0);
    CHECK(reference < 1.2 * ch13::reference_cupti_us(side));
  }
}

TEST_CASE("a graph of K short kernels and K launches on a held stream write the CPU's answer") {
  const lab::DeviceInfo device = lab::require_device();
  lab::Stream caller(cudaStreamNonBlocking);
  ch13::Gallery gallery(small_sizes(), device);
  const ch13::SequenceRun run = ch13::time_sequence(gallery, ch13::GalleryRun{}, 8, 2, 5, caller);
  CHECK_MESSAGE(run.stream_result.passed(), run.stream_result.detail());
  CHECK_MESSAGE(run.graph_result.passed(), run.graph_result.detail());
  REQUIRE(run.stream_us.size() == 2);
  REQUIRE(run.graph_us.size() == 2);
  CHECK(std::isnan(run.lone_us));  // no section 2 run given
  CHECK(run.stream_us.front() > 0);
  CHECK(run.graph_us.front() > 0);
}
