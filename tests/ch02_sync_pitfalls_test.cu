// Chapter 02 on the GPU: the lesson's own functions (sync_pitfalls.cuh), checked
// with large effects measured in the same run, and the checks computed from
// real runs (checks.hpp).
#include <doctest/doctest.h>

#include <iterator>
#include <string>

#include "checks.hpp"
#include "clock.cuh"
#include "cupti_timeline.cuh"
#include "device.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "sync_pitfalls.cuh"

namespace {

double median_of(ch02::SyncCase c, const ch02::TimedKernel& kernel, cudaStream_t stream) {
  const auto samples = ch02::time_with_host_timer(c, kernel, stream, 5);
  LAB_CHECK(cudaStreamSynchronize(stream));
  return lab::median(samples);
}

bool all_passed(const std::vector<lab::Finding>& findings) {
  for (const lab::Finding& f : findings) {
    if (!f.passed) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("around a 5 ms kernel the unsynchronised host timer reads under a tenth of the synchronised one") {
  lab::require_device();
  lab::Stream stream;
  const auto kernel = ch02::TimedKernel::spinning(5.0);
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

TEST_CASE("only 'sync after only' has the backlog in its first reading") {
  lab::require_device();
  lab::Stream stream;
  const auto kernel = ch02::TimedKernel::spinning(0.1);
  ch02::Options settings;  // 3 runs, 2 warm-up launches, a 20 ms backlog
  settings.runs = 3;
  settings.warmup = 2;
  settings.backlog_ms = 20.0;
  const ch02::CaseRun after = ch02::run_case(ch02::SyncCase::after_only, kernel, settings, stream);
  const ch02::CaseRun both = ch02::run_case(ch02::SyncCase::before_and_after, kernel, settings, stream);
  CAPTURE(after.samples_ms.front());
  CAPTURE(both.samples_ms.front());
  CHECK(after.backlog_ms >= 19.0);
  CHECK(after.samples_ms.front() >= 15.0);  // the 20 ms backlog ran inside the timer
  CHECK(after.samples_ms.back() < 10.0);    // later runs have none
  CHECK(both.samples_ms.front() < 10.0);    // the sync before emptied the queue first
  CHECK(ch02::first_run_held_backlog(after));
  CHECK_FALSE(ch02::first_run_held_backlog(both));
}

TEST_CASE("the four cases leave c = a + b correct, and a 10 ms kernel passes section 2's timing check") {
  const lab::DeviceInfo device = lab::require_device();
  ch01::AddProblem add((1 << 16) + 5, 5, device);
  lab::Stream stream;
  ch02::Options settings;  // 4 runs, 3 warm-up launches, a 1 ms backlog
  settings.runs = 4;
  settings.warmup = 3;
  settings.backlog_ms = 1.0;
  const ch02::HostTimerRun short_kernel =
      ch02::compare_host_timers(ch02::TimedKernel::add_kernel(add), settings, stream);
  REQUIRE(short_kernel.cases.size() == 4);
  for (const ch02::CaseRun& c : short_kernel.cases) {
    CAPTURE(ch02::case_name(c.sync_case));
    CHECK(c.samples_ms.size() == 4);
    CHECK_MESSAGE(c.result.passed(), c.result.detail());
  }
  CHECK(all_passed(ch02::host_timer_checks(short_kernel)));

  const ch02::HostTimerRun long_kernel = ch02::compare_host_timers(ch02::TimedKernel::spinning(10.0), settings, stream);
  CHECK(lab::median(long_kernel.kernel_ms) >= 9.9);
  for (const lab::Finding& f : ch02::long_kernel_checks(long_kernel)) {
    CAPTURE(f.name);
    CAPTURE(f.text);
    CHECK(f.passed);
  }
}

TEST_CASE("a case whose timed loop never ran the kernel fails the check, despite the warm-up launches") {
  const lab::DeviceInfo device = lab::require_device();
  ch01::AddProblem add((1 << 16) + 5, 5, device);
  lab::Stream stream;
  ch02::Options settings;  // the warm-up writes c; the timed loop is empty
  settings.runs = 0;
  settings.warmup = 3;
  settings.backlog_ms = 0.5;
  const ch02::CaseRun empty =
      ch02::run_case(ch02::SyncCase::before_and_after, ch02::TimedKernel::add_kernel(add), settings, stream);
  CHECK(empty.samples_ms.empty());
  CHECK_FALSE(empty.result.passed());  // the poison was queued after the warm-up
  settings.runs = 2;
  const ch02::CaseRun ran =
      ch02::run_case(ch02::SyncCase::before_and_after, ch02::TimedKernel::add_kernel(add), settings, stream);
  CHECK_MESSAGE(ran.result.passed(), ran.result.detail());
  ch02::HostTimerRun run;
  run.id = "add";
  run.kernel = "c = a + b";
  run.cases = {empty, ran};
  CHECK_FALSE(all_passed(ch02::host_timer_checks(run)));
}

TEST_CASE("CPU work placed before the read overlaps the GPU; placed after the read, the times add") {
  const lab::DeviceInfo device = lab::require_device();
  ch01::AddProblem add(1 << 20, 7, device);
  lab::Stream stream;
  const ch02::Placement p = ch02::compare_cpu_work_placement(add, 10.0, 10.0, stream);
  CHECK_MESSAGE(p.work_then_read.passed(), p.work_then_read.detail());
  CHECK_MESSAGE(p.read_then_work.passed(), p.read_then_work.detail());
  CAPTURE(p.work_then_read_ms);
  CAPTURE(p.read_then_work_ms);
  CHECK(p.gpu_ms >= 9.9);
  CHECK(p.cpu_ms >= 10.0);
  CHECK(p.work_then_read_ms < p.read_then_work_ms);
  CHECK(p.read_then_work_ms >= 19.5);  // 10 ms of GPU work, then 10 ms of CPU work
}

TEST_CASE("section 3: each call waits, and reads the kernel's result, exactly under the documented condition") {
  const lab::DeviceInfo device = lab::require_device();
  for (std::int64_t n : {1LL, 1000003LL}) {
    ch01::AddProblem add(n, 3, device);
    lab::TimelineSession no_timeline;  // not configured: records nothing
    const ch02::ImplicitSyncRun run = ch02::probe_host_calls(add, 20.0, no_timeline);
    REQUIRE(run.probes.size() == std::size(ch02::kAllSetups) * std::size(ch02::kAllHostCalls));
    for (const ch02::CallProbe& p : run.probes) {
      CAPTURE(n);
      CAPTURE(ch02::setup_label(p.setup));
      CAPTURE(ch02::host_call_name(p.call));
      CAPTURE(p.returned_after_ms);
      CAPTURE(p.data.detail());
      CHECK(p.work_ms >= 19.0);
      CAPTURE(p.alone_ms);
      const bool ordered = ch02::ordered_after_work(p.call, p.setup);
      if (ch02::promised_wait(p.call, p.setup)) CHECK(ch02::waited_for_work(p));
      // Documented to return at once (a launch, cudaMemcpyAsync to pinned memory), or a copy that
      // nothing orders after the work: it returned before the 20 ms of work had run.
      const bool asynchronous =
          p.call == ch02::HostCall::kernel_launch || p.call == ch02::HostCall::memcpy_async_pinned;
      const bool unordered_copy =
          (p.call == ch02::HostCall::memcpy_async_pageable || p.call == ch02::HostCall::memcpy_blocking) && !ordered;
      if (asynchronous || unordered_copy) CHECK_FALSE(p.work_done_at_return);
      if (ordered) CHECK(p.data.passed());
      // Not ordered after 20 ms of queued work: what it read is the NaN poison
      // (a race, but one the work loses by 20 ms).
      if (!ordered && p.data.count > 0) CHECK(p.data.mismatches == p.data.count);
      // When the host call returns, which the API pages leave open ("may", "not said
      // (API page)"), as the H100 did it: a warning, never a failure.
      if (p.call == ch02::HostCall::cuda_free) WARN(ch02::waited_for_work(p));
      if (p.call == ch02::HostCall::cuda_malloc) WARN_FALSE(ch02::waited_for_work(p));
    }
    for (ch02::WorkSetup setup : ch02::kAllSetups) {
      for (const lab::Finding& f : ch02::implicit_sync_checks(run, setup)) {
        CAPTURE(f.name);
        CAPTURE(f.text);
        CHECK(f.passed);
      }
    }
  }
}
