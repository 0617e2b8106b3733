// Section 1's lesson: a block-level timeline.
//
// The kernel is chapter 01's first way of covering n elements (one thread per
// element) with two calls added: lab::record_block_start at its top and
// lab::record_block_end at its bottom. Thread 0 of each block stamps
// %globaltimer and %smid into the block's record; the end waits at a
// __syncthreads() for the block's last thread. Given nullptr, the kernel
// records nothing and skips that barrier: the difference between the two
// launches is what recording costs.
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "block_recorder.cuh"
#include "block_timeline.cuh"
#include "check.cuh"
#include "cupti_timeline.cuh"
#include "memory.cuh"
#include "output_file.hpp"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "verify.hpp"

namespace ch11 {

namespace {

constexpr int kThreads = 256;

// [snippet:add_recorded]
__global__ void add_recorded(const float* a, const float* b, float* c, std::int64_t n, lab::BlockRecord* records) {
  lab::record_block_start(records);  // thread 0: %globaltimer and %smid (nothing when records is nullptr)
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  lab::record_block_end(records);  // every thread: a barrier, then thread 0 stamps the end
}
// [snippet:add_recorded]

double elapsed_us(const lab::Event& start, const lab::Event& stop) {
  return static_cast<double>(lab::Event::elapsed_ms(start, stop)) * 1e3;
}

// CUPTI's kernels of the add kernel after the warm-up launch that opened the
// recording, in order of start: the loop's pairs, not recording then recording.
void read_cupti(std::vector<lab::Interval> work, std::size_t dropped, int samples, BlockTimelineRun& run) {
  std::vector<lab::Interval> kernels;
  for (const lab::Interval& w : work)
    if (w.kind == lab::Interval::Kind::kernel) kernels.push_back(w);
  std::sort(kernels.begin(), kernels.end(),
            [](const lab::Interval& x, const lab::Interval& y) { return x.start_ns < y.start_ns; });
  std::vector<double> durations;  // the first is the warm-up launch, which names the kernel
  for (std::size_t i = 1; i < kernels.size(); ++i)
    if (kernels[i].name == kernels.front().name) durations.push_back((kernels[i].end_ns - kernels[i].start_ns) * 1e-3);
  if (durations.size() != 2 * static_cast<std::size_t>(samples) || dropped > 0) {
    run.cupti_missing = "CUPTI recorded " + std::to_string(durations.size()) + " add kernels for " +
                        std::to_string(2 * samples) + " launches (" + std::to_string(dropped) + " records dropped)";
    return;
  }
  for (int i = 0; i < samples; ++i) {
    run.plain_cupti_us.push_back(durations[2 * i]);
    run.recorded_cupti_us.push_back(durations[2 * i + 1]);
  }
}

}  // namespace

BlockTimelineRun run_block_timeline(std::int64_t n, int samples, std::uint64_t seed, bool instrumented) {
  nvtxRangePushA("1. A block-level timeline");  // section 6: Nsight Systems shows this range
  BlockTimelineRun run;
  run.n = n;
  run.threads = kThreads;
  run.blocks = static_cast<int>((n + kThreads - 1) / kThreads);
  run.held = !instrumented;
  const std::vector<float> a = lab::random_floats(static_cast<std::size_t>(n), seed);
  const std::vector<float> b = lab::random_floats(static_cast<std::size_t>(n), seed + 1);
  std::vector<float> expected(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) expected[i] = a[i] + b[i];
  lab::DeviceBuffer<float> da(a.size()), db(b.size()), dc(a.size());
  da.upload(a);
  db.upload(b);
  const auto per_launch = static_cast<std::size_t>(run.blocks);
  lab::BlockRecorder recorder(per_launch);  // cleared before each recording launch, read after it
  lab::Stream stream(cudaStreamNonBlocking);
  lab::StreamBlocker blocker;
  std::vector<lab::Event> start_plain(samples), stop_plain(samples), start_recorded(samples), stop_recorded(samples);

  // Warm-up: both launches and the holding kernel loaded before a stream is held (nvbench issue #136).
  add_recorded<<<run.blocks, kThreads, 0, stream>>>(da.data(), db.data(), dc.data(), n, recorder.data());
  LAB_CHECK_LAUNCH();
  blocker.block(stream);
  blocker.release();
  LAB_CHECK(cudaStreamSynchronize(stream));

  lab::TimelineRecorder cupti;  // CUPTI: every kernel's start and end, recorded from outside the loop
  const bool recording = cupti.start(&run.cupti_missing);
  add_recorded<<<run.blocks, kThreads, 0, stream>>>(da.data(), db.data(), dc.data(), n, nullptr);  // names the kernel
  LAB_CHECK_LAUNCH();
  dc.poison(stream);
  LAB_CHECK(cudaStreamSynchronize(stream));
  // [snippet:pair]
  for (int i = 0; i < samples; ++i) {
    lab::BlockRecord* records = recorder.data();
    recorder.clear(stream);
    if (run.held) blocker.block(stream);
    LAB_CHECK(cudaEventRecord(start_plain[i], stream));
    add_recorded<<<run.blocks, kThreads, 0, stream>>>(da.data(), db.data(), dc.data(), n, nullptr);
    LAB_CHECK_LAUNCH();
    LAB_CHECK(cudaEventRecord(stop_plain[i], stream));
    LAB_CHECK(cudaEventRecord(start_recorded[i], stream));
    add_recorded<<<run.blocks, kThreads, 0, stream>>>(da.data(), db.data(), dc.data(), n, records);
    LAB_CHECK_LAUNCH();
    LAB_CHECK(cudaEventRecord(stop_recorded[i], stream));
    if (run.held) blocker.release();
    LAB_CHECK(cudaEventSynchronize(stop_recorded[i]));
    if (run.held && blocker.timed_out())
      throw std::runtime_error("the held stream timed out before its pair was queued (is a profiler serialising?)");
    run.last = recorder.download();  // the pair is done: its stop event has completed
    run.spans.push_back(lab::summarize_blocks(run.last));
  }
  // [snippet:pair]
  if (recording) read_cupti(cupti.stop(), cupti.dropped(), samples, run);
  for (int i = 0; i < samples; ++i) {
    run.plain_events_us.push_back(elapsed_us(start_plain[i], stop_plain[i]));
    run.recorded_events_us.push_back(elapsed_us(start_recorded[i], stop_recorded[i]));
  }
  run.result = lab::compare(dc.download(), expected);  // exact: one float addition, as on the CPU
  nvtxRangePop();
  return run;
}

void write_block_trace(const std::string& path, const BlockTimelineRun& timeline, const PriorityRun& priorities,
                       const std::string& device_name) {
  if (path.empty()) return;
  std::vector<lab::Interval> rows;
  double offset_ns = 0;  // each run after the one before, 100 us apart
  const auto place = [&](const std::vector<lab::BlockRecord>& records, const std::string& name,
                         unsigned long long origin_ns) {
    double end_ns = offset_ns;
    for (lab::Interval row : lab::block_intervals(records, name, origin_ns)) {
      row.start_ns += offset_ns;
      row.end_ns += offset_ns;
      end_ns = std::max(end_ns, row.end_ns);
      rows.push_back(row);
    }
    return end_ns;
  };
  offset_ns = place(timeline.last, "add", lab::summarize_blocks(timeline.last).first_start_ns) + 1e5;
  for (const UrgentCase& c : priorities.cases) {
    const unsigned long long origin = lab::summarize_blocks(c.loaded ? c.long_run : c.urgent).first_start_ns;
    const double long_end = place(c.long_run, c.name + ": long", origin);
    offset_ns = std::max(long_end, place(c.urgent, c.name + ": urgent", origin)) + 1e5;
  }
  lab::write_file_atomically(path, lab::chrome_trace(rows, device_name));
}

}  // namespace ch11
