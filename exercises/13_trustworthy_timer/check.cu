// The check for exercise 13, built from this file against your
// time_every_stream.cu (test ch13_exercise_check, label "exercise"), against
// solutions/ (test ch13_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch13_pristine_check,
// label "pristine": it must fail). The work is chapter 13's own gallery
// (ch13::Gallery, chapters/13_trustworthy_timer/gallery.cu): ten workloads
// that compute c = a + b, four honest and six adversaries. Your function is
// given, for each, every stream besides the caller's that the call uses: the
// ones it declares (ch13::Workload::streams) and the one that "work left
// queued" does not declare (ch13::Workload::undeclared).
//
// Each workload is called once untimed, then timed by your function kCalls
// times on an idle GPU while CUPTI records the device (ch13::CallRecorder, the
// chapter's own), then kCalls times behind kBacklogMs of earlier work on the
// caller's stream. Judged per workload:
//  - when your function returned (its stop event complete), every one of those
//    streams was idle (cudaStreamQuery): else the stop event was recorded
//    before that stream's work ended;
//  - your median reading is at least kLowest x CUPTI's median span of the same
//    calls (first start to last end of their kernels and copies), less kSlackUs;
//  - behind the earlier work, still at least that, and under CUPTI's span plus
//    half the earlier work (none of it inside the window);
//  - the output, once the device is idle, is the CPU's.
// The late copy's arrays are 32Mi floats here (the chapter's default is 8Mi),
// so that its copy (two fifths of the bytes the call moves, after the add)
// lasts long enough for both tests to see it. Without CUPTI (a profiler holds
// it) the idle readings are not compared with a span, and the earlier work is
// judged against your own idle reading.
//
// A host wait before the stop event (cudaDeviceSynchronize) gives right
// readings: the host, not your events, then orders the work. The last test
// case reads your source instead (exercises/source_rules.cmake, on the CPU,
// when the check is built; it runs without a GPU too).
// clang-format off
// source rule: fail-if cuda(Device|Stream)Synchronize *\( => your timer makes the host wait (cudaDeviceSynchronize or cudaStreamSynchronize): then the host, not your events, orders the streams; make the caller's stream wait for an event recorded on each stream (cudaStreamWaitEvent) and let the host wait only for the stop event (cudaEventSynchronize)
// clang-format on
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "check.cuh"
#include "clock.cuh"
#include "device.cuh"
#include "gallery.cuh"
#include "harness.cuh"
#include "source_findings.h"
#include "statistics.hpp"
#include "stream.cuh"
#include "time_every_stream.cuh"

namespace {

constexpr int kCalls = 3;
constexpr double kLowest = 0.9;     // of CUPTI's span: a window that holds the work cannot read less
constexpr double kSlackUs = 1.0;    // two event readings, each to about 0.5 us
constexpr double kBacklogMs = 3.0;  // earlier work on the caller's stream, longer than any workload's 1 ms
constexpr std::uint64_t kSeed = 13;

// This exercise's pitfall in a workload, in words ("": none of this exercise's).
std::string pitfall(const std::string& id) {
  if (id == "side_stream") return "the stop event was recorded before the side stream's work ended";
  if (id == "late_copy") return "the stop event was recorded before the output's copy on another stream ended";
  if (id == "wrong_stream")
    return "the events were on the caller's stream, which the work never touched: the stop event was recorded "
           "before the work on the workload's own stream ended";
  if (id == "left_queued") return "the stop event was recorded before the work left queued on another stream ended";
  return "";
}

// How many of @p streams still have work (cudaStreamQuery answers cudaErrorNotReady).
int busy(const std::vector<cudaStream_t>& streams) {
  int count = 0;
  for (cudaStream_t s : streams) {
    const cudaError_t state = cudaStreamQuery(s);
    if (state == cudaErrorNotReady) {
      ++count;
    } else {
      LAB_CHECK(state);
    }
  }
  return count;
}

double median_or_nan(const std::vector<double>& values) {
  return values.empty() ? std::numeric_limits<double>::quiet_NaN() : lab::median(values);
}

}  // namespace

TEST_CASE("exercise 13: one event pair brackets every stream's work, for each workload of chapter 13's gallery") {
  const lab::DeviceInfo device = lab::require_device();
  ch13::GallerySizes sizes;
  sizes.n_large = std::int64_t{32} << 20;
  ch13::Gallery gallery(sizes, device);
  lab::Stream caller(cudaStreamNonBlocking);
  ch13::CallRecorder cupti;
  std::printf("exercise 13: chapter 13's gallery timed by your event pair (medians of %d calls, us)\n", kCalls);
  std::printf("  %-28s %10s %10s %12s  %s\n", "workload", "yours", "CUPTI", "behind 3 ms", "this exercise's pitfall");

  for (ch13::Workload& w : gallery.workloads()) {
    std::vector<cudaStream_t> streams = w.streams;
    streams.insert(streams.end(), w.undeclared.begin(), w.undeclared.end());
    int calls = 0;
    bool right_stream = true;
    auto call = [&](cudaStream_t s) {
      ++calls;
      right_stream = right_stream && s == caller.get();
      w.call(s);
    };
    w.problem->fill(kSeed, caller);
    w.call(caller);  // untimed: first-launch costs and the cache's first computation stay out
    LAB_CHECK(cudaDeviceSynchronize());

    std::vector<double> idle_us, backlog_us, span_us;
    int busy_after = 0, calls_wrong = 0, outputs_wrong = 0;
    for (int pass = 0; pass < 2; ++pass) {
      const bool backlog = pass == 1;
      if (backlog && streams.empty()) break;  // the earlier work only matters to a stream besides the caller's
      for (int i = 0; i < kCalls; ++i) {
        w.problem->poison(caller);
        LAB_CHECK(cudaDeviceSynchronize());
        if (backlog) {
          lab::launch_spin(caller, kBacklogMs);
        } else {
          cupti.begin();
        }
        calls = 0;
        const double reading = exercise13::time_call_us(call, caller, streams);
        busy_after += busy(streams);  // before anything else waits
        if (!backlog) {
          const ch13::GpuWork work = cupti.end();  // waits for the device
          if (work.recorded) span_us.push_back(work.span_us);
        }
        calls_wrong += calls == 1 ? 0 : 1;
        (backlog ? backlog_us : idle_us).push_back(reading);
        LAB_CHECK(cudaDeviceSynchronize());
        outputs_wrong += w.problem->read(caller) == w.problem->expected() ? 0 : 1;
      }
    }

    const double yours = median_or_nan(idle_us), behind = median_or_nan(backlog_us), truth = median_or_nan(span_us);
    const bool spans = !span_us.empty();
    const double base = spans ? truth : yours;  // without CUPTI, the earlier work is judged against your idle reading
    const bool caught = busy_after == 0 && (!spans || yours >= kLowest * truth - kSlackUs) &&
                        (backlog_us.empty() || behind >= kLowest * base - kSlackUs);
    const std::string what = pitfall(w.id);
    std::printf("  %-28s %10.2f %10.2f %12.2f  %s\n", w.name.c_str(), yours, truth, behind,
                what.empty() ? "-"
                : caught     ? "caught"
                             : ("missed: " + what).c_str());
    std::fflush(stdout);

    CAPTURE(yours);
    CAPTURE(truth);
    CAPTURE(behind);
    REQUIRE_MESSAGE(calls_wrong == 0, w.name << ": your function did not call the workload exactly once per timing ("
                                             << calls_wrong << " timings): call it once, call(caller)");
    CHECK_MESSAGE(right_stream, w.name << ": the workload was called with a stream other than the caller's: give it "
                                          "the caller's stream, call(caller)");
    CHECK_MESSAGE(busy_after == 0,
                  w.name << ": when your function returned, its stop event complete, " << busy_after
                         << " time(s) a stream the call uses besides the caller's was still working (cudaStreamQuery): "
                         << (what.empty() ? std::string("the stop event did not wait for it") : what)
                         << "; after the call, record an event on each of those streams and make the caller's "
                            "stream wait for it (cudaStreamWaitEvent) before you record the stop event");
    CHECK_MESSAGE(outputs_wrong == 0, w.name << ": " << outputs_wrong
                                             << " outputs were wrong once the device was idle: does your function "
                                                "call the workload once per timing, on the caller's stream?");
    if (spans) {
      CHECK_MESSAGE(yours >= kLowest * truth - kSlackUs,
                    w.name << ": your events read " << yours << " us (median of " << kCalls
                           << " calls on an idle GPU); CUPTI saw the same calls' work span " << truth
                           << " us (first start to last end); expected at least " << kLowest << " x that, less "
                           << kSlackUs << " us: part of the work lay outside your events"
                           << (what.empty() ? std::string() : ": " + what));
    }
    if (backlog_us.empty() || busy_after > 0) continue;  // the start is judged once the stop is right
    CHECK_MESSAGE(behind >= kLowest * base - kSlackUs,
                  w.name << ": with " << kBacklogMs << " ms of earlier work queued on the caller's stream, your events "
                         << "read " << behind << " us; on an idle GPU "
                         << std::string(spans ? "CUPTI saw the same work span " : "your events read ") << base
                         << " us; expected at least " << kLowest
                         << " x that: the work on the other streams began before the caller's stream "
                            "reached your start event; make each of those streams wait for the start event "
                            "(cudaStreamWaitEvent) before the call");
    CHECK_MESSAGE(
        behind < base + 500.0 * kBacklogMs,
        w.name << ": with " << kBacklogMs << " ms of earlier work queued on the caller's stream, your events "
               << "read " << behind << " us; on an idle GPU " << base << " us; expected under that plus half "
               << "the earlier work: the earlier work landed inside your events; record the start event on the "
                  "caller's stream, behind it");
  }
  if (!cupti.why_not().empty())
    MESSAGE("CUPTI could not record (" << cupti.why_not()
                                       << "): your idle readings were not compared with the work's span (run the "
                                          "check outside a profiler for that); every other test ran");
}

TEST_CASE("cpu: exercise 13: the host waits only for the stop event (read from your source)") {
  // Run on the CPU when the check was built (exercises/source_rules.cmake): no GPU needed for this part.
  MESSAGE("source rules: " << lab_source_rules_read << " read, on the CPU, from" << std::string(lab_source_files_read));
  for (const char* const* finding = lab_source_findings; *finding != nullptr; ++finding)
    FAIL_CHECK(std::string(*finding));
}
