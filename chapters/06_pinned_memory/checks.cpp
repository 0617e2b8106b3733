#include "checks.hpp"

#include <algorithm>

#include "tables.hpp"
#include "vocabulary.hpp"

namespace ch06 {

std::string CopyCheck::detail() const {
  if (intact) return std::to_string(bytes) + " bytes intact";
  return lab::format("byte %zu differs (of %zu)", first_difference, bytes);
}

// " what: detail;" when @p c did not arrive intact, "" when it did: one entry of a check's list of wrong copies.
static std::string wrong_at(const std::string& what, const CopyCheck& c) {
  return c.intact ? "" : " " + what + ": " + c.detail() + ";";
}

// --- 1. Copy bandwidth over sizes ----------------------------------------------

// The row of the experiment's size, or the largest when it is missing.
const SizeSamples& at_experiment_size(const SweepRun& run) {
  for (const SizeSamples& s : run.sizes) {
    if (s.bytes == run.experiment_bytes) return s;
  }
  return run.sizes.back();
}

// GB/s of one series of copies of @p s's size (median of its samples).
double series_gbps(const SizeSamples& s, const std::vector<double>& ms) {
  return lab::gigabytes_per_second(static_cast<double>(s.bytes), lab::median_or_nan(ms));
}

// Total GB/s of both directions at once: twice the bytes, until the later stop.
double both_total_gbps(const SizeSamples& s) {
  const double later = std::max(lab::median_or_nan(s.both_h2d_ms), lab::median_or_nan(s.both_d2h_ms));
  return lab::gigabytes_per_second(2.0 * static_cast<double>(s.bytes), later);
}

static lab::Finding sweep_intact(const SweepRun& run) {
  std::string wrong;
  for (const SizeSamples& s : run.sizes)
    wrong += wrong_at(size_text(s.bytes) + " pageable", s.pageable_check) +
             wrong_at(size_text(s.bytes) + " pinned", s.pinned_check);
  return lab::correctness_check(
      "sweep_intact", "every copy of the sweep arrived intact (pageable and pinned, both ways)",
      wrong.empty() && !run.sizes.empty(),
      wrong.empty() ? lab::format("%zu sizes, random bytes, poisoned destinations", run.sizes.size())
                    : "wrong at" + wrong);
}

static lab::Finding pinned_faster(const SweepRun& run) {
  const SizeSamples& at = at_experiment_size(run);
  const double h2d = lab::median_or_nan(at.pageable_h2d_ms) / lab::median_or_nan(at.pinned_h2d_ms);
  const double d2h = lab::median_or_nan(at.pageable_d2h_ms) / lab::median_or_nan(at.pinned_d2h_ms);
  const std::string name = "pinned copies are faster than pageable ones at --mib, both ways";
  const std::string text = lab::format("at %s pinned moved %.1fx the bytes per second of pageable H2D, %.1fx D2H",
                                       size_text(at.bytes).c_str(), h2d, d2h);
  // Where pageable memory access uses the host's page tables, pinning may not happen (Driver API, cuMemHostAlloc).
  lab::Finding f =
      run.pageable_uses_host_page_tables
          ? lab::named_observation("pinned_faster.host_page_tables",
                                   name + " (observed: pageable memory access uses host page tables)", text)
          : lab::timing_check("pinned_faster", name, h2d > 1 && d2h > 1, text);
  return f.with("h2d_ratio", h2d).with("d2h_ratio", d2h);
}

static lab::Finding benchmark(const SweepRun& run) {
  const SizeSamples& at = at_experiment_size(run);
  const double here = series_gbps(at, at.pinned_h2d_ms);
  const std::string branch = run.link_gbps <= 0 ? "link_unknown" : here > run.link_gbps ? "above_link" : "link_known";
  const std::string moved = lab::format("pinned H2D at %s moved %.1f GB/s", size_text(at.bytes).c_str(), here);
  lab::Finding f = lab::named_observation(
      "benchmark." + branch, "benchmark",
      run.link_gbps <= 0
          ? moved + "; NVML did not report the PCIe link"
          : moved + lab::format(", %.1f %% of the data rate per direction of PCIe Gen%d x%d after line encoding, "
                                "%.1f GB/s (NVML's maximum link; in use now: Gen%d x%d)",
                                lab::percent_of(here, run.link_gbps), run.pcie_generation, run.pcie_width,
                                run.link_gbps, run.pcie_generation_now, run.pcie_width_now));
  return f.with("gbps", here).with("link_gbps", run.link_gbps);
}

static lab::Finding both_directions(const SweepRun& run) {
  const SizeSamples& s = at_experiment_size(run);
  const double alone = std::max(series_gbps(s, s.pinned_h2d_ms), series_gbps(s, s.pinned_d2h_ms));
  const double total = both_total_gbps(s);
  const double h2d = lab::percent_above(series_gbps(s, s.both_h2d_ms), series_gbps(s, s.pinned_h2d_ms));
  const double d2h = lab::percent_above(series_gbps(s, s.both_d2h_ms), series_gbps(s, s.pinned_d2h_ms));
  const std::string measured = lab::format(
      "%.1f GB/s in total at %s against %.1f GB/s for the faster direction alone (asked: 1.2x); with the "
      "other direction running, H2D's rate changed %s and D2H's %s",
      total, size_text(s.bytes).c_str(), alone, lab::signed_percent(h2d, 1).c_str(),
      lab::signed_percent(d2h, 1).c_str());
  const char* name = "both directions at once move more than one direction alone";
  // Two directions at once need two copy engines (asyncEngineCount 2 or more); with one it is only observed.
  lab::Finding f =
      run.copy_engines == 1
          ? lab::named_observation("both_directions.one_copy_engine",
                                   std::string(name) + " (observed: this device has one copy engine)", measured)
          : lab::timing_check("both_directions", name, total > 1.2 * alone, measured);
  f.with("total_gbps", total).with("faster_alone_gbps", alone);
  return f.with("h2d_change_percent", h2d).with("d2h_change_percent", d2h);
}

std::vector<lab::Finding> sweep_checks(const SweepRun& run) {
  if (run.sizes.empty()) return {sweep_intact(run)};
  return {sweep_intact(run), pinned_faster(run), benchmark(run), both_directions(run)};
}

// --- 2. The four combinations --------------------------------------------------

double returned_share(const CallTiming& c) { return lab::median_or_nan(c.returned_ms) / lab::median_or_nan(c.done_ms); }

bool returned_after_half(const CallTiming& c) { return returned_share(c) > kReturnedLateShare; }

static lab::Finding calls_intact(const CallsRun& run) {
  std::string wrong;
  for (const CallTiming& c : run.calls) wrong += wrong_at(call_name(c), c.check);
  return lab::correctness_check("calls_intact", "the four copy calls delivered the data",
                                wrong.empty() && !run.calls.empty(),
                                wrong.empty() ? "each read back and compared" : "wrong:" + wrong);
}

static lab::Finding pinned_async_returns(const CallTiming& c) {
  const double returned = lab::median_or_nan(c.returned_ms), done = lab::median_or_nan(c.done_ms);
  lab::Finding f = lab::timing_check(
      "pinned_async_returns", "cudaMemcpyAsync from pinned memory returned before a tenth of its copy",
      returned_share(c) < 0.1,
      lab::format("it returned after %.3f ms of a %.3f ms copy (%.1f %%)", returned, done, 100 * returned_share(c)));
  return f.with("returned_ms", returned).with("done_ms", done);
}

std::vector<lab::Finding> calls_checks(const CallsRun& run) {
  std::vector<lab::Finding> findings = {calls_intact(run)};
  for (const CallTiming& c : run.calls) {
    if (c.async_call && c.memory == HostKind::pinned) findings.push_back(pinned_async_returns(c));
  }
  return findings;
}

// --- 3. Registering memory the program already has ------------------------------

std::vector<lab::Finding> registration_checks(const std::vector<RegistrationRun>& runs, const UploadRun& upload) {
  std::string wrong;
  for (const RegistrationRun& r : runs)
    wrong += wrong_at(size_text(r.bytes) + " contents", r.contents) + wrong_at(size_text(r.bytes) + " copy", r.copied);
  return {lab::correctness_check("registration_intact",
                                 "registration kept every buffer's contents and its copies arrived",
                                 wrong.empty() && upload.correct,
                                 (wrong.empty() ? lab::format("%zu sizes intact", runs.size()) : "wrong:" + wrong) +
                                     "; uploads: " + upload.detail)};
}

// --- 4. The CPU time a non-blocking copy frees ---------------------------------

static lab::Finding cpu_freed_intact(const CpuFreedRun& run) {
  const bool intact = run.overlapped.check.intact && run.pageable.check.intact && run.early_sync.check.intact;
  return lab::correctness_check("cpu_freed_intact", "the copies beside the CPU work arrived", intact,
                                intact ? "each read back and compared"
                                       : "overlapped: " + run.overlapped.check.detail() +
                                             "; pageable: " + run.pageable.check.detail() +
                                             "; early sync: " + run.early_sync.check.detail());
}

static lab::Finding overlap(const CpuFreedRun& run) {
  const double copy = lab::median_or_nan(run.copy_ms), cpu = lab::median_or_nan(run.cpu_ms);
  const double sum = copy + cpu, possible = std::min(copy, cpu);  // serial; what a perfect overlap saves
  const double overlapped = lab::median_or_nan(run.overlapped.wall_ms);
  const double saved_percent = lab::percent_of(sum - overlapped, possible);
  lab::Finding f = lab::timing_check(
      "overlap", "pinned + cudaMemcpyAsync let the CPU work run during the copy",
      saved_percent >= 100 * kOverlapSavedShare,
      lab::format("%.3f ms against %.3f ms for copy and CPU work one after the other: it saved %.3f ms, %.0f %% of "
                  "the %.3f ms a perfect overlap saves (the shorter of the copy, %.3f ms, and the CPU work, %.3f ms; "
                  "asked: at least %.0f %%)",
                  overlapped, sum, sum - overlapped, saved_percent, possible, copy, cpu, 100 * kOverlapSavedShare));
  f.with("overlapped_ms", overlapped).with("sum_ms", sum);
  return f.with("possible_saving_ms", possible).with("saved_percent", saved_percent);
}

std::vector<lab::Finding> cpu_freed_checks(const CpuFreedRun& run) { return {cpu_freed_intact(run), overlap(run)}; }

// --- 5. Write-combined and mapped memory ----------------------------------------

std::vector<lab::Finding> write_combined_checks(const WriteCombinedRun& run) {
  return {lab::correctness_check("write_combined_intact", "random bytes round-trip through write-combined memory",
                                 run.round_trip.intact, run.round_trip.detail())};
}

std::string faster_text(const ZeroCopyPasses& z) {
  const double copy_first = lab::median_or_nan(z.copy_then_kernel_ms), zero = lab::median_or_nan(z.zero_copy_ms);
  if (zero < (1 - kSameShare) * copy_first) return lab::format("zero-copy, %.2fx", copy_first / zero);
  if (copy_first < (1 - kSameShare) * zero) return lab::format("copy first, %.2fx", zero / copy_first);
  return lab::format("the same (within %.0f %%)", 100 * kSameShare);
}

// The Runtime API (Unified Addressing) promises cudaHostAlloc memory the same pointer on a device with unified
// addressing, mapped or not; without unified addressing there is nothing to check.
std::vector<lab::Finding> zero_copy_checks(const MappedRun& run) {
  bool correct = !run.passes.empty();
  std::string detail;
  for (const ZeroCopyPasses& z : run.passes) {
    correct = correct && z.correct;
    detail += lab::format("%s%d pass(es): ", detail.empty() ? "" : "; ", z.passes) + z.detail;
  }
  const lab::Finding exact =
      lab::correctness_check("zero_copy_exact", "zero-copy and copy-then-kernel results are exact", correct, detail);
  const std::string name = "a cudaHostAlloc buffer made without cudaHostAllocMapped has its host pointer on the device";
  if (!run.unified_addressing)
    return {exact, lab::skipped("unified_addressing", name, "this device reports cudaDevAttrUnifiedAddressing = 0")};
  return {exact, lab::correctness_check(
                     "unified_addressing", name, run.plain_pinned_device_pointer_same,
                     std::string("cudaDevAttrUnifiedAddressing = 1; cudaPointerGetAttributes gave a device pointer ") +
                         (run.plain_pinned_device_pointer_same ? "equal to" : "different from") + " the host pointer")};
}

}  // namespace ch06
