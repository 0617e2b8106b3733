#include "options.hpp"

#include "command_line.hpp"

namespace ch02 {

void add_options(lab::Options& table, Options& o) {
  table.add("n", &o.n, 1, std::int64_t{1} << 36, "floats per vector of chapter 01's c = a + b")
      .add("runs", &o.runs, 1, 10000, "host-timer readings per case")
      .add("warmup", &o.warmup, 0, 10000, "warm-up launches left in flight before each case")
      .add("backlog-ms", &o.backlog_ms, 0.0, 1000.0, "spin kernel queued before the warm-up, in ms")
      .add("long-kernel-ms", &o.long_kernel_ms, 1.0, 1000.0, "section 2's kernel and section 4's GPU work, in ms")
      .add("queued-ms", &o.queued_ms, 1.0, 1000.0, "GPU work queued before each call of section 3, in ms")
      .add("cpu-ms", &o.cpu_ms, 1.0, 1000.0, "section 4's CPU work, in ms")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed");
}

lab::MemoryNeed memory_need(const Options& o) {
  const double bytes = 4.0 * static_cast<double>(o.n);  // one vector of n floats
  return {4 * bytes, "a, b, c and section 3's copy of c: 4 x n floats", 5 * bytes,
          "a, the CPU's c and section 3's three copies of c: 5 x n floats", "--n " + lab::format_count(o.n)};
}

}  // namespace ch02
