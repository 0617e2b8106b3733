#include "options.hpp"

#include "command_line.hpp"

namespace ch11 {

void add_options(lab::Options& table, Options& o) {
  table.add("n", &o.n, 1, std::int64_t{1} << 26, "floats of the small kernel the block recorder times (section 1)")
      .add("long-block-us", &o.long_block_us, 10.0, 100000.0,
           "each block of the long kernel, in us (sections 2, 3; the wave of 5)")
      .add("long-waves", &o.long_waves, 1, 1000,
           "the long kernel's blocks, in waves of resident blocks (sections 2, 3)")
      .add("urgent-block-us", &o.urgent_block_us, 1.0, 10000.0,
           "each block of the urgent kernel, in us (sections 2, 3)")
      .add("green-sms", &o.green_sms, 1, 1024, "SMs of the small green context (section 3)")
      .add("chain-kernels", &o.chain_kernels, 2, 10000, "kernels of the chain with host functions (section 4)")
      .add("kernel-us", &o.kernel_us, 1.0, 100000.0, "each chain kernel's length, in us (section 4)")
      .add("reps", &o.reps, 1, 10000, "samples per measurement")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed")
      .add_output_file("block-trace", &o.block_trace,
                       "write sections 1 and 2's block timelines as a Chrome trace (open in ui.perfetto.dev)");
}

lab::MemoryNeed memory_need(const Options& o) {
  const double floats = static_cast<double>(o.n) * sizeof(float);
  return {3 * floats, "a, b and c: 3 x n floats", 4 * floats, "a, b, the expected c and a download: 4 x n floats",
          "--n " + lab::format_count(o.n)};
}

}  // namespace ch11
