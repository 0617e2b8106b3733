#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "check.cuh"
#include "clock.cuh"
#include "cupti_timeline.cuh"
#include "memory.cuh"
#include "output_file.hpp"

#if LAB_HAVE_CUPTI
#include <cupti.h>
#endif

namespace lab {

#if LAB_HAVE_CUPTI

namespace {

// CUPTI hands completed buffers to a callback on a thread of its own; their
// records wait here until stop() takes them.
struct Collected {
  std::mutex mutex;
  std::vector<Interval> intervals;
  std::size_t dropped = 0;
  bool callbacks_registered = false;
} collected;

constexpr std::size_t kBufferBytes = 8 << 20;  // tens of thousands of records

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

const char* copy_direction(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
    default: return "other";
  }
}

std::string megabytes(std::uint64_t bytes) {
  char text[48];
  std::snprintf(text, sizeof text, "%.2f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

// Kernel, memcpy and memset records say where and when in the same fields.
template <class Record>
Interval place_and_time(Interval::Kind kind, const Record& r) {
  Interval i;
  i.kind = kind;
  i.device = static_cast<int>(r.deviceId);
  i.stream = r.streamId;
  i.start_ns = static_cast<double>(r.start);
  i.end_ns = static_cast<double>(r.end);
  return i;
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t, size_t valid) {
  std::vector<Interval> found;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      Interval i = place_and_time(Interval::Kind::kernel, *k);
      i.name = k->name != nullptr ? k->name : "kernel";
      found.push_back(std::move(i));
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      Interval i = place_and_time(Interval::Kind::memcpy, *m);
      i.direction = copy_direction(m->copyKind);
      const std::uint8_t host_side = m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? m->dstKind : m->srcKind;
      if (i.direction == "HtoD" || i.direction == "DtoH") {
        if (host_side == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE) i.host_memory = "pageable";
        if (host_side == CUPTI_ACTIVITY_MEMORY_KIND_PINNED) i.host_memory = "pinned";
      }
      i.bytes = m->bytes;
      i.name = "copy " + i.direction + " " + megabytes(m->bytes) + (i.host_memory.empty() ? "" : ", " + i.host_memory);
      found.push_back(std::move(i));
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      Interval i = place_and_time(Interval::Kind::memset, *m);
      i.bytes = m->bytes;
      i.name = "memset " + megabytes(m->bytes);
      found.push_back(std::move(i));
    }
  }
  size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped);
  std::free(buffer);
  std::lock_guard<std::mutex> lock(collected.mutex);
  collected.dropped += dropped;
  for (Interval& i : found) collected.intervals.push_back(std::move(i));
}

const CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                     CUPTI_ACTIVITY_KIND_MEMSET};

// Waits for the device and for CUPTI's last buffers, then stops recording.
cudaError_t finish_recording() {
  const cudaError_t synced = cudaDeviceSynchronize();
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (CUpti_ActivityKind kind : kKinds) cuptiActivityDisable(kind);
  return synced;
}

std::string cupti_error(const char* call, CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return std::string(call) + " failed: " + (text != nullptr ? text : "unknown CUPTI error");
}

}  // namespace

std::uint64_t TimelineRecorder::now_ns() {
  std::uint64_t now = 0;
  cuptiGetTimestamp(&now);
  return now;
}

bool TimelineRecorder::start(std::string* why) {
  if (recording_) throw std::logic_error("TimelineRecorder::start: already recording");
  if (!collected.callbacks_registered) {
    const CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS) {
      if (why != nullptr) *why = cupti_error("cuptiActivityRegisterCallbacks", r);
      return false;
    }
    collected.callbacks_registered = true;
  }
  LAB_CHECK(cudaDeviceSynchronize());  // work queued before start() stays out of the recording
  {
    std::lock_guard<std::mutex> lock(collected.mutex);
    collected.intervals.clear();
    collected.dropped = 0;
  }
  for (CUpti_ActivityKind kind : kKinds) {
    const CUptiResult r = cuptiActivityEnable(kind);
    if (r != CUPTI_SUCCESS) {
      for (CUpti_ActivityKind k : kKinds) cuptiActivityDisable(k);
      if (why != nullptr) *why = cupti_error("cuptiActivityEnable", r);
      return false;
    }
  }
  // CUPTI sets itself up on the first launch and copies after enabling, which
  // held the first kernel back by milliseconds on the H100: a tiny kernel and
  // two small copies take that cost before the origin.
  {
    PinnedBuffer<unsigned char> host(1 << 20);
    DeviceBuffer<unsigned char> device(1 << 20);
    launch_spin(nullptr, 0.0);
    LAB_CHECK(cudaMemcpy(device.data(), host.data(), host.bytes(), cudaMemcpyHostToDevice));
    LAB_CHECK(cudaMemcpy(host.data(), device.data(), host.bytes(), cudaMemcpyDeviceToHost));
    LAB_CHECK(cudaDeviceSynchronize());
  }
  origin_ns_ = now_ns();
  dropped_ = 0;
  stream_names_.clear();
  recording_ = true;
  return true;
}

void TimelineRecorder::name_stream(cudaStream_t stream, const std::string& name) {
  std::uint32_t id = 0;
  if (cuptiGetStreamIdEx(nullptr, reinterpret_cast<CUstream>(stream), 0, &id) == CUPTI_SUCCESS)
    stream_names_[id] = name;
}

std::vector<Interval> TimelineRecorder::stop() {
  if (!recording_) return {};
  recording_ = false;
  const cudaError_t synced = finish_recording();
  std::vector<Interval> result;
  {
    std::lock_guard<std::mutex> lock(collected.mutex);
    result.swap(collected.intervals);
    dropped_ = collected.dropped;
  }
  LAB_CHECK(synced);
  const double origin = static_cast<double>(origin_ns_);
  // start()'s warm-up copies ran on the legacy default stream, which
  // cuptiGetStreamIdEx does not answer for: their records give its id.
  for (const Interval& i : result) {
    if (i.kind == Interval::Kind::memcpy && i.end_ns < origin)
      stream_names_.emplace(i.stream, "default stream");  // a name the chapter gave wins
  }
  std::vector<Interval> kept;
  for (Interval& i : result) {
    if (i.end_ns < origin) continue;
    i.start_ns -= origin;
    i.end_ns -= origin;
    auto name = stream_names_.find(i.stream);
    i.stream_name = name != stream_names_.end() ? name->second : "stream " + std::to_string(i.stream);
    kept.push_back(std::move(i));
  }
  return kept;
}

TimelineRecorder::~TimelineRecorder() {
  if (recording_) finish_recording();  // a destructor cannot throw the error
}

#else  // built without CUPTI: the recorder says so and records nothing

std::uint64_t TimelineRecorder::now_ns() { return 0; }
bool TimelineRecorder::start(std::string* why) {
  if (why != nullptr) *why = "this build has no CUPTI (configure found none, or -DLAB_WITH_CUPTI=OFF)";
  return false;
}
void TimelineRecorder::name_stream(cudaStream_t, const std::string&) {}
std::vector<Interval> TimelineRecorder::stop() { return {}; }
TimelineRecorder::~TimelineRecorder() = default;

#endif

void TimelineSession::configure(bool chart, std::string trace_path, std::string device_name) {
  chart_ = chart;
  trace_path_ = std::move(trace_path);
  device_name_ = std::move(device_name);
}

void TimelineSession::begin(const std::string& title) {
  if (!wanted() || active_) return;
  std::string why;
  if (!recorder_.start(&why)) {
    if (!said_unavailable_) std::printf("   (no timeline: %s; the chapter goes on without it)\n", why.c_str());
    said_unavailable_ = true;
    return;
  }
  if (all_.empty() && first_origin_ns_ == 0) first_origin_ns_ = recorder_.origin_ns();
  title_ = title;
  active_ = true;
}

void TimelineSession::name_stream(cudaStream_t stream, const std::string& name) {
  if (active_) recorder_.name_stream(stream, name);
}

void TimelineSession::mark(const std::string& row, const std::string& name, std::uint64_t begin_ns,
                           std::uint64_t end_ns) {
  if (!active_) return;
  Interval span;
  span.kind = Interval::Kind::host;
  span.name = name;
  span.stream_name = row;
  span.start_ns = static_cast<double>(begin_ns);
  span.end_ns = static_cast<double>(end_ns);
  marks_.push_back(span);
}

void TimelineSession::end() {
  if (!active_) return;
  active_ = false;
  std::vector<Interval> work = recorder_.stop();
  const double origin = static_cast<double>(recorder_.origin_ns());
  for (Interval& span : marks_) {
    span.start_ns -= origin;
    span.end_ns -= origin;
    work.push_back(span);
  }
  marks_.clear();
  if (chart_) std::printf("   timeline (CUPTI) of %s:\n%s", title_.c_str(), render_chart(work, 100).c_str());
  if (recorder_.dropped() > 0)
    std::printf("   WARNING: CUPTI dropped %zu record(s) of %s: the %s is incomplete\n", recorder_.dropped(),
                title_.c_str(), chart_ ? "chart" : "trace");
  // The trace's one time axis: ns after the first recording began.
  const double shift = static_cast<double>(recorder_.origin_ns() - first_origin_ns_);
  double last_end = 0;
  for (Interval& i : work) {
    i.start_ns += shift;
    i.end_ns += shift;
    last_end = std::max(last_end, i.end_ns);
    all_.push_back(std::move(i));
  }
  Interval region;
  region.kind = Interval::Kind::region;
  region.name = title_ + (recorder_.dropped() > 0 ? " (records dropped)" : "");
  region.start_ns = shift;
  region.end_ns = std::max(last_end, shift);
  all_.push_back(region);
}

void TimelineSession::write() const {
  if (trace_path_.empty()) return;
  write_file_atomically(trace_path_, chrome_trace(all_, device_name_));
  std::printf("trace written to %s (open it in https://ui.perfetto.dev or chrome://tracing)\n", trace_path_.c_str());
}

}  // namespace lab
