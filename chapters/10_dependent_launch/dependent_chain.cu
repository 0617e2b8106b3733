// Sections 1 and 2's lesson: programmatic dependent launch (PDL) in a stream
// and in a graph.
//
// The kernels: chain_step (x_out = x_in + b, after a preamble that does not
// read x_in, with the wait before the first read of x_in), and the misuse pair:
// late_writer, a primary that lets its dependents launch at once and writes
// 100 us later, and two secondaries, one reading before its wait, one after.
// cudaGridDependencySynchronize() and cudaTriggerProgrammaticLaunchCompletion()
// are the PTX instruction griddepcontrol, which needs sm_90: they sit under
// `__CUDA_ARCH__ >= 900`, and where the GPU or the build lacks 9.0 (pdl_supported) the host never sets the attribute.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include "check.cuh"
#include "clock.cuh"
#include "dependent_chain.cuh"
#include "stream.cuh"
#include "stream_blocker.cuh"

namespace ch10 {

namespace {

constexpr int kThreads = 256;
constexpr double kMisuseDelayUs = 100.0;  // CCCL's: long enough to cover the launch of the next kernel

// [snippet:chain_step]
__global__ void chain_step(const float* in, const float* b, float* out, std::int64_t n, long long preamble_ns,
                           int trigger_early, BlockStamps* stamps) {
  const unsigned long long start = lab::globaltimer_ns();
  // The preamble: work that does not read the predecessor's output (a real kernel
  // zeroes buffers or loads constants here; this one spins for preamble_ns).
  while (lab::globaltimer_ns() - start < static_cast<unsigned long long>(preamble_ns)) {
  }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900               // griddepcontrol: ptxas refuses it below sm_90
  if (trigger_early) cudaTriggerProgrammaticLaunchCompletion();  // the next kernel may be scheduled now
  cudaGridDependencySynchronize();  // every thread, before its first read of in: the predecessor done, flushed
#else
  (void)trigger_early;
#endif
  const unsigned long long waited = lab::globaltimer_ns();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = in[i] + b[i];
  __syncthreads();  // every thread of the block has stored
  if (threadIdx.x == 0) stamps[blockIdx.x] = {start, waited, lab::globaltimer_ns()};
}
// [snippet:chain_step]

__global__ void late_writer(const float* in, const float* b, float* out, std::int64_t n, long long delay_ns,
                            unsigned long long* stored_at) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();  // at once: the dependent kernel may start long before the stores
#endif
  const unsigned long long start = lab::globaltimer_ns();
  while (lab::globaltimer_ns() - start < static_cast<unsigned long long>(delay_ns)) {
  }
  if (threadIdx.x == 0) atomicMax(stored_at, lab::globaltimer_ns());  // the latest block's store start
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = in[i] + b[i];
}

// [snippet:misuse]
// WRONG: in is read in the preamble, before the wait: the primary may not have written it yet.
__global__ void reads_before_wait(const float* in, const float* b, float* out, std::int64_t n,
                                  unsigned long long* started) {
  if (threadIdx.x == 0) started[blockIdx.x] = lab::globaltimer_ns();
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const float x = i < n ? in[i] : 0.0f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
  if (i < n) out[i] = x + b[i];
}

// WRONG: launched with the PDL attribute, but never waits at all.
__global__ void never_waits(const float* in, const float* b, float* out, std::int64_t n, unsigned long long* started) {
  if (threadIdx.x == 0) started[blockIdx.x] = lab::globaltimer_ns();
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i] + b[i];
}

// The fix: the wait first, then the read.
__global__ void reads_after_wait(const float* in, const float* b, float* out, std::int64_t n,
                                 unsigned long long* started) {
  if (threadIdx.x == 0) started[blockIdx.x] = lab::globaltimer_ns();
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
  if (i < n) out[i] = in[i] + b[i];
}
// [snippet:misuse]

constexpr char kHeldTooLong[] =
    "the held stream timed out before its sample was queued (is a profiler serialising kernels?)";

// Adds one checked result to @p v.
void note_result(ChainVariant& v, const lab::Comparison& result) {
  ++v.results_checked;
  v.mismatches += result.mismatches;
  if (!result.passed() && v.wrong.empty()) v.wrong = result.detail();
}

ChainRun new_run(std::int64_t n, int kernels, double preamble_us) {
  ChainRun run;
  run.n = n;
  run.kernels = kernels;
  run.preamble_us = preamble_us;
  std::string why;
  if (!pdl_supported(&why)) {
    run.skipped = true;
    run.skip_reason = why;
  }
  return run;
}

}  // namespace

const char* launch_name(Launch how) {
  switch (how) {
    case Launch::plain: return "plain";
    case Launch::pdl: return "pdl";
    case Launch::pdl_early_trigger: return "pdl_early_trigger";
  }
  return "?";
}

bool pdl_built() {
  // ptxVersion is the virtual architecture of the code this device runs for
  // chain_step: the __CUDA_ARCH__ its guard saw. Below 90 the kernel holds no
  // cudaGridDependencySynchronize, so a PDL launch of it would read early.
  cudaFuncAttributes attributes{};
  const cudaError_t error = cudaFuncGetAttributes(&attributes, chain_step);
  if (error != cudaSuccess) (void)cudaGetLastError();  // no image for this device: that is the answer, not an error
  return error == cudaSuccess && attributes.ptxVersion >= 90;
}

bool pdl_supported(std::string* reason) {
  const int major = lab::current_device_attribute(cudaDevAttrComputeCapabilityMajor);
  const int minor = lab::current_device_attribute(cudaDevAttrComputeCapabilityMinor);
  std::string why;
  if (major < 9)
    why = "programmatic dependent launch needs compute capability 9.0; this GPU has " + std::to_string(major) + "." +
          std::to_string(minor);
  else if (!pdl_built())
    why =
        "this build has no sm_90 code for the chain's kernels (CMAKE_CUDA_ARCHITECTURES leaves out 90), so they "
        "cannot wait for their predecessor; rebuild with 90 or native";
  if (why.empty()) return true;
  if (reason != nullptr) *reason = why;
  return false;
}

// --- the chain ---------------------------------------------------------------------

DependentChain::DependentChain(std::int64_t n, int kernels, double preamble_us, std::uint64_t seed,
                               const lab::DeviceInfo& device)
    : n_(n),
      kernels_(kernels),
      blocks_(device.sm_count > 0 ? device.sm_count : 1),
      preamble_ns_(std::llround(preamble_us * 1e3)),
      a_(static_cast<std::size_t>(n)),
      b_(static_cast<std::size_t>(n)),
      x_{lab::DeviceBuffer<float>(static_cast<std::size_t>(n)), lab::DeviceBuffer<float>(static_cast<std::size_t>(n))},
      stamps_(static_cast<std::size_t>(kernels) * static_cast<std::size_t>(blocks_)) {
  const std::vector<float> a = lab::random_floats(static_cast<std::size_t>(n), seed);
  const std::vector<float> b = lab::random_floats(static_cast<std::size_t>(n), seed + 1);
  a_.upload(a);
  b_.upload(b);
  expected_ = ch08::chain_on_cpu(a, b, kernels);  // the kernels' additions, in their order
}

StepArgs DependentChain::args(int k, Launch how) {
  return {k == 0 ? a_.data() : x_[(k - 1) % 2].data(),
          b_.data(),
          x_[k % 2].data(),
          n_,
          preamble_ns_,
          how == Launch::pdl_early_trigger ? 1 : 0,
          stamps_.data() + static_cast<std::size_t>(k) * static_cast<std::size_t>(blocks_)};
}

// [snippet:launch]
void DependentChain::launch(int k, Launch how, cudaStream_t stream) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;  // may overlap the kernel before it in the stream
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks_));
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  const bool programmatic = how != Launch::plain && k > 0;  // kernel 0 follows no chain kernel
  config.attrs = programmatic ? &attribute : nullptr;
  config.numAttrs = programmatic ? 1 : 0;
  const StepArgs a = args(k, how);
  LAB_CHECK(cudaLaunchKernelEx(&config, chain_step, a.in, a.b, a.out, a.n, a.preamble_ns, a.trigger_early, a.stamps));
  LAB_CHECK_LAUNCH();
}
// [snippet:launch]

void DependentChain::poison(cudaStream_t stream) {
  x_[0].poison(stream);
  x_[1].poison(stream);
}

lab::Comparison DependentChain::check() const {
  return lab::compare(x_[(kernels_ - 1) % 2].download(), expected_);  // exact: the same additions, in order
}

std::vector<BlockStamps> DependentChain::stamps() const { return stamps_.download(); }

// [snippet:capture_chain]
ch08::Graph capture_chain(DependentChain& chain, Launch how, cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  LAB_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    for (int k = 0; k < chain.kernels(); ++k) chain.launch(k, how, stream);  // PDL launches: programmatic edges
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);  // leave capture mode before the error goes on
    if (graph != nullptr) cudaGraphDestroy(graph);
    throw;
  }
  LAB_CHECK(cudaStreamEndCapture(stream, &graph));
  return ch08::Graph(graph);
}
// [snippet:capture_chain]

// [snippet:build_chain_with_edges]
ch08::Graph build_chain_with_edges(DependentChain& chain) {
  cudaGraph_t created = nullptr;
  LAB_CHECK(cudaGraphCreate(&created, 0));
  ch08::Graph graph(created);
  cudaGraphEdgeData edge = {};                           // the reserved bytes must be zero
  edge.from_port = cudaGraphKernelNodePortProgrammatic;  // fires when every block triggered or exited
  edge.type = cudaGraphDependencyTypeProgrammatic;       // the wait in the next kernel sees this one's stores
  cudaGraphNode_t previous = nullptr;
  for (int k = 0; k < chain.kernels(); ++k) {
    StepArgs a = chain.args(k, Launch::pdl);
    void* params[] = {&a.in, &a.b, &a.out, &a.n, &a.preamble_ns, &a.trigger_early, &a.stamps};
    cudaGraphNodeParams node = {};
    node.type = cudaGraphNodeTypeKernel;
    node.kernel.func = reinterpret_cast<void*>(chain_step);
    node.kernel.gridDim = dim3(static_cast<unsigned>(chain.blocks()));
    node.kernel.blockDim = dim3(kThreads);
    node.kernel.sharedMemBytes = 0;
    node.kernel.kernelParams = params;  // the values are copied into the node
    cudaGraphNode_t added = nullptr;
    if (k == 0) {
      LAB_CHECK(cudaGraphAddNode(&added, graph.get(), nullptr, nullptr, 0, &node));
    } else {
      LAB_CHECK(cudaGraphAddNode(&added, graph.get(), &previous, &edge, 1, &node));
    }
    previous = added;
  }
  return graph;
}
// [snippet:build_chain_with_edges]

void count_edges(cudaGraph_t graph, int& edges, int& programmatic) {  // programmatic: type and port
  std::size_t count = 0;
  LAB_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count));
  std::vector<cudaGraphNode_t> from(count), to(count);
  std::vector<cudaGraphEdgeData> data(count);
  if (count > 0) LAB_CHECK(cudaGraphGetEdges(graph, from.data(), to.data(), data.data(), &count));
  edges = static_cast<int>(count);
  programmatic = 0;
  for (const cudaGraphEdgeData& e : data)
    if (e.type == cudaGraphDependencyTypeProgrammatic && e.from_port == cudaGraphKernelNodePortProgrammatic)
      ++programmatic;
}

void launch_late_writer(const float* in, const float* b, float* out, std::int64_t n, int blocks, long long delay_ns,
                        unsigned long long* stored_at, cudaStream_t stream) {
  LAB_CHECK(cudaMemsetAsync(stored_at, 0, sizeof(*stored_at), stream));  // atomicMax starts from 0
  late_writer<<<blocks, kThreads, 0, stream>>>(in, b, out, n, delay_ns, stored_at);
  LAB_CHECK_LAUNCH();
}

// --- 1. PDL in a stream --------------------------------------------------------------

ChainRun run_pdl_stream(std::int64_t n, int kernels, double preamble_us, int samples, std::uint64_t seed,
                        bool instrumented, const lab::DeviceInfo& device) {
  ChainRun run = new_run(n, kernels, preamble_us);
  if (run.skipped) return run;
  lab::Stream stream(cudaStreamNonBlocking);
  DependentChain chain(n, kernels, preamble_us, seed, device);
  run.blocks = chain.blocks();
  run.held = !instrumented && kernels <= kMaxHeldKernels;
  lab::StreamBlocker blocker;
  const Launch ways[] = {Launch::plain, Launch::pdl, Launch::pdl_early_trigger};
  for (Launch how : ways)  // loads the module and warms each way once, before any stream is held
    for (int k = 0; k < kernels; ++k) chain.launch(k, how, stream);
  blocker.block(stream);
  blocker.release();
  LAB_CHECK(cudaStreamSynchronize(stream));

  lab::Event start, stop;
  for (Launch how : ways) {
    ChainVariant v;
    v.name = launch_name(how);
    for (int i = 0; i < samples; ++i) {
      chain.poison(stream);
      if (run.held) blocker.block(stream);  // the K launches are queued first, then run without the host
      LAB_CHECK(cudaEventRecord(start, stream));
      for (int k = 0; k < kernels; ++k) chain.launch(k, how, stream);
      LAB_CHECK(cudaEventRecord(stop, stream));
      if (run.held) blocker.release();
      LAB_CHECK(cudaEventSynchronize(stop));
      if (run.held && blocker.timed_out()) throw std::runtime_error(kHeldTooLong);
      v.per_kernel_us.push_back(lab::Event::elapsed_us(start, stop) / kernels);
      note_result(v, chain.check());
    }
    v.stamps = chain.stamps();
    run.variants.push_back(std::move(v));
  }
  return run;
}

MisuseRun run_pdl_misuse(std::uint64_t seed, bool instrumented, const lab::DeviceInfo& device) {
  MisuseRun run;
  run.delay_us = kMisuseDelayUs;
  if (!pdl_supported(&run.skip_reason)) {
    run.skipped = true;
    return run;
  }
  if (instrumented) {
    run.skipped = true;
    run.skip_reason = "the run is instrumented: a sanitizer serialises the kernels, so nothing would overlap";
    return run;
  }
  const int blocks = device.sm_count > 0 ? device.sm_count : 1;
  const std::int64_t n = static_cast<std::int64_t>(blocks) * kThreads;  // one element per thread, all resident
  const std::vector<float> a = lab::random_floats(static_cast<std::size_t>(n), seed);
  const std::vector<float> b = lab::random_floats(static_cast<std::size_t>(n), seed + 1);
  const std::vector<float> expected = ch08::chain_on_cpu(a, b, 2);  // (a + b) + b
  lab::DeviceBuffer<float> a_d(a.size()), b_d(b.size()), mid(a.size()), out(a.size());
  lab::DeviceBuffer<unsigned long long> stored_at(1), started(static_cast<std::size_t>(blocks));
  a_d.upload(a);
  b_d.upload(b);
  lab::Stream stream(cudaStreamNonBlocking);

  using Secondary = void (*)(const float*, const float*, float*, std::int64_t, unsigned long long*);
  const std::pair<const char*, Secondary> cases[] = {
      {"read_before_wait", reads_before_wait}, {"never_waits", never_waits}, {"read_after_wait", reads_after_wait}};
  const auto queue_pair = [&](Secondary secondary) {  // the late writer, then the secondary with PDL
    launch_late_writer(a_d.data(), b_d.data(), mid.data(), n, blocks, std::llround(run.delay_us * 1e3),
                       stored_at.data(), stream);
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(blocks));
    config.blockDim = dim3(kThreads);
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
    LAB_CHECK(cudaLaunchKernelEx(&config, secondary, static_cast<const float*>(mid.data()),
                                 static_cast<const float*>(b_d.data()), out.data(), n, started.data()));
    LAB_CHECK_LAUNCH();
  };
  const auto read_case = [&](const std::string& name) {  // once the stream is idle
    const std::vector<unsigned long long> starts = started.download();
    const unsigned long long first = *std::min_element(starts.begin(), starts.end());
    const double lead_us = (static_cast<double>(stored_at.download()[0]) - static_cast<double>(first)) * 1e-3;
    run.cases.push_back({name, lab::compare(out.download(), expected), lead_us});
  };
  // Every kernel once first: a lazily loaded kernel's first launch may wait for the GPU (and for a held stream).
  for (const auto& c : cases) queue_pair(c.second);
  LAB_CHECK(cudaStreamSynchronize(stream));
  for (const auto& [name, secondary] : cases) {
    mid.poison(stream);  // what a read before the primary's store sees: NaN
    out.poison(stream);
    queue_pair(secondary);
    LAB_CHECK(cudaStreamSynchronize(stream));
    read_case(name);
  }
  // Again, the pair queued behind a held stream: the secondary is queued before the primary starts.
  lab::StreamBlocker blocker;
  for (const auto& [name, secondary] : cases) {
    mid.poison(stream);
    out.poison(stream);
    blocker.block(stream);
    queue_pair(secondary);
    blocker.release();
    LAB_CHECK(cudaStreamSynchronize(stream));
    if (blocker.timed_out()) {
      run.held_why_not = kHeldTooLong;
      run.cases.resize(std::size(cases));  // the held rows are not what they say
      break;
    }
    read_case(std::string(name) + "_held");
  }
  return run;
}

// --- 2. PDL in a graph ---------------------------------------------------------------

ChainRun run_pdl_graph(std::int64_t n, int kernels, double preamble_us, int samples, std::uint64_t seed,
                       const lab::DeviceInfo& device) {
  ChainRun run = new_run(n, kernels, preamble_us);
  if (run.skipped) return run;
  lab::Stream stream(cudaStreamNonBlocking);  // capture needs a stream other than the legacy default one
  DependentChain chain(n, kernels, preamble_us, seed, device);
  run.blocks = chain.blocks();
  chain.launch(0, Launch::plain, stream);  // loads the module
  LAB_CHECK(cudaStreamSynchronize(stream));

  std::vector<std::pair<std::string, ch08::Graph>> graphs;
  graphs.emplace_back("graph_plain", capture_chain(chain, Launch::plain, stream));
  graphs.emplace_back("graph_pdl", capture_chain(chain, Launch::pdl, stream));
  graphs.emplace_back("graph_pdl_early_trigger", capture_chain(chain, Launch::pdl_early_trigger, stream));
  graphs.emplace_back("graph_pdl_edges", build_chain_with_edges(chain));

  lab::Event start, stop;
  for (const auto& [name, graph] : graphs) {
    ChainVariant v;
    v.name = name;
    count_edges(graph.get(), v.edges, v.programmatic_edges);
    const ch08::GraphExec exec = ch08::instantiate(graph);
    LAB_CHECK(cudaGraphLaunch(exec.get(), stream));  // the first launch uploads it
    LAB_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < samples; ++i) {
      chain.poison(stream);
      LAB_CHECK(cudaEventRecord(start, stream));
      LAB_CHECK(cudaGraphLaunch(exec.get(), stream));
      LAB_CHECK(cudaEventRecord(stop, stream));
      LAB_CHECK(cudaEventSynchronize(stop));
      v.per_kernel_us.push_back(lab::Event::elapsed_us(start, stop) / kernels);
      note_result(v, chain.check());
    }
    v.stamps = chain.stamps();
    run.variants.push_back(std::move(v));
  }
  return run;
}

}  // namespace ch10
