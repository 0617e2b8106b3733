// The check for exercise 09b, built from this file against your
// time_peer_copy.cu (test ch09b_exercise_check, label "exercise"), against
// solutions/ (test ch09b_solution_check, label "solution") and against the
// exercise as handed out (test ch09b_pristine_check, label "pristine": it must
// fail). The reference is chapter 09's own measurement of the same copy in the
// same run (ch09::measure_peer_copies, section 2: cudaMemcpyPeerAsync from GPU 0
// to GPU 1 with peer access on, timed by GPU 0's events on GPU 0's stream);
// then your function times a copy of the same size in the same state (peer
// access on both ways), into GPU 1 memory poisoned first. It needs two GPUs
// with peer access both ways: with fewer it says why and exits 77 (not checked).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.cuh"
#include "memory.cuh"
#include "multi_gpu.cuh"
#include "program.hpp"
#include "statistics.hpp"
#include "stream.cuh"
#include "time_peer_copy.cuh"
#include "verify.hpp"

namespace {

constexpr std::size_t kBytes = std::size_t{128} << 20;
constexpr int kReps = 10;

// Peer access on or off both ways, each side enabled by the device that will access (as section 2 does).
void set_peer_access(bool on) {
  for (int device : {0, 1}) {
    LAB_CHECK(cudaSetDevice(device));
    LAB_CHECK(on ? cudaDeviceEnablePeerAccess(1 - device, 0) : cudaDeviceDisablePeerAccess(1 - device));
  }
  LAB_CHECK(cudaSetDevice(0));
}

double gb_per_s(double ms) { return static_cast<double>(kBytes) / (ms * 1e6); }

}  // namespace

TEST_CASE("exercise 09b: the events time the copy from GPU 0 to GPU 1, on the stream it is queued on") {
  ch09::exit_77_without_two_gpus();
  const ch09::PeerCopyRun chapter = ch09::measure_peer_copies(ch09::choose_devices(0), kBytes, 5, 91);
  if (!chapter.peer_on_skipped.empty()) {  // it leaves peer access off
    std::printf("skipped: %s\n", chapter.peer_on_skipped.c_str());
    std::fflush(stdout);
    std::exit(lab::exit_code::no_device);
  }
  REQUIRE_MESSAGE(chapter.copy_result.passed(),
                  "chapter 09's own peer copy went wrong: " << chapter.copy_result.detail());
  const double reference_ms = lab::median(chapter.peer_on_ms);

  const std::vector<float> sent = lab::random_floats(kBytes / sizeof(float), 92);
  LAB_CHECK(cudaSetDevice(0));
  lab::DeviceBuffer<float> source(sent.size());
  source.upload(sent);
  lab::Stream stream_0(cudaStreamNonBlocking);
  LAB_CHECK(cudaSetDevice(1));
  lab::DeviceBuffer<float> destination(sent.size());
  lab::Stream stream_1(cudaStreamNonBlocking);
  destination.poison(stream_1);
  LAB_CHECK(cudaStreamSynchronize(stream_1));
  set_peer_access(true);

  const exercise09b::PeerCopy copy{source.data(), destination.data(), kBytes, stream_0, stream_1};
  std::vector<double> samples;
  std::string error;
  try {
    samples = exercise09b::time_peer_copy_ms(copy, kReps);
  } catch (const lab::CudaError& e) {
    error = e.what();
  }
  for (int device : {1, 0}) {
    LAB_CHECK(cudaSetDevice(device));
    LAB_CHECK(cudaDeviceSynchronize());
  }
  LAB_CHECK(cudaSetDevice(1));
  const lab::Comparison arrived = lab::compare(destination.download(), sent);
  set_peer_access(false);

  REQUIRE_MESSAGE(error.empty(), "time_peer_copy_ms stopped on a CUDA error: "
                                     << error << ". An event belongs to the device that was current when it was made, "
                                     << "and cudaEventRecord fails when the event and the stream belong to different "
                                     << "devices (chapter 09, section 1): make the events while the device of the "
                                     << "stream you record them on is current");
  REQUIRE_MESSAGE(samples.size() == static_cast<std::size_t>(kReps),
                  "time_peer_copy_ms returned " << samples.size() << " times; expected one per copy, " << kReps);
  CHECK_MESSAGE(arrived.passed(), "after your copies, GPU 1 does not hold what GPU 0 sent ("
                                      << arrived.detail() << "): does each rep still queue the whole copy, " << kBytes
                                      << " bytes from copy.source to copy.destination?");
  const double yours_ms = lab::median(samples);
  CAPTURE(yours_ms);
  CAPTURE(reference_ms);
  CHECK_MESSAGE(yours_ms > 0.5 * reference_ms,
                "your copies read a median of "
                    << yours_ms << " ms, " << gb_per_s(yours_ms)
                    << " GB/s; chapter 09 timed the same copy in this run at " << reference_ms << " ms, "
                    << gb_per_s(reference_ms) << " GB/s (GPU 0's events on GPU "
                    << "0's stream); expected at least half that time: your events did not "
                    << "bracket the copy; record them on the stream the copy is queued on "
                    << "(copy.stream_0), and make them while its device, GPU 0, is current");
  CHECK_MESSAGE(yours_ms < 2.0 * reference_ms, "your copies read a median of "
                                                   << yours_ms << " ms; chapter 09 timed the same copy in this run at "
                                                   << reference_ms << " ms; expected under twice that: do your events "
                                                   << "bracket one copy each, and nothing else?");
}
