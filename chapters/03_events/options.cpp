#include "options.hpp"

#include <algorithm>
#include <string>

#include "command_line.hpp"

namespace ch03 {

void add_options(lab::Options& table, Options& o) {
  table.add("n", &o.n, 1, std::int64_t{1} << 36, "floats per vector of the small kernel (chapter 01's c = a + b)")
      .add("n-large", &o.n_large, 1, std::int64_t{1} << 36, "floats per vector of the large kernel (sections 6 and 8)")
      .add("reps", &o.reps, 1, 10000, "samples per measurement")
      .add("kernel-ms", &o.kernel_ms, 5.0, 1000.0, "length of the long kernel, in ms (sections 1, 3 and 4)")
      .add("streams", &o.streams, 1, 32, "streams in section 7")
      .add("stream-n", &o.stream_n, 1, std::int64_t{1} << 36, "floats per vector in each of those streams")
      .add("seed", &o.seed, 0, std::int64_t{1} << 62, "random input seed");
}

lab::MemoryNeed memory_need(const Options& o, std::size_t l2_bytes) {
  const double floats = static_cast<double>(sizeof(float));
  // Sections 5 and 6: a, b, c of each size (+ the copy's destination, n);
  // section 7: a, b, c per stream; section 8 another a, b, c at --n-large, once
  // section 6's are freed. Counted as if all lived at once.
  const double vectors = 4.0 * static_cast<double>(o.n) + 3.0 * static_cast<double>(o.n_large) +
                         3.0 * static_cast<double>(o.streams) * static_cast<double>(o.stream_n);
  lab::MemoryNeed need;
  need.device_bytes = floats * vectors + 2.0 * static_cast<double>(l2_bytes);
  need.device_parts = "a, b and c at --n, --n-large and per stream, the copy's destination, the L2 flush buffer";
  // a, b and the CPU's answer of every problem, a result downloaded to check, and the pinned copy source.
  need.host_bytes = floats * (vectors + static_cast<double>(std::max(o.n_large, o.stream_n)));
  need.host_parts = "inputs and answers of every c = a + b, one result, the pinned copy source";
  need.what = "--n " + lab::format_count(o.n) + ", --n-large " + lab::format_count(o.n_large) + ", --streams " +
              std::to_string(o.streams) + " x --stream-n " + lab::format_count(o.stream_n);
  return need;
}

}  // namespace ch03
