#include "options.hpp"

#include <algorithm>

#include "command_line.hpp"

namespace ch10 {

void add_options(lab::Options& table, Options& o) {
  table.add("n", &o.n, 1, std::int64_t{1} << 24, "floats per buffer of the dependent chain (sections 1, 2 and 4)")
      .add("kernels", &o.kernels, 2, 10000, "kernels in the dependent chain (sections 1 and 2)")
      .add("preamble-us", &o.preamble_us, 0.0, 100.0,
           "each chain kernel's work before it waits for its predecessor, in us (sections 1 and 2)")
      .add("reps", &o.reps, 1, 10000, "samples per measurement")
      .add("jacobi-n", &o.jacobi_n, 2, std::int64_t{1} << 24, "unknowns of the Jacobi solve (section 3)")
      .add("tolerance", &o.tolerance, 1e-7, 1.0,
           "the Jacobi solve stops when no unknown moved more than this (section 3)")
      .add("max-iterations", &o.max_iterations, 1, 1000000, "the most Jacobi sweeps (section 3)")
      .add("queue-launches", &o.queue_launches, 16, 65536,
           "the most launches queued into a held stream per CUDA_SCALE_LAUNCH_QUEUES value (section 6)")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed");
}

lab::MemoryNeed memory_need(const Options& o) {
  const double chain = 3.0 * static_cast<double>(o.n) * sizeof(float);
  const double jacobi = 3.0 * static_cast<double>(o.jacobi_n) * sizeof(float);
  const double device = std::max(chain, jacobi);
  // On the host: the inputs, the CPU reference and one download of each.
  return {device, "the chain's two buffers and its addend, or the solve's x, x' and b: 3 floats per element",
          2 * device, "inputs, CPU reference and a download: 2 x the device's share",
          "--n " + lab::format_count(o.n) + " / --jacobi-n " + lab::format_count(o.jacobi_n)};
}

}  // namespace ch10
