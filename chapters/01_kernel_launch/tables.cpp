#include "tables.hpp"

#include "checks.hpp"
#include "command_line.hpp"
#include "vocabulary.hpp"

namespace ch01 {

namespace {

std::string dims(const int (&d)[3]) { return lab::format("%d, %d, %d", d[0], d[1], d[2]); }

}  // namespace

lab::ResultTable limits_table(const lab::DeviceInfo& d) {
  lab::ResultTable table("limits", "Per launch: compute capability 1.x beside this GPU", "limit",
                         {{"cc1", "compute capability 1.x", ""}, {"this_gpu", "this GPU", ""}});
  table.add_row("threads per block").set("cc1", "512").set("this_gpu", d.max_threads_per_block);
  table.add_row("block dimensions (x, y, z)").set("cc1", "512, 512, 64").set("this_gpu", dims(d.max_block_dim));
  table.add_row("grid dimensions (x, y, z)").set("cc1", "65535, 65535, 1").set("this_gpu", dims(d.max_grid_dim));
  table.add_row("shared memory per block [KiB]")
      .set("cc1", "16")
      .set("this_gpu", lab::format("%zu (%zu opt-in)", d.shared_per_block / 1024, d.shared_per_block_optin / 1024));
  table.add_row("multiprocessors").set("cc1", "30 on the largest (GT200)").set("this_gpu", d.sm_count);
  return table;
}

lab::ResultTable variants_table(const VariantsRun& run) {
  lab::ResultTable table("variants", "c = a + b, three ways, beside a device-to-device copy", "variant",
                         {{"grid", "grid", "blocks"},
                          {"block", "block", "threads"},
                          {"median", "median", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"bandwidth_gbps", "bandwidth", "GB/s", 0},
                          {"percent_of_copy", "of copy", "%", 1}});
  table.add_row("device-to-device copy")
      .samples(run.copy_samples, "ms")
      .set("bytes", copy_bytes(run.n))
      .set("bandwidth_gbps", copy_gbps(run))
      .set("percent_of_copy", 100.0);
  for (const VariantRun& v : run.variants) {
    table.add_row(v.name)
        .samples(v.samples, "ms")
        .set("grid", static_cast<long long>(v.grid))
        .set("block", v.block)
        .set("bytes", add_bytes(run.n))
        .set("bandwidth_gbps", lab::gigabytes_per_second(add_bytes(run.n), lab::median_or_nan(v.samples)))
        .set("percent_of_copy", percent_of_copy(run, v));
  }
  table.note(
      lab::format("%s floats per vector (a, b and c: %s, %.1f times this GPU's %s L2), %zu samples each; the copy "
                  "moves 2 x 4 x n bytes, the add 3 x 4 x n (a and b read, c written)",
                  lab::format_count(run.n).c_str(), lab::mib_text(add_bytes(run.n), 0).c_str(),
                  add_bytes(run.n) / run.l2_bytes, lab::mib_text(run.l2_bytes, 0).c_str(), run.copy_samples.size()));
  return table;
}

lab::ResultTable launch_return_table(const LaunchReturnTiming& t) {
  lab::ResultTable table("launch_return", "One long kernel: the launch call, the kernel, the wait", "what",
                         {{"ms", "time", "ms", 3}});
  table.add_row("the launch call returned after").set("ms", t.launch_call_ms);
  table.add_row("events around the launch (kernel + launch gap)").set("ms", t.kernel_ms);
  table.add_row("cudaStreamSynchronize returned after").set("ms", t.until_sync_ms);
  return table;
}

lab::ResultTable launch_error_table(const LaunchErrorDemo& demo, int max_threads_per_block) {
  lab::ResultTable table("launch_error", "A launch with too many threads per block", "what", {{"value", "", ""}});
  table.add_row("threads per block asked for").set("value", demo.threads_per_block);
  table.add_row("this GPU's limit").set("value", max_threads_per_block);
  table.add_row("cudaGetLastError() after the launch").set("value", demo.error_text);
  table.add_row("a valid launch afterwards").set("value", demo.later_launch_ok ? "ran and was correct" : "FAILED");
  return table;
}

}  // namespace ch01
