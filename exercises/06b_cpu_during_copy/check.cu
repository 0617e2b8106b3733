// The check for exercise 06b, built from this file against your
// copy_while_working.cu (test ch06b_exercise_check, label "exercise"), against
// solutions/ (test ch06b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch06b_pristine_check,
// label "pristine": it must fail). It uses chapter 06's own pinned memory,
// copy timing and CPU work (ch06::HostMemory, ch06::time_copy_ms,
// ch06::cpu_work, as in section 4 of the chapter): a 256 MiB copy from pinned
// memory, and CPU work calibrated to three quarters of it (so a function that
// does not wait returns while the copy still runs), each timed alone in this run.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "copy_while_working.cuh"
#include "pinned.cuh"
#include "statistics.hpp"
#include "stream.cuh"
#include "timers.cuh"

TEST_CASE("exercise 06b: the CPU works while a 256 MiB copy from pinned memory runs, and the bytes arrive") {
  constexpr std::size_t kBytes = std::size_t{256} << 20;
  constexpr int kReps = 3;
  lab::Stream stream;
  ch06::HostMemory pinned(ch06::HostKind::pinned, kBytes);
  ch06::fill_random(pinned.data(), kBytes, 61);
  lab::DeviceBuffer<unsigned char> device(kBytes);

  // The copy alone (an event pair around each, the chapter's timing) and the CPU work alone.
  const double copy_ms = lab::median(
      ch06::time_copy_ms(ch06::Direction::host_to_device, pinned.data(), device.data(), kBytes, stream, kReps));
  const std::int64_t steps = ch06::calibrate_cpu_work(0.75 * copy_ms);
  int calls = 0;
  volatile std::uint64_t sink = 0;
  auto cpu_work = [&] {
    ++calls;
    sink = sink + ch06::cpu_work(steps);
  };
  std::vector<double> cpu_ms;
  for (int rep = 0; rep < kReps; ++rep) {
    lab::HostTimer timer;
    cpu_work();
    cpu_ms.push_back(timer.elapsed_ms());
  }
  const double work_ms = lab::median(cpu_ms);

  // Your function, kReps times, each into a poisoned device buffer (0xFF bytes).
  calls = 0;
  std::vector<double> yours_ms;
  bool done_on_return = true;
  ch06::CopyCheck arrived;
  for (int rep = 0; rep < kReps; ++rep) {
    device.poison(stream);
    LAB_CHECK(cudaStreamSynchronize(stream));
    lab::HostTimer timer;
    exercise06b::copy_while_working(pinned.data(), device.data(), kBytes, cpu_work, stream);
    yours_ms.push_back(timer.elapsed_ms());
    const cudaError_t state = cudaStreamQuery(stream);  // cudaSuccess: everything queued on it has finished
    if (state != cudaErrorNotReady) LAB_CHECK(state);
    done_on_return = done_on_return && state == cudaSuccess;
    LAB_CHECK(cudaStreamSynchronize(stream));
    arrived = ch06::compare_bytes(device.download().data(), pinned.data(), kBytes);
    if (!arrived.intact) break;
  }

  CHECK_MESSAGE(calls == static_cast<int>(yours_ms.size()),
                "the CPU work ran " << calls << " times in " << yours_ms.size()
                                    << " calls of copy_while_working; expected once per call");
  REQUIRE_MESSAGE(arrived.intact,
                  "after copy_while_working returned (and the check waited for the stream), the "
                  "device does not hold the host's bytes ("
                      << arrived.detail() << "): does it still queue the whole copy, all " << kBytes
                      << " bytes from pinned_host to device, on the stream it was given?");
  CHECK_MESSAGE(done_on_return,
                "copy_while_working returned while the copy was still running (cudaStreamQuery "
                "answered cudaErrorNotReady): wait for the stream after the CPU work, before "
                "returning");
  const double yours = lab::median(yours_ms);
  const double one_after_the_other = copy_ms + work_ms;
  CAPTURE(yours);
  CAPTURE(copy_ms);
  CAPTURE(work_ms);
  CHECK_MESSAGE(yours < 0.8 * one_after_the_other,
                "copy_while_working took " << yours << " ms; the copy alone took " << copy_ms
                                           << " ms and the CPU work alone " << work_ms << " ms, one after the other "
                                           << one_after_the_other << " ms; expected under 0.8 x that, "
                                           << 0.8 * one_after_the_other
                                           << " ms: the CPU work did not run while the copy was under way; queue "
                                              "the copy, do the CPU work, then wait for the stream");
}
