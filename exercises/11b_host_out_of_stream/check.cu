// The check for exercise 11b, built from this file against your host_step.cu
// (test ch11b_exercise_check, label "exercise"), against solutions/ (test
// ch11b_solution_check, label "solution", part of the default test run) and
// against the exercise as handed out (test ch11b_pristine_check, label
// "pristine": it must fail).
// First it runs your pair with a step that takes 500 us: the step must see the
// first kernel's values and the second kernel the step's (every buffer
// poisoned first, each run with new values), and the step must run once per
// pair. Then it runs your pair 20 times with a step that takes no time and
// reads the GPU's idle gap between the two kernels from their block records;
// chapter 11's section 4 chain (ch11::run_host_chain), run here first, gives
// the gap around a host function on this GPU, and yours must be under half of
// it (on an H100 the chapter measured 68.9 us with a host function in run 6,
// 43.4 us in run 5, and 6.0 us with a host thread waiting on an event). A second kernel still waiting 5 s after
// the pair was queued is released by the check and reported.
// A GPU without stream memory operations (cuStreamWaitValue32) says why and
// exits 77 (not checked).
//
// A host wait for the first kernel, the step, then the second kernel launched
// from the host gives the right values and a gap of one launch (under half a
// host function's), so no run tells it from the stream waiting on the flag.
// The last test case reads your source instead (exercises/source_rules.cmake,
// on the CPU, when the check is built).
// clang-format off
// source rule: fail-unless cuStreamWaitValue32 *\(|cuStreamWaitValue64 *\(|cuStreamBatchMemOp *\( => your host_step.cu never calls cuStreamWaitValue32: a host wait, the step, then the second kernel launched from the host gives the right values, but the host orders the work, not the stream; queue the second kernel before the step, behind ch11::driver().cuStreamWaitValue32(stream, pair.release_flag_on_device, 1, CU_STREAM_WAIT_VALUE_GEQ), and let the step's store of the flag release it
// clang-format on
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "check.cuh"
#include "device.cuh"
#include "host_step.cuh"
#include "host_work.cuh"
#include "memory.cuh"
#include "program.hpp"
#include "source_findings.h"
#include "statistics.hpp"
#include "stream.cuh"
#include "timers.cuh"

namespace {

constexpr int kValues = 1024;               // handed over each way: a step that takes well under a microsecond
constexpr long long kFirstSpinNs = 100000;  // the first kernel: long enough for the pair to be queued while it runs
constexpr unsigned kPoison = 0xFFFFFFFFu;

void exit_77_without_stream_memops() {
  std::string why;
  if (ch11::stream_memops_supported(&why)) return;
  std::printf("skipped: %s\n", why.c_str());
  std::fflush(stdout);
  std::exit(lab::exit_code::no_device);
}

// The host step's data: host pointers to the two handovers, and what the check counts.
struct StepData {
  const unsigned* from_gpu = nullptr;
  unsigned* to_gpu = nullptr;
  int n = 0;
  std::chrono::microseconds takes{0};
  std::atomic<int> calls{0};
};

// The step: reads the first kernel's values, writes 3 x + 5 for the second kernel. No CUDA call.
void CUDART_CB host_step(void* data) {
  auto* s = static_cast<StepData*>(data);
  if (s->takes.count() > 0) std::this_thread::sleep_for(s->takes);
  const volatile unsigned* from = s->from_gpu;
  volatile unsigned* to = s->to_gpu;
  for (int i = 0; i < s->n; ++i) to[i] = 3u * from[i] + 5u;
  s->calls.fetch_add(1);
}

template <typename T>
T* on_device(T* host) {
  void* device = nullptr;
  LAB_CHECK(cudaHostGetDevicePointer(&device, host, 0));
  return static_cast<T*>(device);
}

// Everything one pair needs, set up once.
struct Bench {
  int blocks;
  lab::PinnedBuffer<unsigned> from{kValues, cudaHostAllocMapped}, to{kValues, cudaHostAllocMapped},
      flag{1, cudaHostAllocMapped};
  lab::DeviceBuffer<unsigned> out{kValues};
  lab::DeviceBuffer<ch11::BlockRecord> first, second;
  lab::Stream stream{cudaStreamNonBlocking};
  StepData data;
  exercise11b::Pair pair;
  exercise11b::HostStep step{host_step, &data};

  explicit Bench(int sm_count)
      : blocks(sm_count > 0 ? sm_count : 1),
        first(static_cast<std::size_t>(blocks)),
        second(static_cast<std::size_t>(blocks)) {
    data.from_gpu = from.data();
    data.to_gpu = to.data();
    data.n = kValues;
    pair.blocks = blocks;
    pair.first_spin_ns = kFirstSpinNs;
    pair.n = kValues;
    pair.from_gpu = on_device(from.data());
    pair.to_gpu = on_device(to.data());
    pair.out = out.data();
    pair.first_records = first.data();
    pair.second_records = second.data();
    pair.release_flag = flag.data();
    pair.release_flag_on_device = reinterpret_cast<CUdeviceptr>(on_device(flag.data()));
  }

  // One pair, every buffer poisoned first. False when the stream still waited 5 s on (then released).
  bool run(unsigned round, std::chrono::microseconds step_takes) {
    LAB_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < kValues; ++i) from[i] = to[i] = kPoison;
    *static_cast<volatile unsigned*>(flag.data()) = 0;
    out.poison(stream);
    LAB_CHECK(cudaMemsetAsync(first.data(), 0, first.bytes(), stream));
    LAB_CHECK(cudaMemsetAsync(second.data(), 0, second.bytes(), stream));
    LAB_CHECK(cudaStreamSynchronize(stream));
    data.takes = step_takes;
    pair.round = round;
    exercise11b::run_pair(pair, step, stream);
    const lab::HostTimer waited;
    cudaError_t status = cudaErrorNotReady;
    while ((status = cudaStreamQuery(stream)) == cudaErrorNotReady && waited.elapsed_ms() < 5000.0) {
    }
    if (status == cudaErrorNotReady)  // a wait never released: release any wait for a value up to 2^31 - 1
      *static_cast<volatile unsigned*>(flag.data()) = 0x7FFFFFFFu;
    LAB_CHECK(cudaStreamSynchronize(stream));
    return status != cudaErrorNotReady;
  }

  // The GPU's idle time between the two kernels of the last run, in us (< 0: the second began first).
  double gap_us() const {
    const std::vector<ch11::BlockRecord> a = first.download(), b = second.download();
    const ch11::KernelSpan one = ch11::span_of(a.data(), a.size()), two = ch11::span_of(b.data(), b.size());
    const int missing = one.missing + two.missing;
    REQUIRE_MESSAGE(missing == 0, missing << " blocks of the two kernels recorded nothing: launch each once, "
                                             "with the grid and block the handed-out code uses");
    return static_cast<double>(static_cast<long long>(two.first_start_ns - one.last_end_ns)) * 1e-3;
  }
};

const ch11::HostChainVariant& variant(const ch11::HostChainRun& run, const std::string& name) {
  for (const ch11::HostChainVariant& v : run.variants)
    if (v.name == name) return v;
  FAIL("chapter 11's chain has no variant " << name);
  return run.variants.front();
}

}  // namespace

TEST_CASE("exercise 11b: the step sees the first kernel's values, the second kernel sees the step's") {
  exit_77_without_stream_memops();
  Bench bench(lab::query_device(0).sm_count);
  for (int run = 1; run <= 5; ++run) {
    CAPTURE(run);
    const unsigned round = 100u * static_cast<unsigned>(run);  // new values every run: a stale one cannot pass
    const int calls_before = bench.data.calls.load();
    const bool released = bench.run(round, std::chrono::microseconds(500));
    REQUIRE_MESSAGE(released,
                    "the second kernel was still waiting 5 s after the pair was queued (the check then "
                    "released it): after the step, store the value your cuStreamWaitValue32 waits for "
                    "into *pair.release_flag");
    const int calls = bench.data.calls.load() - calls_before;
    REQUIRE_MESSAGE(calls == 1, "the step ran " << calls
                                                << " times for one pair; expected once, after the first "
                                                   "kernel and before the second");
    const std::vector<unsigned> out = bench.out.download();
    int stale_input = 0, before_step = 0, unwritten = 0, wrong = 0;
    for (int i = 0; i < kValues; ++i) {
      const unsigned expected = 3u * (7u * static_cast<unsigned>(i) + round) + 5u + 1u;
      if (out[static_cast<std::size_t>(i)] == expected) continue;
      ++wrong;
      if (out[static_cast<std::size_t>(i)] == kPoison) ++unwritten;
      if (out[static_cast<std::size_t>(i)] == kPoison + 1u) ++before_step;            // to_gpu still poisoned
      if (out[static_cast<std::size_t>(i)] == 3u * kPoison + 5u + 1u) ++stale_input;  // the step read poison
    }
    CHECK_MESSAGE(before_step == 0, before_step << " of " << kValues << " values: the second kernel read the step's "
                                                << "output before the step wrote it: make the stream wait "
                                                   "(cuStreamWaitValue32 on pair.release_flag_on_device) before the "
                                                   "second kernel, and release it only after the step");
    CHECK_MESSAGE(stale_input == 0, stale_input << " of " << kValues << " values: the step ran before the first "
                                                << "kernel had written its values: wait for an event recorded after "
                                                   "the first kernel (cudaEventSynchronize) before running the step");
    CHECK_MESSAGE(unwritten == 0, unwritten << " of " << kValues << " values of out were never written: is the second "
                                            << "kernel still launched?");
    CHECK_MESSAGE(wrong == 0, wrong << " of " << kValues << " values of out are wrong in all");
  }
}

TEST_CASE("exercise 11b: the GPU waits for the host step far less than around a host function") {
  exit_77_without_stream_memops();
  const lab::DeviceInfo device = lab::query_device(0);
  // Chapter 11, section 4, on this GPU now: 6 kernels of 20 us, 3 samples, held behind a blocked stream.
  const ch11::HostChainRun chapter = ch11::run_host_chain(6, 20.0, 3, false, device);
  const double host_function_us = lab::median(variant(chapter, "host_function").gaps_us);
  const double none_us = lab::median(variant(chapter, "no_host_function").gaps_us);
  CAPTURE(host_function_us);
  CAPTURE(none_us);

  Bench bench(device.sm_count);
  REQUIRE(bench.run(1u, std::chrono::microseconds(0)));  // warm-up: modules loaded; not kept
  std::vector<double> gaps;
  for (int run = 1; run <= 20; ++run) {
    CAPTURE(run);
    REQUIRE_MESSAGE(bench.run(1000u + static_cast<unsigned>(run), std::chrono::microseconds(0)),
                    "the second kernel was still waiting 5 s after the pair was queued (the check then released it)");
    gaps.push_back(bench.gap_us());
  }
  const double yours_us = lab::median(gaps);
  CHECK_MESSAGE(yours_us < host_function_us / 2.0,
                "the GPU sat idle a median " << yours_us << " us between your two kernels; chapter 11's chain on this "
                                             << "GPU now: " << host_function_us << " us around a host function, "
                                             << none_us << " us with nothing between; expected under half the host "
                                             << "function's, " << host_function_us / 2.0
                                             << " us: is the step still a host function in the stream "
                                                "(cudaLaunchHostFunc)? Let a host thread wait on an event instead");
}

TEST_CASE("cpu: exercise 11b: the stream waits for the flag with cuStreamWaitValue32 (read from your source)") {
  // Run on the CPU when the check was built (exercises/source_rules.cmake): no GPU needed for this part.
  MESSAGE("source rules: " << lab_source_rules_read << " read, on the CPU, from" << std::string(lab_source_files_read));
  for (const char* const* finding = lab_source_findings; *finding != nullptr; ++finding)
    FAIL_CHECK(std::string(*finding));
}
