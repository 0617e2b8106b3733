#include "findings.hpp"

#include "command_line.hpp"
#include "options.hpp"
#include "vocabulary.hpp"

namespace ch01 {

namespace {

std::string dims(const int (&d)[3]) { return lab::format("%d, %d, %d", d[0], d[1], d[2]); }

// "grid-stride float4" -> "grid_stride_float4": a variant's part of a finding id.
std::string id_of(std::string name) {
  for (char& ch : name) {
    if (ch == ' ' || ch == '-') ch = '_';
  }
  return name;
}

double copy_gbps(const VariantsRun& run) {
  return lab::gigabytes_per_second(copy_bytes(run.n), lab::median_or_nan(run.copy_samples));
}

lab::Finding working_set_finding(const VariantsRun& run) {
  const double working_set = add_bytes(run.n);
  const double times_l2 = working_set / run.l2_bytes;
  const std::string l2 = lab::mib_text(run.l2_bytes, 0);
  const std::string sizes = lab::format("a, b and c (%s) are %.1f times the %s L2",
                                        lab::mib_text(working_set, 0).c_str(), times_l2, l2.c_str());
  lab::Finding f =
      working_set < run.l2_bytes
          ? lab::observation("working_set.in_l2", "working set",
                             lab::format("a, b and c (%s) fit in the %s L2: these are warm-cache figures, not DRAM "
                                         "bandwidth; use --n 64Mi or more to measure memory",
                                         lab::mib_text(working_set).c_str(), l2.c_str()))
      : working_set < 4.0 * run.l2_bytes
          ? lab::observation("working_set.partly_l2", "working set",
                             sizes +
                                 ": part of each sample may still come from the cache; use 4 times the L2 or "
                                 "more to measure memory")
          : lab::observation("working_set.dram", "working set", sizes + ": the samples measure DRAM, not the cache");
  return f.with("working_set_mib", working_set / lab::kMiB)
      .with("l2_mib", run.l2_bytes / lab::kMiB)
      .with("times_l2", times_l2);
}

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
  table.add_row("multiprocessors").set("cc1", "up to 30").set("this_gpu", d.sm_count);
  return table;
}

double copy_bytes(std::int64_t n) { return 2.0 * sizeof(float) * static_cast<double>(n); }
double add_bytes(std::int64_t n) { return 3.0 * sizeof(float) * static_cast<double>(n); }

double percent_of_copy(const VariantsRun& run, const VariantRun& v) {
  return lab::percent_of(lab::gigabytes_per_second(add_bytes(run.n), lab::median_or_nan(v.samples)), copy_gbps(run));
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
  table.note(lab::format_count(run.n) + " floats per vector, " + std::to_string(run.copy_samples.size()) +
             " samples each; the copy moves 2 x 4 x n bytes, the add 3 x 4 x n (a and b read, c written)");
  return table;
}

std::vector<lab::Finding> variants_findings(const VariantsRun& run) {
  std::vector<lab::Finding> findings;
  const VariantRun* best = nullptr;
  for (const VariantRun& v : run.variants) {
    findings.push_back(lab::correctness_check("first_run_correct." + id_of(v.name), v.name + " matches the CPU (exact)",
                                              v.first.passed(), v.first.detail()));
    findings.push_back(lab::correctness_check("correct_after_timing." + id_of(v.name),
                                              v.name + " still correct after timing", v.after.passed(),
                                              v.after.detail()));
    if (best == nullptr || percent_of_copy(run, v) > percent_of_copy(run, *best)) best = &v;
  }
  if (best == nullptr) return findings;
  const double best_percent = percent_of_copy(run, *best);
  findings.push_back(
      lab::observation("best_variant", "best variant",
                       best->name + lab::format(" came closest to the copy: %.1f %% of its bandwidth", best_percent))
          .with("best_percent", best_percent));
  findings.push_back(working_set_finding(run));
  if (run.n == kDefaultN) {  // the page's benchmark is stated for the default size
    const bool met = best_percent >= 90.0;
    findings.push_back(lab::observation(met ? "benchmark.met" : "benchmark.not_met", "benchmark",
                                        lab::format("the page's benchmark (n = %s: the best variant at 90 %% of the "
                                                    "copy or more) is %s: %.1f %%",
                                                    lab::format_count(kDefaultN).c_str(),
                                                    met ? "met" : "not met in this run", best_percent))
                           .with("best_percent", best_percent));
  }
  return findings;
}

lab::ResultTable launch_return_table(const LaunchReturnTiming& t) {
  lab::ResultTable table("launch_return", "One long kernel: the launch call, the kernel, the wait", "what",
                         {{"ms", "time", "ms", 3}});
  table.add_row("the launch call returned after").set("ms", t.launch_call_ms);
  table.add_row("events around the launch (kernel + launch gap)").set("ms", t.kernel_ms);
  table.add_row("cudaStreamSynchronize returned after").set("ms", t.until_sync_ms);
  return table;
}

std::vector<lab::Finding> launch_return_findings(const LaunchReturnTiming& t) {
  const double times_longer = t.launch_call_ms > 0 ? t.kernel_ms / t.launch_call_ms : 0.0;
  return {
      lab::timing_check("launch_returns_early", "the launch returns before the kernel ends (in under 1/10 of its time)",
                        t.launch_call_ms < t.kernel_ms / 10.0,
                        lab::format("the launch returned after %.1f us, the events around the kernel read %.3f ms "
                                    "(%.0f times longer)",
                                    1000.0 * t.launch_call_ms, t.kernel_ms, times_longer))
          .with("launch_call_us", 1000.0 * t.launch_call_ms)
          .with("kernel_ms", t.kernel_ms),
      lab::timing_check(
          "sync_waits", "cudaStreamSynchronize waits for the kernel", t.until_sync_ms >= 0.9 * t.kernel_ms,
          lab::format("it returned %.3f ms after the launch began, for a %.3f ms kernel", t.until_sync_ms, t.kernel_ms))
          .with("until_sync_ms", t.until_sync_ms)
          .with("kernel_ms", t.kernel_ms)};
}

lab::ResultTable launch_error_table(const LaunchErrorDemo& demo, int max_threads_per_block) {
  lab::ResultTable table("launch_error", "A launch with too many threads per block", "what", {{"value", "", ""}});
  table.add_row("threads per block asked for").set("value", demo.threads_per_block);
  table.add_row("this GPU's limit").set("value", max_threads_per_block);
  table.add_row("cudaGetLastError() after the launch").set("value", demo.error_text);
  table.add_row("a valid launch afterwards").set("value", demo.later_launch_ok ? "ran and was correct" : "FAILED");
  return table;
}

std::vector<lab::Finding> launch_error_findings(const LaunchErrorDemo& demo) {
  return {lab::correctness_check("error_reported", "the bad configuration is reported by cudaGetLastError()",
                                 demo.error_code != 0, demo.error_text)
              .with("error_code", demo.error_code),
          lab::correctness_check("carries_on", "the program carries on after the bad launch", demo.later_launch_ok,
                                 demo.later_launch_ok ? "a valid launch ran and was correct"
                                                      : "the valid launch after it failed or was wrong")};
}

std::vector<lab::Background> launch_error_background() {
  return {
      {"a launch returns no error code: a configuration error is handed out by the next cudaGetLastError(), which "
       "also resets it to cudaSuccess",
       "CUDA C++ Programming Guide, Error Checking; CUDA Runtime API, cudaGetLastError"}};
}

}  // namespace ch01
