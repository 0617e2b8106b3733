#include "tables.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "checks.hpp"
#include "registration_model.hpp"
#include "vocabulary.hpp"

namespace ch06 {

std::string size_text(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + units[unit];
}

std::string call_name(const CallTiming& c) {
  return std::string(host_kind_name(c.memory)) + (c.async_call ? " cudaMemcpyAsync" : " cudaMemcpy");
}

// --- 1. Copy bandwidth over sizes ----------------------------------------------

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

// --- 2. The four combinations --------------------------------------------------

lab::ResultTable calls_table(const CallsRun& run) {
  lab::ResultTable table(
      "calls",
      "One H2D copy of " + size_text(run.bytes) + ", four ways: when the call returned, and when the copy was done",
      "memory and call",
      {{"returned_ms", "returned", "ms", 3},
       {"done_ms", "done", "ms", 3},
       {"returned_percent", "returned / done", "%", 1},
       {"host", "the call", "", 0},
       {"data", "data", "", 0}});
  for (const CallTiming& c : run.calls) {
    table.add_row(call_name(c))
        .set("returned_ms", lab::median_or_nan(c.returned_ms))
        .set("done_ms", lab::median_or_nan(c.done_ms))
        .set("returned_percent", 100 * returned_share(c))
        .set("host", returned_after_half(c) ? "returned after half the copy" : "returned before half the copy")
        .set("returned_samples_ms", c.returned_ms)
        .set("done_samples_ms", c.done_ms)
        .set("data", c.check.intact ? "intact" : "WRONG");
  }
  table.note(
      lab::format("medians of %zu copies, each from an idle GPU; a host timer read when the call returned and "
                  "when cudaDeviceSynchronize returned after it; half the copy: half its median time until done",
                  run.calls.empty() ? 0 : run.calls.front().returned_ms.size()));
  return table;
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
    table.add_row(lab::count_text(static_cast<std::size_t>(z.passes), "time", "times"))
        .set("passes", z.passes)
        .set("copy_then_kernel_ms", copy_first)
        .set("zero_copy_ms", zero)
        .set("copy_then_kernel_samples_ms", z.copy_then_kernel_ms)
        .set("zero_copy_samples_ms", z.zero_copy_ms)
        .set("faster", faster_text(z))
        .set("data", z.correct ? "correct" : "WRONG");
  }
  table.note("medians of events around each variant, isolated samples");
  return table;
}

}  // namespace ch06
