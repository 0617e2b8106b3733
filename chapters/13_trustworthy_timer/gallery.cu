// Chapter 13's gallery: the inputs and the CPU reference, the kernels, and
// one call per workload with the CUDA it queues written out.
#include <algorithm>
#include <stdexcept>

#include "check.cuh"
#include "clock.cuh"
#include "cpu_work.hpp"
#include "gallery.cuh"

namespace ch13 {

// --- Inputs and the CPU reference ------------------------------------------------

namespace {

constexpr int kBlock = 256;

__global__ void fill_inputs(float* a, float* b, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    a[i] = input_value(seed, static_cast<std::uint64_t>(i), 0);
    b[i] = input_value(seed, static_cast<std::uint64_t>(i), 1);
  }
}

}  // namespace

Problem::Problem(std::int64_t n, int grid)
    : n_(n),
      grid_(grid),
      a_(static_cast<std::size_t>(n)),
      b_(static_cast<std::size_t>(n)),
      c_(static_cast<std::size_t>(n)),
      expected_(static_cast<std::size_t>(n)) {}

void Problem::fill(std::uint64_t seed, cudaStream_t stream) {
  fill_inputs<<<grid_, kBlock, 0, stream>>>(a_.data(), b_.data(), n_, seed);
  LAB_CHECK_LAUNCH();
  // The CPU's answer, from the same hash: a float add rounds the same on both.
  for (std::int64_t i = 0; i < n_; ++i) {
    const auto u = static_cast<std::uint64_t>(i);
    expected_[static_cast<std::size_t>(i)] = input_value(seed, u, 0) + input_value(seed, u, 1);
  }
}

void Problem::poison(cudaStream_t stream) { c_.poison(stream); }

std::vector<float> Problem::read(cudaStream_t stream) const {
  std::vector<float> out(static_cast<std::size_t>(n_));
  LAB_CHECK(cudaMemcpyAsync(out.data(), c_.data(), c_.bytes(), cudaMemcpyDeviceToHost, stream));
  LAB_CHECK(cudaStreamSynchronize(stream));
  return out;
}

// --- The kernels -------------------------------------------------------------------

namespace {

/// `c = a + b`, a grid-stride loop: the short kernel (512Ki floats: ~3 us on an H200).
__global__ void add(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    c[i] = a[i] + b[i];
}

/// The same add, then one thread spins until @p spin_ns after it began: a kernel of known length.
__global__ void add_then_spin(const float* a, const float* b, float* c, std::int64_t n, unsigned long long spin_ns) {
  const unsigned long long begin = lab::globaltimer_ns();
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    c[i] = a[i] + b[i];
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (lab::globaltimer_ns() - begin < spin_ns) {
    }
  }
}

/// One thread that spins for @p spin_ns: work queued ahead of another kernel delays it by a known time.
__global__ void spin(unsigned long long spin_ns) {
  const unsigned long long begin = lab::globaltimer_ns();
  while (lab::globaltimer_ns() - begin < spin_ns) {
  }
}

/// The same add under another name, launched by the first-launch workload only:
/// its first call is this kernel's first launch in the process.
__global__ void first_launch_add(const float* a, const float* b, float* c, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    c[i] = a[i] + b[i];
}

unsigned long long nanoseconds(double ms) { return static_cast<unsigned long long>(ms * 1e6); }

}  // namespace

// --- The calls: honest ones -----------------------------------------------------------

// [snippet:honest]
void Gallery::short_kernel(cudaStream_t caller) {
  Problem& p = *workloads_[0].problem;
  add<<<p.grid(), kBlock, 0, caller>>>(p.a(), p.b(), p.c(), p.n());
  LAB_CHECK_LAUNCH();
}

void Gallery::long_kernel(cudaStream_t caller) {
  Problem& p = *workloads_[1].problem;
  add_then_spin<<<p.grid(), kBlock, 0, caller>>>(p.a(), p.b(), p.c(), p.n(), nanoseconds(sizes_.long_ms));
  LAB_CHECK_LAUNCH();
}
// [snippet:honest]

void Gallery::first_launch(cudaStream_t caller) {
  Problem& p = *workloads_[2].problem;
  first_launch_add<<<p.grid(), kBlock, 0, caller>>>(p.a(), p.b(), p.c(), p.n());
  LAB_CHECK_LAUNCH();
}

void Gallery::l2_resident(cudaStream_t caller) {
  Problem& p = *workloads_[3].problem;
  add<<<p.grid(), kBlock, 0, caller>>>(p.a(), p.b(), p.c(), p.n());
  LAB_CHECK_LAUNCH();
}

// --- The calls: adversaries ------------------------------------------------------------

// [snippet:side_stream]
void Gallery::side_stream(cudaStream_t caller) {
  Problem& p = *workloads_[4].problem;
  // The previous call's join, made only now: after the caller recorded its stop event.
  if (side_pending_) LAB_CHECK(cudaStreamWaitEvent(caller, side_done_, 0));
  LAB_CHECK(cudaEventRecord(fork_, caller));  // fork: the side stream starts after the caller's earlier work
  LAB_CHECK(cudaStreamWaitEvent(side_, fork_, 0));
  add_then_spin<<<p.grid(), kBlock, 0, side_>>>(p.a(), p.b(), p.c(), p.n(), nanoseconds(sizes_.long_ms));
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaEventRecord(side_done_, side_));
  side_pending_ = true;
}
// [snippet:side_stream]

// [snippet:late_copy]
void Gallery::late_copy(cudaStream_t caller) {
  Problem& p = *workloads_[5].problem;
  add<<<p.grid(), kBlock, 0, caller>>>(p.a(), p.b(), scratch_.data(), p.n());
  LAB_CHECK_LAUNCH();
  LAB_CHECK(cudaEventRecord(computed_, caller));
  // The output is copied on another stream: nothing on the caller's stream waits for it.
  LAB_CHECK(cudaStreamWaitEvent(copy_, computed_, 0));
  LAB_CHECK(cudaMemcpyAsync(p.c(), scratch_.data(), p.bytes(), cudaMemcpyDeviceToDevice, copy_));
}
// [snippet:late_copy]

// [snippet:cached]
void Gallery::cached(cudaStream_t caller) {
  Problem& p = *workloads_[6].problem;
  if (cached_a_ != p.a()) {  // inputs at a new address: compute, and keep the result
    add_then_spin<<<p.grid(), kBlock, 0, caller>>>(p.a(), p.b(), cache_.data(), p.n(), nanoseconds(sizes_.long_ms));
    LAB_CHECK_LAUNCH();
    cached_a_ = p.a();
  }
  // The same address as last time: the kept result, whatever the inputs now hold.
  LAB_CHECK(cudaMemcpyAsync(p.c(), cache_.data(), p.bytes(), cudaMemcpyDeviceToDevice, caller));
}
// [snippet:cached]

void Gallery::cpu_bound(cudaStream_t caller) {
  Problem& p = *workloads_[7].problem;
  lab::do_cpu_work(sizes_.cpu_ms);  // the call's cost is on the CPU
  add<<<p.grid(), kBlock, 0, caller>>>(p.a(), p.b(), p.c(), p.n());
  LAB_CHECK_LAUNCH();
}

// [snippet:wrong_stream]
void Gallery::wrong_stream(cudaStream_t /*caller*/) {
  Problem& p = *workloads_[8].problem;
  // A library's own stream, which it declares: the caller's stream sees nothing of the work.
  add_then_spin<<<p.grid(), kBlock, 0, own_>>>(p.a(), p.b(), p.c(), p.n(), nanoseconds(sizes_.long_ms));
  LAB_CHECK_LAUNCH();
}

void Gallery::left_queued(cudaStream_t /*caller*/) {
  Problem& p = *workloads_[9].problem;
  // A stream the harness is not told of: the call returns with the work still queued there,
  // the add behind --long-ms of other work.
  spin<<<1, 1, 0, hidden_>>>(nanoseconds(sizes_.long_ms));
  LAB_CHECK_LAUNCH();
  add<<<p.grid(), kBlock, 0, hidden_>>>(p.a(), p.b(), p.c(), p.n());
  LAB_CHECK_LAUNCH();
}
// [snippet:wrong_stream]

// --- The gallery ---------------------------------------------------------------------------

Problem& Gallery::add_problem(std::int64_t n) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  const int grid = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(blocks, 8LL * sm_count_)));
  problems_.push_back(std::make_unique<Problem>(n, grid));
  return *problems_.back();
}

Workload& Gallery::workload(const std::string& id) {
  for (Workload& w : workloads_) {
    if (w.id == id) return w;
  }
  throw std::out_of_range("no workload '" + id + "' in the gallery");
}

Gallery::Gallery(const GallerySizes& sizes, const lab::DeviceInfo& device)
    : sizes_(sizes),
      sm_count_(std::max(1, device.sm_count)),
      scratch_(static_cast<std::size_t>(sizes.n_large)),
      cache_(static_cast<std::size_t>(sizes.n)) {
  struct Entry {
    const char* id;
    const char* name;
    bool honest;
    std::int64_t n;
    void (Gallery::*call)(cudaStream_t);
    std::vector<cudaStream_t> streams;
  };
  const std::vector<Entry> entries = {
      {"short", "short kernel, L2 flushed", true, sizes.n, &Gallery::short_kernel, {}},
      {"long", "long kernel", true, sizes.n, &Gallery::long_kernel, {}},
      {"first_launch", "first launch", true, sizes.n, &Gallery::first_launch, {}},
      {"l2_resident", "short kernel, inputs in L2", true, sizes.n, &Gallery::l2_resident, {}},
      {"side_stream", "side stream, joined late", false, sizes.n, &Gallery::side_stream, {side_}},
      {"late_copy", "output copied late", false, sizes.n_large, &Gallery::late_copy, {copy_}},
      {"cached", "result cached", false, sizes.n, &Gallery::cached, {}},
      {"cpu_bound", "CPU work in the call", false, sizes.n, &Gallery::cpu_bound, {}},
      {"wrong_stream", "work on its own stream", false, sizes.n, &Gallery::wrong_stream, {own_}},
      {"left_queued", "work left queued", false, sizes.n, &Gallery::left_queued, {}},
  };
  for (const Entry& e : entries) {
    Workload w;
    w.id = e.id;
    w.name = e.name;
    w.honest = e.honest;
    w.problem = &add_problem(e.n);
    w.streams = e.streams;
    const auto member = e.call;
    w.call = [this, member](cudaStream_t caller) { (this->*member)(caller); };
    workloads_.push_back(std::move(w));
  }
  workloads_[0].cold_l2 = true;
  workloads_[2].naive_reads_first = true;
  workloads_[2].truth_from_first_call = true;
  workloads_[6].truth_from_first_call = true;
  workloads_[9].undeclared = {hidden_};
}

}  // namespace ch13
