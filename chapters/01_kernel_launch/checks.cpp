#include "checks.hpp"

#include "command_line.hpp"
#include "options.hpp"
#include "vocabulary.hpp"

namespace ch01 {

namespace {

// "grid-stride float4" -> "grid_stride_float4": a variant's part of a finding id.
std::string id_of(std::string name) {
  for (char& ch : name) {
    if (ch == ' ' || ch == '-') ch = '_';
  }
  return name;
}

}  // namespace

double copy_bytes(std::int64_t n) { return 2.0 * sizeof(float) * static_cast<double>(n); }
double add_bytes(std::int64_t n) { return 3.0 * sizeof(float) * static_cast<double>(n); }

double copy_gbps(const VariantsRun& run) {
  return lab::gigabytes_per_second(copy_bytes(run.n), lab::median_or_nan(run.copy_samples));
}

double percent_of_copy(const VariantsRun& run, const VariantRun& v) {
  return lab::percent_of(lab::gigabytes_per_second(add_bytes(run.n), lab::median_or_nan(v.samples)), copy_gbps(run));
}

std::vector<lab::Finding> variants_checks(const VariantsRun& run) {
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
  if (best == nullptr || run.n != kDefaultN) return findings;  // the page's target is stated for the default n
  const double best_percent = percent_of_copy(run, *best);
  const bool met = best_percent >= 90.0;
  findings.push_back(
      lab::observation(met ? "benchmark.met" : "benchmark.not_met", "benchmark",
                       lab::format("the page's benchmark (n = %s: the best variant at 90 %% of the "
                                   "copy or more) is %s: %s, %.1f %%",
                                   lab::format_count(kDefaultN).c_str(), met ? "met" : "not met in this run",
                                   best->name.c_str(), best_percent))
          .with("best_percent", best_percent)
          .with("best_variant", best->name));
  return findings;
}

std::vector<lab::Finding> launch_return_checks(const LaunchReturnTiming& t) {
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

std::vector<lab::Finding> launch_error_checks(const LaunchErrorDemo& demo) {
  return {lab::correctness_check("error_reported", "the bad configuration is reported by cudaGetLastError()",
                                 demo.error_code != 0, demo.error_text)
              .with("error_code", demo.error_code),
          lab::correctness_check("carries_on", "the program carries on after the bad launch", demo.later_launch_ok,
                                 demo.later_launch_ok ? "a valid launch ran and was correct"
                                                      : "the valid launch after it failed or was wrong")};
}

}  // namespace ch01
