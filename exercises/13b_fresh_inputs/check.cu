// The check for exercise 13b, built from this file against your
// checked_calls.cu (test ch13b_exercise_check, label "exercise"), against
// solutions/ (test ch13b_solution_check, label "solution", part of the default
// test run) and against the exercise as handed out (test ch13b_pristine_check,
// label "pristine": it must fail). First judge_output, on the CPU, on made-up
// outputs; then your checked_calls over chapter 13's own gallery
// (ch13::Gallery, chapters/13_trustworthy_timer/gallery.cu), kCalls calls of
// each workload, in a gallery no one has called before. Two workloads hand back
// a result that is not this call's: "result cached" returns the result it kept
// from its first call while the inputs' address is the same (stale from the
// second call on, once the inputs are fresh), and "work left queued" computes on
// a stream the timer is not told of, behind 1 ms of other work (at the stop
// event its output is still the poison: unwritten at least once, never
// stale). Every other workload's output is
// right at the stop event, since the events bracket every stream it declares.
// The chapter's reference harness refuses the same two (section 2).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "check.cuh"
#include "checked_calls.cuh"
#include "device.cuh"
#include "gallery.cuh"
#include "statistics.hpp"
#include "stream.cuh"

namespace {

constexpr int kCalls = 3;
constexpr std::uint64_t kSeed = 1313;

std::string name_of(ch13::OutputAtStop output) {
  switch (output) {
    case ch13::OutputAtStop::matched: return "matched";
    case ch13::OutputAtStop::unwritten: return "unwritten";
    case ch13::OutputAtStop::stale: return "stale";
  }
  return "?";
}

}  // namespace

TEST_CASE("cpu: exercise 13b: judge_output on made-up outputs") {
  // Host code only: it runs without a GPU too (tests/support/gpu_test_main.cpp).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> expected = {0.5f, -1.0f, 0.25f, 2.0f};
  struct Case {
    const char* what;
    std::vector<float> out;
    ch13::OutputAtStop want;
  };
  const std::vector<Case> cases = {
      {"the CPU's answer", expected, ch13::OutputAtStop::matched},
      {"all poison (NaN): nothing written yet", {nan, nan, nan, nan}, ch13::OutputAtStop::unwritten},
      {"one element still the poison, the rest right: written in part",
       {0.5f, -1.0f, 0.25f, nan},
       ch13::OutputAtStop::unwritten},
      {"numbers, one of them not the answer: an earlier call's result",
       {0.5f, -1.0f, 0.25f, 1.5f},
       ch13::OutputAtStop::stale},
      {"numbers, none of them the answer", {1.0f, 1.0f, 1.0f, 1.0f}, ch13::OutputAtStop::stale},
  };
  for (const Case& c : cases) {
    const ch13::OutputAtStop got = exercise13b::judge_output(c.out, expected);
    CHECK_MESSAGE(got == c.want, "judge_output on " << std::string(c.what) << " gave " << name_of(got) << "; expected "
                                                    << name_of(c.want)
                                                    << " (matched: every element equal; unwritten: any element "
                                                       "NaN, the poison; stale: numbers, not the answer)");
  }
}

TEST_CASE("exercise 13b: fresh inputs and the output judged at the stop event catch a cached and a late result") {
  const lab::DeviceInfo device = lab::require_device();
  ch13::Gallery gallery(ch13::GallerySizes{}, device);
  lab::Stream caller(cudaStreamNonBlocking);
  std::printf("exercise 13b: chapter 13's gallery timed by your checked_calls (%d calls each)\n", kCalls);
  std::printf("  %-28s %10s %10s %7s  %s\n", "workload", "median us", "unwritten", "stale", "the pitfall");
  for (ch13::Workload& w : gallery.workloads()) {
    const exercise13b::CheckedCalls got = exercise13b::checked_calls(w, kCalls, kSeed, caller);
    LAB_CHECK(cudaDeviceSynchronize());
    const bool cached = w.id == "cached", late = w.id == "left_queued";
    const bool caught = cached ? got.stale > 0 : late ? got.unwritten > 0 && got.stale == 0 : true;
    std::printf("  %-28s %10.2f %10d %7d  %s\n", w.name.c_str(),
                got.window_us.empty() ? std::numeric_limits<double>::quiet_NaN() : lab::median(got.window_us),
                got.unwritten, got.stale,
                cached ? (caught ? "caught: a cached result" : "missed: a cached result")
                : late ? (caught ? "caught: an output later than the stop event"
                                 : "missed: an output later than the stop event")
                       : "-");
    std::fflush(stdout);
    CAPTURE(got.unwritten);
    CAPTURE(got.stale);
    REQUIRE_MESSAGE(got.window_us.size() == static_cast<std::size_t>(kCalls),
                    w.name << ": checked_calls returned " << got.window_us.size() << " windows for " << kCalls
                           << " calls: time every call, one window each");
    if (cached) {
      CHECK_MESSAGE(got.stale > 0,
                    w.name << ": your timer judged " << got.stale << " of " << kCalls
                           << " outputs stale, yet from its second call on this workload returns the result it kept "
                              "from its first: the same inputs on every call let the cache give the right answer; "
                              "give every call fresh inputs (w.problem->fill(seed + i, caller)) and judge its output "
                              "against their answer");
    } else if (late) {
      CHECK_MESSAGE(caught,
                    w.name << ": your timer judged " << got.unwritten << " of " << kCalls << " outputs unwritten (and "
                           << got.stale
                           << " stale), yet this workload writes its output on a stream your events do not "
                              "bracket, 1 ms after its call: at the stop event the output is not there yet; poison it "
                              "before every call (w.problem->poison(caller)) and read it as soon as the stop event "
                              "has completed (w.problem->read(caller)), not once the GPU is idle");
    } else {
      CHECK_MESSAGE(got.unwritten + got.stale == 0,
                    w.name << ": your timer judged " << got.unwritten << " outputs unwritten and " << got.stale
                           << " stale, yet this workload's output is right at the stop event: do you compare with "
                              "w.problem->expected() after the fill of the same call, and read the output after the "
                              "stop event has completed?");
    }
  }
}
