// The common/ helpers on the GPU: device query, buffers, events, measuring, clock.
#include <doctest/doctest.h>

#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "check.cuh"
#include "clock.cuh"
#include "device.cuh"
#include "measure.cuh"
#include "memory.cuh"
#include "stream.cuh"
#include "stream_blocker.cuh"
#include "timers.cuh"

TEST_CASE("the device summary is filled in") {
  const lab::DeviceInfo d = lab::require_device();
  CHECK_FALSE(d.name.empty());
  CHECK(d.sm_count > 0);
  CHECK(d.l2_bytes > 0);
  CHECK(d.max_threads_per_block >= 1024);
  CHECK(d.memory_bytes > d.free_memory_bytes / 2);
  CHECK(d.runtime_version >= 13000);
  const lab::Fields fields = d.fields();
  REQUIRE(fields.size() > 2);
  CHECK(fields[1].key == "name");
  CHECK(fields[1].value.text() == d.name);
}

TEST_CASE("a CUDA error becomes an exception naming the call") {
  lab::DeviceBuffer<float> buffer(16);
  try {
    // Copying 1 GiB out of a 64-byte buffer is an invalid argument.
    LAB_CHECK(cudaMemcpy(buffer.data(), buffer.data(), std::size_t{1} << 30, cudaMemcpyDeviceToDevice));
    FAIL("no exception");
  } catch (const lab::CudaError& e) {
    CHECK(std::string(e.what()).find("cudaMemcpy(buffer.data()") != std::string::npos);
    CHECK(std::string(e.what()).find("common_gpu_test.cu") != std::string::npos);
  }
  (void)cudaGetLastError();
}

TEST_CASE("buffers move, round-trip and poison") {
  lab::DeviceBuffer<float> a(1000);
  const std::vector<float> values(1000, 2.5f);
  a.upload(values);
  lab::DeviceBuffer<float> b = std::move(a);
  CHECK(a.data() == nullptr);
  CHECK(a.size() == 0);  // a moved-from buffer is empty, not dangling
  CHECK(b.size() == 1000);
  CHECK(b.download() == values);
  b.poison();
  for (float v : b.download()) CHECK(v != v);  // NaN

  lab::PinnedBuffer<int> pinned(10);
  pinned[3] = 7;
  lab::PinnedBuffer<int> moved = std::move(pinned);
  CHECK(moved[3] == 7);
  CHECK(pinned.data() == nullptr);
}

TEST_CASE("an event pair and the host timer agree on a long kernel") {
  lab::Stream stream;
  lab::launch_spin(stream, 0.01);  // load the module first
  stream.synchronize();
  lab::Event start, stop;
  lab::HostTimer host;
  LAB_CHECK(cudaEventRecord(start, stream));
  lab::launch_spin(stream, 20.0);
  LAB_CHECK(cudaEventRecord(stop, stream));
  LAB_CHECK(cudaEventSynchronize(stop));
  const float gpu_ms = lab::Event::elapsed_ms(start, stop);
  const double host_ms = host.elapsed_ms();
  CHECK(gpu_ms >= 19.0);
  CHECK(gpu_ms <= 30.0);
  CHECK(host_ms >= gpu_ms * 0.95);  // the host waited at least as long as the GPU ran
}

TEST_CASE("measure_ms returns one sample per run, each as long as the work") {
  lab::Stream stream;
  lab::MeasureConfig config;
  config.warmup = 1;
  config.samples = 5;
  const auto samples = lab::measure_ms([](cudaStream_t s) { lab::launch_spin(s, 2.0); }, stream, config);
  REQUIRE(samples.size() == 5);
  for (double s : samples) {
    CHECK(s >= 1.9);
    CHECK(s < 10.0);
  }
  config.flush_l2 = true;  // the flush runs outside the timed region
  const auto cold = lab::measure_ms([](cudaStream_t s) { lab::launch_spin(s, 2.0); }, stream, config);
  for (double s : cold) CHECK(s < 10.0);
}

TEST_CASE("every sample mode times a long kernel as long as it runs") {
  lab::Stream stream;
  for (lab::SampleMode mode :
       {lab::SampleMode::back_to_back, lab::SampleMode::isolated, lab::SampleMode::blocked_stream}) {
    CAPTURE(static_cast<int>(mode));
    lab::MeasureConfig config;
    config.warmup = 1;
    config.samples = 3;
    config.mode = mode;
    const auto samples = lab::measure_ms([](cudaStream_t s) { lab::launch_spin(s, 2.0); }, stream, config);
    REQUIRE(samples.size() == 3);
    for (double s : samples) {
      CHECK(s >= 1.9);
      CHECK(s < 10.0);
    }
  }
}

TEST_CASE("a blocked stream waits for release, and a forgotten one times out") {
  lab::Stream stream;
  lab::Event done;
  {
    lab::StreamBlocker blocker;
    blocker.block(stream);
    CHECK_THROWS_AS(blocker.block(stream), std::logic_error);
    done.record(stream);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_FALSE(done.query());  // still held after 20 ms
    blocker.release();
    done.synchronize();
    CHECK_FALSE(blocker.timed_out());
  }
  lab::StreamBlocker impatient(10.0);  // 10 ms
  impatient.block(stream);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  stream.synchronize();  // the kernel gave up on its own
  CHECK(impatient.timed_out());
  impatient.release();
}

TEST_CASE("the SM clock measured in a kernel is plausible") {
  const double mhz = lab::measure_sm_clock_mhz();
  CHECK(mhz > 100.0);
  CHECK(mhz < 5000.0);
}

TEST_CASE("streams and events move without double destruction") {
  lab::Stream a;
  cudaStream_t handle = a.get();
  lab::Stream b(cudaStreamNonBlocking);
  b = std::move(a);
  CHECK(b.get() == handle);
  CHECK(a.get() == nullptr);
  lab::Event e1, e2;
  e2 = std::move(e1);
  CHECK(e1.get() == nullptr);
  e2.record(b);
  e2.synchronize();
  CHECK(e2.query());
}
