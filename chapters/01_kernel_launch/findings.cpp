#include "findings.hpp"

#include <cstdio>

namespace ch01 {

namespace {

std::string dims(const int (&d)[3]) {
  return std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]);
}

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

double gigabytes_per_second(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0.0; }

constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace

lab::ResultTable limits_table(const lab::DeviceInfo& d) {
  lab::ResultTable table("Per launch: compute capability 1.x beside this GPU", "limit",
                         {{"cc1", "compute capability 1.x", ""}, {"this_gpu", "this GPU", ""}});
  table.add_row("threads per block").set("cc1", "512").set("this_gpu", d.max_threads_per_block);
  table.add_row("block dimensions (x, y, z)").set("cc1", "512, 512, 64").set("this_gpu", dims(d.max_block_dim));
  table.add_row("grid dimensions (x, y, z)").set("cc1", "65535, 65535, 1").set("this_gpu", dims(d.max_grid_dim));
  table.add_row("shared memory per block [KiB]")
      .set("cc1", "16")
      .set("this_gpu", std::to_string(d.shared_per_block / 1024) + " (" +
                           std::to_string(d.shared_per_block_optin / 1024) + " opt-in)");
  table.add_row("multiprocessors").set("cc1", "up to 30").set("this_gpu", d.sm_count);
  return table;
}

double copy_bytes(std::int64_t n) { return 2.0 * sizeof(float) * static_cast<double>(n); }
double add_bytes(std::int64_t n) { return 3.0 * sizeof(float) * static_cast<double>(n); }

lab::ResultTable variants_table(const VariantsRun& run) {
  lab::ResultTable table("c = a + b, three ways, beside a device-to-device copy", "variant",
                         {{"grid", "grid", "blocks"},
                          {"block", "block", "threads"},
                          {"median", "median", "ms", 3},
                          {"min", "min", "ms", 3},
                          {"max", "max", "ms", 3},
                          {"bandwidth_gbps", "bandwidth", "GB/s", 0},
                          {"percent_of_copy", "of copy", "%", 1}});
  const double copy_median = lab::summarize(run.copy_samples).median;
  const double copy_gbps = gigabytes_per_second(copy_bytes(run.n), copy_median);
  table.add_row("device-to-device copy")
      .samples(run.copy_samples, "ms")
      .set("bytes", copy_bytes(run.n))
      .set("bandwidth_gbps", copy_gbps)
      .set("percent_of_copy", 100.0);
  for (const VariantRun& v : run.variants) {
    const double gbps = gigabytes_per_second(add_bytes(run.n), lab::summarize(v.samples).median);
    table.add_row(v.name)
        .samples(v.samples, "ms")
        .set("grid", static_cast<long long>(v.grid))
        .set("block", v.block)
        .set("bytes", add_bytes(run.n))
        .set("bandwidth_gbps", gbps)
        .set("percent_of_copy", copy_gbps > 0 ? 100.0 * gbps / copy_gbps : 0.0);
  }
  table.note(std::to_string(run.n) + " floats per vector, " + std::to_string(run.copy_samples.size()) +
             " samples each; the copy moves 2 x 4 x n bytes, the add 3 x 4 x n (a and b read, c written)");
  return table;
}

std::vector<lab::Finding> variants_findings(const VariantsRun& run) {
  std::vector<lab::Finding> findings;
  for (const VariantRun& v : run.variants) {
    findings.push_back(lab::correctness_check(v.name + " matches the CPU (exact)", v.first.passed(), v.first.detail()));
    findings.push_back(
        lab::correctness_check(v.name + " still correct after timing", v.after.passed(), v.after.detail()));
  }
  const lab::ResultTable table = variants_table(run);
  const lab::ResultTable::Row* best = nullptr;
  for (const auto& row : table.rows()) {
    if (row.name() == "device-to-device copy") continue;
    if (best == nullptr || row.get("percent_of_copy").number() > best->get("percent_of_copy").number()) best = &row;
  }
  if (best == nullptr) return findings;
  const double best_percent = best->get("percent_of_copy").number();
  findings.push_back(lab::observation(
      "best variant", best->name() + " came closest to the copy: " + format("%.1f %% of its bandwidth", best_percent)));
  const double working_set = add_bytes(run.n);
  if (working_set < run.l2_bytes) {
    findings.push_back(lab::observation(
        "working set", format("a, b and c (%.1f MiB) fit in the %.0f MiB L2: these are warm-cache figures, not DRAM "
                              "bandwidth; use --n 64Mi or more to measure memory",
                              working_set / kMiB, run.l2_bytes / kMiB)));
  } else if (working_set < 4.0 * run.l2_bytes) {
    findings.push_back(lab::observation(
        "working set", format("a, b and c (%.0f MiB) are %.1f times the %.0f MiB L2: part of each sample may still "
                              "come from the cache; use 4 times the L2 or more to measure memory",
                              working_set / kMiB, working_set / run.l2_bytes, run.l2_bytes / kMiB)));
  } else {
    findings.push_back(lab::observation(
        "working set", format("a, b and c (%.0f MiB) are %.1f times the %.0f MiB L2: the samples measure DRAM, "
                              "not the cache",
                              working_set / kMiB, working_set / run.l2_bytes, run.l2_bytes / kMiB)));
  }
  if (run.n == std::int64_t{64} << 20) {
    const std::string verdict = best_percent >= 90.0 ? "met" : "not met in this run";
    findings.push_back(lab::observation(
        "benchmark", "the page's benchmark (n = 64Mi: the best variant at 90 % of the copy or more) is " + verdict +
                         format(": %.1f %%", best_percent)));
  }
  return findings;
}

lab::ResultTable launch_return_table(const LaunchReturnTiming& t) {
  lab::ResultTable table("One long kernel: the launch call, the kernel, the wait", "what", {{"ms", "time", "ms", 3}});
  table.add_row("the launch call returned after").set("ms", t.launch_call_ms);
  table.add_row("the kernel ran on the GPU for (events)").set("ms", t.kernel_ms);
  table.add_row("cudaStreamSynchronize returned after").set("ms", t.until_sync_ms);
  return table;
}

std::vector<lab::Finding> launch_return_findings(const LaunchReturnTiming& t) {
  const bool early = t.launch_call_ms < t.kernel_ms / 10.0;
  const bool waited = t.until_sync_ms >= 0.9 * t.kernel_ms;
  return {lab::timing_check("the launch returns before the kernel ends (in under 1/10 of its time)", early,
                            format("the launch returned after %.1f us, the kernel ran %.3f ms (%.0f times longer)",
                                   1000.0 * t.launch_call_ms, t.kernel_ms,
                                   t.launch_call_ms > 0 ? t.kernel_ms / t.launch_call_ms : 0.0)),
          lab::timing_check("cudaStreamSynchronize waits for the kernel", waited,
                            format("it returned %.3f ms after the launch began, for a %.3f ms kernel",
                                   t.until_sync_ms, t.kernel_ms))};
}

lab::ResultTable launch_error_table(const LaunchErrorDemo& demo, int max_threads_per_block) {
  lab::ResultTable table("A launch with too many threads per block", "what", {{"value", "", ""}});
  table.add_row("threads per block asked for").set("value", demo.threads_per_block);
  table.add_row("this GPU's limit").set("value", max_threads_per_block);
  table.add_row("cudaGetLastError() after the launch").set("value", demo.error_text);
  table.add_row("a valid launch afterwards").set("value", demo.later_launch_ok ? "ran and was correct" : "FAILED");
  return table;
}

std::vector<lab::Finding> launch_error_findings(const LaunchErrorDemo& demo) {
  return {lab::correctness_check("the bad configuration is reported by cudaGetLastError()", demo.error_code != 0,
                                 demo.error_text),
          lab::correctness_check("the program carries on after the bad launch", demo.later_launch_ok,
                                 demo.later_launch_ok ? "a valid launch ran and was correct"
                                                      : "the valid launch after it failed or was wrong")};
}

}  // namespace ch01
