#include "findings.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "vocabulary.hpp"

namespace ch06 {

const char* host_kind_name(HostKind kind) {
  const char* names[] = {"pageable", "pinned", "write-combined", "mapped"};  // in HostKind's order
  return names[static_cast<int>(kind)];
}

std::string size_text(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + units[unit];
}

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
static const SizeSamples& at_experiment_size(const SweepRun& run) {
  for (const SizeSamples& s : run.sizes) {
    if (s.bytes == run.experiment_bytes) return s;
  }
  return run.sizes.back();
}

// GB/s of one series of copies of @p s's size (median of its samples).
static double series_gbps(const SizeSamples& s, const std::vector<double>& ms) {
  return lab::gigabytes_per_second(static_cast<double>(s.bytes), lab::median_or_nan(ms));
}

// Total GB/s of both directions at once: twice the bytes, until the later stop.
static double both_total_gbps(const SizeSamples& s) {
  const double later = std::max(lab::median_or_nan(s.both_h2d_ms), lab::median_or_nan(s.both_d2h_ms));
  return lab::gigabytes_per_second(2.0 * static_cast<double>(s.bytes), later);
}

static std::string pinned_sampling(const SweepRun& run) {
  return run.blocked ? "behind a blocked stream" : "isolated (" + run.why_not_blocked + ")";
}

lab::ResultTable sweep_table(const SweepRun& run) {
  lab::ResultTable table("sweep", "Copy bandwidth by size, GB/s (10^9 bytes/s), medians", "size",
                         {{"pageable_h2d_gbps", "H2D pageable", "GB/s", 1},
                          {"pinned_h2d_gbps", "H2D pinned", "GB/s", 1},
                          {"pinned_h2d_isolated_gbps", "H2D pinned, isolated", "GB/s", 1},
                          {"pageable_d2h_gbps", "D2H pageable", "GB/s", 1},
                          {"pinned_d2h_gbps", "D2H pinned", "GB/s", 1},
                          {"pinned_d2h_isolated_gbps", "D2H pinned, isolated", "GB/s", 1},
                          {"data", "data", "", 0}});
  for (const SizeSamples& s : run.sizes) {
    lab::ResultTable::Row& row = table.add_row(size_text(s.bytes)).set("bytes", s.bytes);
    const std::pair<std::string, const std::vector<double>*> series[] = {
        {"pageable_h2d", &s.pageable_h2d_ms},
        {"pinned_h2d", &s.pinned_h2d_ms},
        {"pinned_h2d_isolated", &s.pinned_h2d_isolated_ms},
        {"pageable_d2h", &s.pageable_d2h_ms},
        {"pinned_d2h", &s.pinned_d2h_ms},
        {"pinned_d2h_isolated", &s.pinned_d2h_isolated_ms}};
    for (const auto& [key, ms] : series) row.set(key + "_gbps", series_gbps(s, *ms)).set(key + "_ms", *ms);
    row.set("data", s.pageable_check.intact && s.pinned_check.intact ? "intact" : "WRONG");
  }
  table.note(
      lab::format("%zu samples each, one cudaMemcpyAsync between two events; 'pinned': %s; 'isolated' and "
                  "pageable: the host waits after every copy",
                  run.sizes.empty() ? 0 : run.sizes.front().pinned_h2d_ms.size(), pinned_sampling(run).c_str()));
  return table;
}

lab::ResultTable both_directions_table(const SweepRun& run) {
  lab::ResultTable table("both_directions", "Both directions at once, pinned, " + pinned_sampling(run) + ", GB/s",
                         "size",
                         {{"h2d_alone_gbps", "H2D alone", "GB/s", 1},
                          {"d2h_alone_gbps", "D2H alone", "GB/s", 1},
                          {"h2d_together_gbps", "H2D with D2H", "GB/s", 1},
                          {"d2h_together_gbps", "D2H with H2D", "GB/s", 1},
                          {"total_gbps", "total", "GB/s", 1},
                          {"total_vs_faster_alone", "total / faster alone", "x", 2}});
  for (const SizeSamples& s : run.sizes) {
    const double faster_alone = std::max(series_gbps(s, s.pinned_h2d_ms), series_gbps(s, s.pinned_d2h_ms));
    table.add_row(size_text(s.bytes))
        .set("bytes", s.bytes)
        .set("h2d_alone_gbps", series_gbps(s, s.pinned_h2d_ms))
        .set("d2h_alone_gbps", series_gbps(s, s.pinned_d2h_ms))
        .set("h2d_together_gbps", series_gbps(s, s.both_h2d_ms))
        .set("d2h_together_gbps", series_gbps(s, s.both_d2h_ms))
        .set("total_gbps", both_total_gbps(s))
        .set("total_vs_faster_alone", faster_alone > 0 ? both_total_gbps(s) / faster_alone : 0.0)
        .set("both_h2d_ms", s.both_h2d_ms)
        .set("both_d2h_ms", s.both_d2h_ms);
  }
  table.note(
      "H2D on the chapter's stream, D2H on a stream forked from it, one start event, a stop event after each "
      "copy; 'with': a direction's bytes over the time to its own stop; total: both directions' bytes to the later "
      "stop");
  return table;
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

std::vector<lab::Finding> sweep_findings(const SweepRun& run) {
  if (run.sizes.empty()) return {sweep_intact(run)};
  return {sweep_intact(run), pinned_faster(run), benchmark(run), both_directions(run)};
}

// --- 2. The four combinations --------------------------------------------------

static double returned_share(const CallTiming& c) {
  return lab::median_or_nan(c.returned_ms) / lab::median_or_nan(c.done_ms);
}
static bool waited(const CallTiming& c) { return returned_share(c) > kWaitedShare; }
static std::string label(const CallTiming& c) {
  return std::string(host_kind_name(c.memory)) + (c.async_call ? " cudaMemcpyAsync" : " cudaMemcpy");
}

lab::ResultTable calls_table(const CallsRun& run) {
  lab::ResultTable table(
      "calls",
      "One H2D copy of " + size_text(run.bytes) + ", four ways: when the call returned, and when the copy was done",
      "memory and call",
      {{"returned_ms", "returned", "ms", 3},
       {"done_ms", "done", "ms", 3},
       {"returned_percent", "returned / done", "%", 1},
       {"host", "the host", "", 0},
       {"data", "data", "", 0}});
  for (const CallTiming& c : run.calls) {
    table.add_row(label(c))
        .set("returned_ms", lab::median_or_nan(c.returned_ms))
        .set("done_ms", lab::median_or_nan(c.done_ms))
        .set("returned_percent", 100 * returned_share(c))
        .set("host", waited(c) ? "waited for the copy" : "went on at once")
        .set("returned_samples_ms", c.returned_ms)
        .set("done_samples_ms", c.done_ms)
        .set("data", c.check.intact ? "intact" : "WRONG");
  }
  table.note(
      lab::format("medians of %zu copies, each from an idle GPU; a host timer read when the call returned and "
                  "when cudaDeviceSynchronize returned after it; 'waited': after more than half the copy's time",
                  run.calls.empty() ? 0 : run.calls.front().returned_ms.size()));
  return table;
}

static lab::Finding calls_intact(const CallsRun& run) {
  std::string wrong;
  for (const CallTiming& c : run.calls) wrong += wrong_at(label(c), c.check);
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

std::vector<lab::Finding> calls_findings(const CallsRun& run) {
  std::vector<lab::Finding> findings = {calls_intact(run)};
  for (const CallTiming& c : run.calls) {
    if (c.async_call && c.memory == HostKind::pinned) findings.push_back(pinned_async_returns(c));
  }
  return findings;
}

// --- 3. Registering memory the program already has ------------------------------

lab::ResultTable registration_table(const std::vector<RegistrationRun>& runs) {
  lab::ResultTable table("registration",
                         "Page-locking memory the program already has (cudaHostRegister / cudaHostUnregister), medians",
                         "size",
                         {{"register_ms", "register", "ms", 3},
                          {"unregister_ms", "unregister", "ms", 3},
                          {"pageable_copy_ms", "copy pageable", "ms", 3},
                          {"registered_copy_ms", "copy registered", "ms", 3},
                          {"saved_ms", "saved per copy", "ms", 3},
                          {"copies_to_break_even", "pays off after", "copies", 0},
                          {"data", "contents", "", 0}});
  for (const RegistrationRun& r : runs) {
    const RegistrationCosts costs = {lab::median_or_nan(r.register_ms) + lab::median_or_nan(r.unregister_ms),
                                     lab::median_or_nan(r.pageable_copy_ms), lab::median_or_nan(r.registered_copy_ms)};
    const int copies = copies_to_break_even(costs);
    table.add_row(size_text(r.bytes))
        .set("bytes", r.bytes)
        .set("register_ms", lab::median_or_nan(r.register_ms))
        .set("unregister_ms", lab::median_or_nan(r.unregister_ms))
        .set("pageable_copy_ms", costs.pageable_copy_ms)
        .set("registered_copy_ms", costs.pinned_copy_ms)
        .set("saved_ms", costs.pageable_copy_ms - costs.pinned_copy_ms)
        .set("copies_to_break_even", copies == 0 ? lab::Value("never") : lab::Value(copies))
        .set("register_samples_ms", r.register_ms)
        .set("unregister_samples_ms", r.unregister_ms)
        .set("data", r.contents.intact && r.copied.intact ? "intact" : "WRONG");
  }
  table.note(
      lab::format("%zu rounds of register, copy, unregister on the same buffer; copies timed with events, "
                  "isolated; 'pays off after': the fewest copies n with register + unregister + n x registered "
                  "< n x pageable ('never': a registered copy was not faster)",
                  runs.empty() ? 0 : runs.front().register_ms.size()));
  return table;
}

static UploadPhases median_phases(const std::vector<UploadPhases>& rounds) {
  auto median = [&](double UploadPhases::* phase) {
    std::vector<double> samples;
    for (const UploadPhases& p : rounds) samples.push_back(p.*phase);
    return lab::median_or_nan(samples);
  };
  return {0.0, median(&UploadPhases::register_ms), median(&UploadPhases::call_ms), median(&UploadPhases::wait_ms),
          median(&UploadPhases::unregister_ms)};
}

static void set_phases(lab::ResultTable::Row& row, const UploadPhases& p) {
  row.set("register_ms", p.register_ms)
      .set("call_ms", p.call_ms)
      .set("wait_ms", p.wait_ms)
      .set("unregister_ms", p.unregister_ms)
      .set("returned_ms", p.register_ms + p.call_ms)
      .set("total_ms", p.register_ms + p.call_ms + p.wait_ms + p.unregister_ms);
}

lab::ResultTable upload_table(const UploadRun& run) {
  lab::ResultTable table(
      "upload", "Where an upload through registered memory spends its time, " + size_text(run.bytes) + " of floats",
      "upload",
      {{"first_touch_ms", "make the vector", "ms", 3},
       {"register_ms", "cudaHostRegister", "ms", 3},
       {"call_ms", "cudaMemcpyAsync", "ms", 3},
       {"wait_ms", "wait for the copy", "ms", 3},
       {"unregister_ms", "cudaHostUnregister", "ms", 3},
       {"returned_ms", "returned", "ms", 3},
       {"total_ms", "done, unlocked", "ms", 3}});
  lab::ResultTable::Row& fresh = table.add_row("fresh vector, the calls one by one");
  set_phases(fresh.set("first_touch_ms", run.fresh.first_touch_ms), run.fresh);
  lab::ResultTable::Row& again = table.add_row("the same vector again (median)");
  set_phases(again.set("rounds", run.repeated.size()), median_phases(run.repeated));
  table.add_row("ch06::upload_registered, another fresh vector")
      .set("first_touch_ms", run.lesson_first_touch_ms)
      .set("returned_ms", run.lesson_returned_ms)
      .set("total_ms", run.lesson_done_ms);
  table.note(
      "each phase timed on its own with a host timer; 'make the vector': std::vector<float>(n), which allocates "
      "and zeroes it (the first touch of every page), not part of the upload; 'returned': cudaHostRegister + "
      "cudaMemcpyAsync, what upload_registered costs its caller; 'done, unlocked': every phase after that");
  return table;
}

std::vector<lab::Finding> registration_findings(const std::vector<RegistrationRun>& runs, const UploadRun& upload) {
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

lab::ResultTable cpu_freed_table(const CpuFreedRun& run) {
  const double cpu = lab::median_or_nan(run.cpu_ms), sum = lab::median_or_nan(run.copy_ms) + cpu;
  lab::ResultTable table("cpu_freed",
                         "A " + size_text(run.bytes) + " H2D copy and CPU work calibrated to it, three orders", "order",
                         {{"median", "wall", "ms", 3},
                          {"vs_sum_percent", "vs the sum", "%", 0},
                          {"vs_own_serial_percent", "vs its own serial time", "%", 0},
                          {"data", "data", "", 0}});
  table.add_row("the pinned copy alone (events)").samples(run.copy_ms, "ms");
  table.add_row("the pageable copy alone (events)").samples(run.pageable_copy_ms, "ms");
  table.add_row("the CPU work alone").samples(run.cpu_ms, "ms");
  for (const PlacementRun* p : {&run.overlapped, &run.pageable, &run.early_sync}) {
    const double own = p == &run.pageable ? lab::median_or_nan(run.pageable_copy_ms) + cpu : sum;
    table.add_row(p->name)
        .samples(p->wall_ms, "ms")
        .set("vs_sum_percent", lab::percent_of(lab::median_or_nan(p->wall_ms), sum))
        .set("vs_own_serial_percent", lab::percent_of(lab::median_or_nan(p->wall_ms), own))
        .set("data", p->check.intact ? "intact" : "WRONG");
  }
  table.note(
      lab::format("wall: from the copy call until both were done, median of %zu; 'vs the sum': against the "
                  "pinned copy and the CPU work one after the other; 'vs its own serial time': with the row's own copy",
                  run.overlapped.wall_ms.size()));
  return table;
}

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

std::vector<lab::Finding> cpu_freed_findings(const CpuFreedRun& run) { return {cpu_freed_intact(run), overlap(run)}; }

// --- 5. Write-combined and mapped memory ----------------------------------------

lab::ResultTable write_combined_table(const WriteCombinedRun& run) {
  lab::ResultTable table("write_combined", "Ordinary and write-combined pinned memory, " + size_text(run.bytes),
                         "memory",
                         {{"h2d_gbps", "H2D copy", "GB/s", 1},
                          {"cpu_write_gbps", "CPU writes", "GB/s", 1},
                          {"cpu_read_gbps", "CPU reads", "GB/s", 1}});
  using Kind = std::tuple<const char*, const std::vector<double>*, double, double>;  // name, H2D ms, write, read
  for (const auto& [name, h2d_ms, write, read] :
       {Kind{"pinned", &run.pinned_h2d_ms, run.pinned_write_gbps, run.pinned_read_gbps},
        Kind{"write-combined", &run.wc_h2d_ms, run.wc_write_gbps, run.wc_read_gbps}}) {
    table.add_row(name)
        .set("h2d_gbps", lab::gigabytes_per_second(static_cast<double>(run.bytes), lab::median_or_nan(*h2d_ms)))
        .set("h2d_ms", *h2d_ms)
        .set("cpu_write_gbps", write)
        .set("cpu_read_gbps", read);
  }
  table.note(
      "H2D: median of events behind a blocked stream; CPU: one thread summing (reads) or filling (writes) the "
      "buffer as 64-bit words, median of 3");
  return table;
}

std::vector<lab::Finding> write_combined_findings(const WriteCombinedRun& run) {
  return {lab::correctness_check("write_combined_intact", "random bytes round-trip through write-combined memory",
                                 run.round_trip.intact, run.round_trip.detail())};
}

lab::ResultTable zero_copy_table(const MappedRun& run) {
  lab::ResultTable table("zero_copy",
                         "A kernel out[i] = passes x in[i] over " + size_text(run.bytes) +
                             ": its input copied first, or read from mapped memory",
                         "input read",
                         {{"copy_then_kernel_ms", "copy, then kernel", "ms", 3},
                          {"zero_copy_ms", "kernel reads host memory", "ms", 3},
                          {"faster", "faster", "", 0},
                          {"data", "data", "", 0}});
  for (const ZeroCopyPasses& z : run.passes) {
    const double copy_first = lab::median_or_nan(z.copy_then_kernel_ms), zero = lab::median_or_nan(z.zero_copy_ms);
    // Which was faster, or the same within kSameShare.
    const bool zero_faster = zero < (1 - kSameShare) * copy_first, copy_faster = copy_first < (1 - kSameShare) * zero;
    table.add_row(lab::count_text(static_cast<std::size_t>(z.passes), "time", "times"))
        .set("passes", z.passes)
        .set("copy_then_kernel_ms", copy_first)
        .set("zero_copy_ms", zero)
        .set("copy_then_kernel_samples_ms", z.copy_then_kernel_ms)
        .set("zero_copy_samples_ms", z.zero_copy_ms)
        .set("faster", zero_faster   ? lab::format("zero-copy, %.2fx", copy_first / zero)
                       : copy_faster ? lab::format("copy first, %.2fx", zero / copy_first)
                                     : std::string("the same (within 5 %)"))
        .set("data", z.correct ? "correct" : "WRONG");
  }
  table.note("medians of events around each variant, isolated samples");
  return table;
}

// The Runtime API (Unified Addressing) promises cudaHostAlloc memory the same pointer on a device with unified
// addressing, mapped or not; without unified addressing there is nothing to check.
std::vector<lab::Finding> zero_copy_findings(const MappedRun& run) {
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
