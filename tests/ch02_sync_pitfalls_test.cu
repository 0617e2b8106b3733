// Chapter 02 on the GPU: the lesson's own functions (sync_pitfalls.cuh), checked
// with large effects measured in the same run.
#include <doctest/doctest.h>

#include "clock.cuh"
#include "device.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "sync_pitfalls.cuh"

namespace {

double median_of(ch02::SyncCase c, const ch02::GpuWork& work, cudaStream_t stream) {
  const auto samples = ch02::time_with_host_timer(c, work, stream, 5);
  cudaStreamSynchronize(stream);
  return lab::summarize(samples).median;
}

}  // namespace

TEST_CASE("around a 5 ms kernel the unsynchronised host timer reads under a tenth of the synchronised one") {
  lab::require_device();
  lab::Stream stream;
  auto kernel = [](cudaStream_t s) { lab::launch_spin(s, 5.0); };
  lab::launch_spin(stream, 0.01);  // load the module
  const double synced = median_of(ch02::SyncCase::before_and_after, kernel, stream);
  const double never = median_of(ch02::SyncCase::never, kernel, stream);
  const double before = median_of(ch02::SyncCase::before_only, kernel, stream);
  CAPTURE(synced);
  CAPTURE(never);
  CAPTURE(before);
  CHECK(synced >= 4.9);
  CHECK(never < synced / 10);
  CHECK(before < synced / 10);
}

TEST_CASE("only 'sync after only' has the warm-up's backlog in its first sample") {
  lab::require_device();
  lab::Stream stream;
  auto kernel = [](cudaStream_t s) { lab::launch_spin(s, 0.1); };
  const ch02::CaseRun after = ch02::run_case(ch02::SyncCase::after_only, kernel, stream, 2, 20.0, 3);
  const ch02::CaseRun both = ch02::run_case(ch02::SyncCase::before_and_after, kernel, stream, 2, 20.0, 3);
  CHECK(after.backlog_ms >= 19.0);
  CHECK(after.samples_ms.front() >= 15.0);  // the 20 ms backlog ran inside the timer
  CHECK(after.samples_ms.back() < 10.0);    // later runs have none
  CHECK(both.samples_ms.front() < 10.0);    // the sync before emptied the queue first
}

TEST_CASE("CPU work placed before the sync overlaps the GPU; placed after an implicit sync, the times add") {
  const lab::DeviceInfo device = lab::require_device();
  ch01::AddProblem add(1 << 20, 7, device);
  lab::Stream stream;
  const ch02::Placement p = ch02::compare_cpu_work_placement(add, 10.0, 10.0, stream);
  CHECK_MESSAGE(p.work_then_sync.passed(), p.work_then_sync.detail());
  CHECK_MESSAGE(p.sync_then_work.passed(), p.sync_then_work.detail());
  CAPTURE(p.work_then_sync_ms);
  CAPTURE(p.sync_then_work_ms);
  CHECK(p.gpu_ms >= 9.9);
  CHECK(p.work_then_sync_ms < p.sync_then_work_ms);
  CHECK(p.sync_then_work_ms >= 19.5);  // 10 ms of GPU work, then 10 ms of CPU work
}

TEST_CASE("implicit synchronisation: each call waits exactly when documented, and the data stays correct") {
  const lab::DeviceInfo device = lab::require_device();
  for (std::int64_t n : {1LL, 1000003LL}) {
    ch01::AddProblem add(n, 3, device);
    lab::Stream stream;
    for (ch02::HostCall call : ch02::kAllHostCalls) {
      CAPTURE(n);
      CAPTURE(ch02::host_call_name(call));
      const ch02::ImplicitSync probe = ch02::probe_implicit_sync(call, add, 20.0, stream);
      CAPTURE(probe.returned_after_ms);
      CHECK_MESSAGE(probe.result.passed(), probe.result.detail());
      CHECK(probe.waited == ch02::documented_to_wait(call));
    }
  }
}

TEST_CASE("the four cases leave c = a + b correct") {
  const lab::DeviceInfo device = lab::require_device();
  ch01::AddProblem add((1 << 16) + 5, 5, device);
  lab::Stream stream;
  for (ch02::SyncCase c : ch02::kAllCases) {
    CAPTURE(ch02::case_name(c));
    add.poison(stream);
    const ch02::CaseRun run = ch02::run_case(c, [&](cudaStream_t s) { add.launch(s); }, stream, 3, 1.0, 4);
    CHECK(run.samples_ms.size() == 4);
    const lab::Comparison result = add.check();
    CHECK_MESSAGE(result.passed(), result.detail());
  }
}
