#include "options.hpp"

#include <algorithm>
#include <cmath>

#include "command_line.hpp"
#include "fields.hpp"

namespace ch02 {

void add_options(lab::Options& table, Options& o) {
  table
      .add("n", &o.n, 0, std::int64_t{1} << 36,
           "floats per vector of section 1's c = a + b; 0: sized from this GPU's memory rate for a kernel of about " +
               lab::fixed(kTimedAddUs, 0) + " us")
      .add("runs", &o.runs, 1, 10000, "host-timer readings per case")
      .add("warmup", &o.warmup, 0, 10000, "warm-up launches left in flight before each case")
      .add("backlog-ms", &o.backlog_ms, 0.0, 1000.0, "spin kernel queued before the warm-up, in ms")
      .add("long-kernel-ms", &o.long_kernel_ms, 1.0, 1000.0, "section 2's kernel and section 4's GPU work, in ms")
      .add("queued-ms", &o.queued_ms, 1.0, 1000.0, "GPU work queued before each call of section 3, in ms")
      .add("cpu-ms", &o.cpu_ms, 1.0, 1000.0, "section 4's CPU work, in ms")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed");
}

double nominal_memory_bytes_per_second(double memory_clock_mhz, int bus_bits) {
  return 2.0 * memory_clock_mhz * 1e6 * bus_bits / 8.0;
}

std::int64_t timed_add_n(const Options& o, double bytes_per_second) {
  if (o.n > 0) return o.n;
  constexpr std::int64_t kMi = std::int64_t{1} << 20;
  const double floats = kTimedAddUs * 1e-6 * bytes_per_second / (3.0 * sizeof(float));
  return std::max<std::int64_t>(1, std::llround(floats / kMi)) * kMi;
}

lab::MemoryNeed memory_need(const Options& o, std::int64_t timed_n) {
  const double section1 = 4.0 * static_cast<double>(timed_n);  // one vector of section 1's n floats
  const double later = 4.0 * static_cast<double>(kReadN);      // one vector of sections 3 and 4
  const std::string n = lab::format_count(timed_n);
  return {std::max(3 * section1, 4 * later), "a, b and c of section 1, or 4 x 1Mi floats in sections 3 and 4",
          std::max(3 * section1, 5 * later), "3 x n floats, or 5 x 1Mi floats in sections 3 and 4",
          o.n > 0 ? "--n " + n : "--n 0 (" + n + ", from this GPU's memory rate)"};
}

}  // namespace ch02
