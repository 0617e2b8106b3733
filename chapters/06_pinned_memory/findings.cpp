#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "statistics.hpp"

namespace ch06 {

namespace {

std::string fixed(double value, int decimals) { return lab::fixed(value, decimals); }

constexpr auto& median_of = lab::median_or_nan;  // NaN when there are no samples

double gbps(double bytes, double ms) { return ms > 0 ? lab::gigabytes_per_second(bytes, ms) : 0.0; }
double gbps_of(std::size_t bytes, const std::vector<double>& samples_ms) {
  return gbps(static_cast<double>(bytes), median_of(samples_ms));
}

lab::Finding (&observe)(const std::string&, const std::string&) = lab::named_observation;  // "name: text"

// "+2.5 %" or "-3.8 %": a difference always shows its sign (1 decimal unless asked).
std::string signed_percent(double percent, int decimals = 1) { return lab::signed_percent(percent, decimals); }

std::string ms_text(double ms) { return fixed(ms, 3) + " ms"; }
std::string us_text(double ms) { return fixed(ms * 1e3, 1) + " us"; }
std::string gbps_text(double value) { return fixed(value, 1) + " GB/s"; }

// Which of two times won, for a sentence: "A was 1.50x faster", or "the same within 5 %".
enum class Winner { first, second, same };
Winner faster_of(double first_ms, double second_ms) {
  if (first_ms < (1 - kSameShare) * second_ms) return Winner::first;
  if (second_ms < (1 - kSameShare) * first_ms) return Winner::second;
  return Winner::same;
}

}  // namespace

const char* host_kind_name(HostKind kind) {
  switch (kind) {
    case HostKind::pageable: return "pageable";
    case HostKind::pinned: return "pinned";
    case HostKind::write_combined: return "write-combined";
    case HostKind::mapped: return "mapped";
  }
  return "?";
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
  return "byte " + std::to_string(first_difference) + " differs (of " + std::to_string(bytes) + ")";
}

// --- 1. Copy bandwidth over sizes ----------------------------------------------

namespace {

// The row of the experiment's size, or the largest when it is missing.
const SizeSamples& at_experiment_size(const SweepRun& run) {
  for (const SizeSamples& s : run.sizes) {
    if (s.bytes == run.experiment_bytes) return s;
  }
  return run.sizes.back();
}

// Total GB/s of both directions at once: twice the bytes, until the later stop.
double both_total_gbps(const SizeSamples& s) {
  const double later = std::max(median_of(s.both_h2d_ms), median_of(s.both_d2h_ms));
  return gbps(2.0 * static_cast<double>(s.bytes), later);
}

std::string pinned_sampling(const SweepRun& run) {
  return run.blocked ? "behind a blocked stream" : "isolated (the blocked stream was not usable)";
}

}  // namespace

lab::ResultTable sweep_table(const SweepRun& run) {
  lab::ResultTable table("Copy bandwidth by size, GB/s (10^9 bytes/s), medians", "size",
                         {{"pageable_h2d_gbps", "H2D pageable", "GB/s", 1},
                          {"pinned_h2d_gbps", "H2D pinned", "GB/s", 1},
                          {"pinned_h2d_isolated_gbps", "H2D pinned, isolated", "GB/s", 1},
                          {"pageable_d2h_gbps", "D2H pageable", "GB/s", 1},
                          {"pinned_d2h_gbps", "D2H pinned", "GB/s", 1},
                          {"pinned_d2h_isolated_gbps", "D2H pinned, isolated", "GB/s", 1},
                          {"data", "data", "", 0}});
  for (const SizeSamples& s : run.sizes) {
    lab::ResultTable::Row& row = table.add_row(size_text(s.bytes));
    row.set("bytes", s.bytes)
        .set("pageable_h2d_gbps", gbps_of(s.bytes, s.pageable_h2d_ms))
        .set("pinned_h2d_gbps", gbps_of(s.bytes, s.pinned_h2d_ms))
        .set("pinned_h2d_isolated_gbps", gbps_of(s.bytes, s.pinned_h2d_isolated_ms))
        .set("pageable_d2h_gbps", gbps_of(s.bytes, s.pageable_d2h_ms))
        .set("pinned_d2h_gbps", gbps_of(s.bytes, s.pinned_d2h_ms))
        .set("pinned_d2h_isolated_gbps", gbps_of(s.bytes, s.pinned_d2h_isolated_ms))
        .set("pageable_h2d_ms", s.pageable_h2d_ms)
        .set("pinned_h2d_ms", s.pinned_h2d_ms)
        .set("pinned_h2d_isolated_ms", s.pinned_h2d_isolated_ms)
        .set("pageable_d2h_ms", s.pageable_d2h_ms)
        .set("pinned_d2h_ms", s.pinned_d2h_ms)
        .set("pinned_d2h_isolated_ms", s.pinned_d2h_isolated_ms)
        .set("data", s.pageable_check.intact && s.pinned_check.intact ? "intact" : "WRONG");
  }
  table.note(std::to_string(run.sizes.empty() ? 0 : run.sizes.front().pinned_h2d_ms.size()) +
             " samples each, one cudaMemcpyAsync between two events. 'pinned': " + pinned_sampling(run) +
             " (the start event, the copy and the stop event queued before the GPU reaches them); 'isolated' and "
             "pageable: the host waits after every copy, so each copy meets an idle GPU (chapter 03, pitfall 2)");
  return table;
}

lab::ResultTable both_directions_table(const SweepRun& run) {
  lab::ResultTable table("Both directions at once, pinned, " + pinned_sampling(run) + ", GB/s", "size",
                         {{"h2d_alone_gbps", "H2D alone", "GB/s", 1},
                          {"d2h_alone_gbps", "D2H alone", "GB/s", 1},
                          {"h2d_together_gbps", "H2D with D2H", "GB/s", 1},
                          {"d2h_together_gbps", "D2H with H2D", "GB/s", 1},
                          {"total_gbps", "total", "GB/s", 1},
                          {"total_vs_faster_alone", "total / faster alone", "x", 2}});
  for (const SizeSamples& s : run.sizes) {
    const double h2d = gbps_of(s.bytes, s.pinned_h2d_ms);
    const double d2h = gbps_of(s.bytes, s.pinned_d2h_ms);
    const double total = both_total_gbps(s);
    table.add_row(size_text(s.bytes))
        .set("bytes", s.bytes)
        .set("h2d_alone_gbps", h2d)
        .set("d2h_alone_gbps", d2h)
        .set("h2d_together_gbps", gbps_of(s.bytes, s.both_h2d_ms))
        .set("d2h_together_gbps", gbps_of(s.bytes, s.both_d2h_ms))
        .set("total_gbps", total)
        .set("total_vs_faster_alone", std::max(h2d, d2h) > 0 ? total / std::max(h2d, d2h) : 0.0)
        .set("both_h2d_ms", s.both_h2d_ms)
        .set("both_d2h_ms", s.both_d2h_ms);
  }
  table.note(
      "H2D on the chapter's stream, D2H on a second stream forked from it with an event; one start event before "
      "both, a stop event after each copy; 'with': that direction's bytes over the time from the start to its own "
      "stop; total: both directions' bytes over the time to the later stop");
  return table;
}

namespace {

lab::Finding launch_gap_finding(const SweepRun& run) {
  const std::string name = "what the isolated samples add";
  if (!run.blocked) return observe(name, "not measured: " + run.why_not_blocked);
  const SizeSamples& small = run.sizes.front();
  const SizeSamples& large = run.sizes.back();
  const double blocked = median_of(small.pinned_h2d_ms);
  const double isolated = median_of(small.pinned_h2d_isolated_ms);
  const double large_apart = 100.0 * (median_of(large.pinned_h2d_isolated_ms) - median_of(large.pinned_h2d_ms)) /
                             median_of(large.pinned_h2d_ms);
  const std::string measured = "a " + size_text(small.bytes) + " pinned H2D copy read " + us_text(isolated) +
                               " isolated and " + us_text(blocked) + " behind a blocked stream";
  if (isolated - blocked > 0.1 * blocked) {
    return observe(name, measured + ": the isolated pair also timed " + us_text(isolated - blocked) +
                             " in which the GPU waited for the copy to arrive (chapter 03's launch gap). At " +
                             size_text(large.bytes) + " the isolated pair read " + signed_percent(large_apart) +
                             " against the blocked one" +
                             ": the gap is a fixed cost, it matters for small copies only");
  }
  if (blocked - isolated > 0.1 * isolated) {
    return observe(name, measured + ": the blocked pair read " + us_text(blocked - isolated) +
                             " more. Behind a held stream the pair also timed something the isolated pair did not: "
                             "for a copy this small neither pair is the copy's own time (chapter 03 compares event "
                             "pairs with CUPTI's durations). At " +
                             size_text(large.bytes) + " the isolated pair read " + signed_percent(large_apart) +
                             " against the blocked one");
  }
  return observe(name, measured +
                           ": within 10 % of each other, so this run shows no launch gap in the isolated "
                           "samples (at " +
                           size_text(large.bytes) + ": isolated " + signed_percent(large_apart) + " against blocked)");
}

lab::Finding cost_per_copy_finding(const SweepRun& run) {
  const std::string name = "a cost per copy";
  const SizeSamples* best = &run.sizes.front();
  for (const SizeSamples& s : run.sizes) {
    if (gbps_of(s.bytes, s.pinned_h2d_ms) > gbps_of(best->bytes, best->pinned_h2d_ms)) best = &s;
  }
  const double best_gbps = gbps_of(best->bytes, best->pinned_h2d_ms);
  const SizeSamples& small = run.sizes.front();
  const double took_ms = median_of(small.pinned_h2d_ms);
  const double at_best_rate_ms = static_cast<double>(small.bytes) / (best_gbps * 1e6);
  std::string half_rate = "no size reached half of it";
  for (const SizeSamples& s : run.sizes) {
    if (gbps_of(s.bytes, s.pinned_h2d_ms) >= 0.5 * best_gbps) {
      half_rate = "pinned H2D reached half of it from " + size_text(s.bytes) + " up";
      break;
    }
  }
  const std::string measured = pinned_sampling(run) + ", a " + size_text(small.bytes) + " pinned H2D copy took " +
                               us_text(took_ms) + "; at the sweep's best rate (" + gbps_text(best_gbps) + " at " +
                               size_text(best->bytes) + ") its bytes would take " + us_text(at_best_rate_ms);
  if (took_ms > 2 * at_best_rate_ms) {
    return observe(name, measured + ". So " + us_text(took_ms - at_best_rate_ms) +
                             " of that copy did not depend on its size (this includes the event pair's own floor, "
                             "chapter 03 section 2); " +
                             half_rate);
  }
  return observe(name, measured +
                           ": the smallest copy ran at more than half the best rate, so this run shows no "
                           "cost per copy that matters; " +
                           half_rate);
}

lab::Finding benchmark_finding(const SweepRun& run) {
  const SizeSamples& at = at_experiment_size(run);
  double best = 0;
  std::size_t best_bytes = 0;
  for (const SizeSamples& s : run.sizes) {
    if (gbps_of(s.bytes, s.pinned_h2d_ms) > best) {
      best = gbps_of(s.bytes, s.pinned_h2d_ms);
      best_bytes = s.bytes;
    }
  }
  const double here = gbps_of(at.bytes, at.pinned_h2d_ms);
  std::string text = "pinned H2D at " + size_text(at.bytes) + " moved " + gbps_text(here) + ", " +
                     fixed(best > 0 ? 100 * here / best : 0.0, 1) + " % of the sweep's best (" + gbps_text(best) +
                     " at " + size_text(best_bytes) + ")";
  if (run.link_gbps > 0) {
    text += " and " + fixed(100 * here / run.link_gbps, 1) + " % of the theoretical rate of the link, PCIe Gen" +
            std::to_string(run.pcie_generation) + " x" + std::to_string(run.pcie_width) + " (" +
            gbps_text(run.link_gbps) + " per direction; in use now: Gen" + std::to_string(run.pcie_generation_now) +
            " x" + std::to_string(run.pcie_width_now) + ")";
  } else {
    text += "; the link's theoretical rate is unknown (NVML could not tell)";
  }
  return observe("benchmark", text);
}

lab::Finding both_directions_finding(const SweepRun& run) {
  const std::string name = "both directions at once";
  const SizeSamples& s = at_experiment_size(run);
  const double h2d = gbps_of(s.bytes, s.pinned_h2d_ms);
  const double d2h = gbps_of(s.bytes, s.pinned_d2h_ms);
  const double h2d_with = gbps_of(s.bytes, s.both_h2d_ms);
  const double d2h_with = gbps_of(s.bytes, s.both_d2h_ms);
  const double total = both_total_gbps(s);
  const double ratio = total / std::max(h2d, d2h);
  const double h2d_change = 100.0 * (h2d_with - h2d) / h2d;
  const double d2h_change = 100.0 * (d2h_with - d2h) / d2h;
  const std::string measured = "at " + size_text(s.bytes) + ", H2D moved " + gbps_text(h2d) + " alone and " +
                               gbps_text(h2d_with) + " with D2H running (" + signed_percent(h2d_change) + "); D2H " +
                               gbps_text(d2h) + " alone and " + gbps_text(d2h_with) + " with H2D (" +
                               signed_percent(d2h_change) + "). Together they moved " + gbps_text(total) + ", " +
                               fixed(ratio, 2) + "x the faster direction alone";
  const bool h2d_slowed = h2d_change < -100 * kSameShare;
  const bool d2h_slowed = d2h_change < -100 * kSameShare;
  if (h2d_slowed && d2h_slowed) {
    return observe(name, measured +
                             ". Each direction lost rate when the other ran, so the two copies share "
                             "something on their way; this run does not measure what (the link, host "
                             "memory, the copy engines)");
  }
  if (h2d_slowed || d2h_slowed) {
    return observe(name,
                   measured + ". Only " + (h2d_slowed ? "H2D" : "D2H") + " lost rate when the other direction ran");
  }
  return observe(name, measured +
                           ". Neither direction lost more than 5 % when the other ran: here the two "
                           "directions did not get in each other's way");
}

}  // namespace

std::vector<lab::Finding> sweep_findings(const SweepRun& run) {
  std::vector<lab::Finding> findings;
  std::string wrong;
  for (const SizeSamples& s : run.sizes) {
    if (!s.pageable_check.intact) wrong += " " + size_text(s.bytes) + " pageable: " + s.pageable_check.detail() + ";";
    if (!s.pinned_check.intact) wrong += " " + size_text(s.bytes) + " pinned: " + s.pinned_check.detail() + ";";
  }
  findings.push_back(lab::correctness_check(
      "every copy of the sweep arrived intact (pageable and pinned, both ways)", wrong.empty() && !run.sizes.empty(),
      wrong.empty() ? std::to_string(run.sizes.size()) + " sizes, random bytes, poisoned destinations"
                    : "wrong at" + wrong));
  if (run.sizes.empty()) return findings;
  const SizeSamples& at = at_experiment_size(run);
  const double h2d_ratio = median_of(at.pageable_h2d_ms) / median_of(at.pinned_h2d_ms);
  const double d2h_ratio = median_of(at.pageable_d2h_ms) / median_of(at.pinned_d2h_ms);
  findings.push_back(lab::timing_check("pinned copies are faster than pageable ones at --mib, both ways",
                                       h2d_ratio > 1 && d2h_ratio > 1,
                                       "at " + size_text(at.bytes) + " pinned moved " + fixed(h2d_ratio, 1) +
                                           "x the bytes per second of pageable H2D, " + fixed(d2h_ratio, 1) + "x D2H"));
  findings.push_back(launch_gap_finding(run));
  findings.push_back(cost_per_copy_finding(run));
  findings.push_back(benchmark_finding(run));
  const double faster_alone = std::max(gbps_of(at.bytes, at.pinned_h2d_ms), gbps_of(at.bytes, at.pinned_d2h_ms));
  const double total = both_total_gbps(at);
  findings.push_back(lab::timing_check("both directions at once move more than one direction alone",
                                       total > 1.2 * faster_alone,
                                       gbps_text(total) + " in total at " + size_text(at.bytes) + " against " +
                                           gbps_text(faster_alone) + " for the faster direction alone (asked: 1.2x)"));
  findings.push_back(both_directions_finding(run));
  return findings;
}

std::vector<lab::Background> sweep_background() {
  return {{"cudaMemcpyAsync between device memory and pageable host memory might be synchronous with respect to the "
           "host: if pageable memory must first be staged to pinned memory, the driver may synchronize with the "
           "stream. A pageable copy queued behind a held stream could therefore wait for the stream inside the call, "
           "so this chapter samples pageable copies isolated only",
           "CUDA Runtime API, API synchronization behavior (Memcpy, Asynchronous)"},
          {"copies between pinned host memory and device memory can run concurrently with kernels and with other "
           "copies, on devices with copy engines (asyncEngineCount)",
           "CUDA C++ Programming Guide, Page-Locked Host Memory and Asynchronous Concurrent Execution"}};
}

// --- 2. The four combinations --------------------------------------------------

std::string call_name(const CallTiming& call) { return call.async_call ? "cudaMemcpyAsync" : "cudaMemcpy"; }

namespace {
double returned_share(const CallTiming& c) { return median_of(c.returned_ms) / median_of(c.done_ms); }
bool waited(const CallTiming& c) { return returned_share(c) > kWaitedShare; }
std::string label(const CallTiming& c) { return std::string(host_kind_name(c.memory)) + " " + call_name(c); }
}  // namespace

lab::ResultTable calls_table(const CallsRun& run) {
  lab::ResultTable table(
      "One H2D copy of " + size_text(run.bytes) + ", four ways: when the call returned, and when the copy was done",
      "memory and call",
      {{"returned_ms", "returned", "ms", 3},
       {"done_ms", "done", "ms", 3},
       {"returned_percent", "returned / done", "%", 1},
       {"host", "the host", "", 0},
       {"data", "data", "", 0}});
  for (const CallTiming& c : run.calls) {
    table.add_row(label(c))
        .set("memory", host_kind_name(c.memory))
        .set("call", call_name(c))
        .set("returned_ms", median_of(c.returned_ms))
        .set("done_ms", median_of(c.done_ms))
        .set("returned_percent", 100 * returned_share(c))
        .set("host", waited(c) ? "waited for the copy" : "went on at once")
        .set("returned_samples_ms", c.returned_ms)
        .set("done_samples_ms", c.done_ms)
        .set("data", c.check.intact ? "intact" : "WRONG");
  }
  table.note("medians of " + std::to_string(run.calls.empty() ? 0 : run.calls.front().returned_ms.size()) +
             " copies, each from an idle GPU; a host timer read when the call returned and when cudaDeviceSynchronize "
             "returned after it; 'waited': returned after more than half of the copy's time");
  return table;
}

std::vector<lab::Finding> calls_findings(const CallsRun& run) {
  std::vector<lab::Finding> findings;
  std::string wrong;
  for (const CallTiming& c : run.calls) {
    if (!c.check.intact) wrong += " " + label(c) + ": " + c.check.detail() + ";";
  }
  findings.push_back(lab::correctness_check("the four copy calls delivered the data",
                                            wrong.empty() && !run.calls.empty(),
                                            wrong.empty() ? "each read back and compared" : "wrong:" + wrong));
  std::vector<std::string> went_on, stayed;
  for (const CallTiming& c : run.calls) {
    const std::string text =
        label(c) + " (" + ms_text(median_of(c.returned_ms)) + " of " + ms_text(median_of(c.done_ms)) + ")";
    (waited(c) ? stayed : went_on).push_back(text);
    if (c.memory == HostKind::pinned && c.async_call) {
      findings.push_back(lab::timing_check(
          "cudaMemcpyAsync from pinned memory returned before a tenth of its copy", returned_share(c) < 0.1,
          "it returned after " + ms_text(median_of(c.returned_ms)) + " of a " + ms_text(median_of(c.done_ms)) +
              " copy (" + fixed(100 * returned_share(c), 1) + " %)"));
    }
  }
  auto joined = [](const std::vector<std::string>& parts) {
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : "; ") + parts[i];
    return text.empty() ? std::string("none") : text;
  };
  findings.push_back(observe("which calls gave the host its time back",
                             "went on at once: " + joined(went_on) + ". Waited for the copy: " + joined(stayed)));
  for (const CallTiming& c : run.calls) {
    if (c.memory == HostKind::pageable && c.async_call) {
      findings.push_back(
          observe("cudaMemcpyAsync from pageable memory",
                  waited(c) ? "on this driver it waited: it returned after " + fixed(100 * returned_share(c), 1) +
                                  " % of the copy's time, as the documentation allows (\"might be synchronous\")"
                            : "on this driver it returned after " + fixed(100 * returned_share(c), 1) +
                                  " % of the copy's time, before the copy was done"));
    }
  }
  return findings;
}

std::vector<lab::Background> calls_background() {
  return {{"for transfers from pinned host memory to device memory, cudaMemcpy is synchronous with respect to the "
           "host; cudaMemcpyAsync between device memory and pageable host memory might be synchronous with respect "
           "to the host; for all other transfers it should be fully asynchronous",
           "CUDA Runtime API, API synchronization behavior"},
          {"in code built without --default-stream per-thread, cudaMemcpy is issued to the legacy default stream, so "
           "it also waits for work queued earlier on blocking streams",
           "CUDA Runtime API, Stream synchronization behavior"}};
}

// --- 3. Registering memory the program already has ------------------------------

RegistrationCosts registration_costs(const RegistrationRun& run) {
  return {median_of(run.register_ms) + median_of(run.unregister_ms), median_of(run.pageable_copy_ms),
          median_of(run.registered_copy_ms)};
}

lab::ResultTable registration_table(const std::vector<RegistrationRun>& runs) {
  lab::ResultTable table("Page-locking memory the program already has (cudaHostRegister / cudaHostUnregister), medians",
                         "size",
                         {{"register_ms", "register", "ms", 3},
                          {"unregister_ms", "unregister", "ms", 3},
                          {"pageable_copy_ms", "copy pageable", "ms", 3},
                          {"registered_copy_ms", "copy registered", "ms", 3},
                          {"saved_ms", "saved per copy", "ms", 3},
                          {"copies_to_break_even", "pays off after", "copies", 0},
                          {"data", "contents", "", 0}});
  for (const RegistrationRun& r : runs) {
    const RegistrationCosts costs = registration_costs(r);
    const int copies = copies_to_break_even(costs);
    table.add_row(size_text(r.bytes))
        .set("bytes", r.bytes)
        .set("register_ms", median_of(r.register_ms))
        .set("unregister_ms", median_of(r.unregister_ms))
        .set("pageable_copy_ms", costs.pageable_copy_ms)
        .set("registered_copy_ms", costs.pinned_copy_ms)
        .set("saved_ms", costs.pageable_copy_ms - costs.pinned_copy_ms)
        .set("copies_to_break_even", copies == 0 ? lab::Value("never") : lab::Value(copies))
        .set("register_samples_ms", r.register_ms)
        .set("unregister_samples_ms", r.unregister_ms)
        .set("data", r.contents.intact && r.copied.intact ? "intact" : "WRONG");
  }
  table.note(std::to_string(runs.empty() ? 0 : runs.front().register_ms.size()) +
             " rounds of register, copy, unregister on the same buffer; copies timed with events, isolated; 'pays off "
             "after': the fewest copies n with register + unregister + n x registered < n x pageable");
  return table;
}

namespace {
double total_ms(const UploadPhases& p) { return p.register_ms + p.call_ms + p.wait_ms + p.unregister_ms; }

UploadPhases median_phases(const std::vector<UploadPhases>& rounds) {
  std::vector<double> reg, call, wait, unreg;
  for (const UploadPhases& p : rounds) {
    reg.push_back(p.register_ms);
    call.push_back(p.call_ms);
    wait.push_back(p.wait_ms);
    unreg.push_back(p.unregister_ms);
  }
  return {0.0, median_of(reg), median_of(call), median_of(wait), median_of(unreg)};
}

void set_phases(lab::ResultTable::Row& row, const UploadPhases& p) {
  row.set("register_ms", p.register_ms)
      .set("call_ms", p.call_ms)
      .set("wait_ms", p.wait_ms)
      .set("unregister_ms", p.unregister_ms)
      .set("returned_ms", p.register_ms + p.call_ms)
      .set("total_ms", total_ms(p));
}
}  // namespace

lab::ResultTable upload_table(const UploadRun& run) {
  lab::ResultTable table(
      "Where an upload through registered memory spends its time, " + size_text(run.bytes) + " of floats", "upload",
      {{"first_touch_ms", "make the vector", "ms", 3},
       {"register_ms", "cudaHostRegister", "ms", 3},
       {"call_ms", "cudaMemcpyAsync", "ms", 3},
       {"wait_ms", "wait for the copy", "ms", 3},
       {"unregister_ms", "cudaHostUnregister", "ms", 3},
       {"returned_ms", "returned", "ms", 3},
       {"total_ms", "done, unlocked", "ms", 3}});
  lab::ResultTable::Row& fresh = table.add_row("fresh vector, the calls one by one");
  fresh.set("first_touch_ms", run.fresh.first_touch_ms);
  set_phases(fresh, run.fresh);
  lab::ResultTable::Row& again = table.add_row("the same vector again (median)");
  set_phases(again, median_phases(run.repeated));
  again.set("rounds", run.repeated.size());
  table.add_row("ch06::upload_registered, another fresh vector")
      .set("first_touch_ms", run.lesson_first_touch_ms)
      .set("returned_ms", run.lesson_returned_ms)
      .set("total_ms", run.lesson_done_ms);
  table.note(
      "each phase timed on its own with a host timer; 'make the vector': std::vector<float>(n), which "
      "allocates and zeroes it (the first touch of every page), not part of the upload; 'returned': "
      "cudaHostRegister + cudaMemcpyAsync, what upload_registered costs its caller; 'done, unlocked': every "
      "phase after making the vector");
  return table;
}

namespace {

lab::Finding break_even_finding(const std::vector<RegistrationRun>& runs) {
  std::vector<std::string> parts;
  bool some_never = false;
  for (const RegistrationRun& r : runs) {
    const int copies = copies_to_break_even(registration_costs(r));
    some_never = some_never || copies == 0;
    parts.push_back(size_text(r.bytes) + ": " +
                    (copies == 0   ? std::string("never")
                     : copies == 1 ? std::string("on the first copy")
                                   : "after " + std::to_string(copies) + " copies"));
  }
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : "; ") + parts[i];
  return observe("when registering paid",
                 text + (some_never ? ". Where it says never, a registered copy was not faster than a pageable one"
                                    : ". Registering pins every page, so its cost grows with the size, like the "
                                      "saving per copy"));
}

// The registration table's run of the upload's size, if the table has one.
const RegistrationRun* same_size(const std::vector<RegistrationRun>& runs, std::size_t bytes) {
  for (const RegistrationRun& r : runs) {
    if (r.bytes == bytes && !r.register_ms.empty()) return &r;
  }
  return nullptr;
}

// The table's repeated registrations of one buffer beside the upload's fresh one, with both numbers.
std::string table_against_fresh(const RegistrationRun* table, double fresh_ms) {
  if (table == nullptr) return "";
  const double table_ms = median_of(table->register_ms);
  const std::string said = ". The registration table's " + size_text(table->bytes) +
                           " buffer, registered again and again, took " + ms_text(table_ms) + " (median of " +
                           std::to_string(table->register_ms.size()) + "), ";
  switch (faster_of(table_ms, fresh_ms)) {
    case Winner::first:
      return said + fixed(100.0 * (fresh_ms - table_ms) / fresh_ms, 1) +
             " % less than cudaHostRegister on the fresh vector";
    case Winner::second:
      return said + fixed(100.0 * (table_ms - fresh_ms) / fresh_ms, 1) +
             " % more than cudaHostRegister on the fresh vector";
    case Winner::same: break;
  }
  return said + "the same as cudaHostRegister on the fresh vector within 5 %";
}

lab::Finding upload_split_finding(const UploadRun& run, const RegistrationRun* table) {
  const std::string name = "where upload_registered's time went";
  const UploadPhases again = median_phases(run.repeated);
  const double ratio = run.fresh.register_ms / again.register_ms;
  const std::string measured = "upload_registered returned after " + ms_text(run.lesson_returned_ms) +
                               ". Done one by one on a fresh vector, cudaHostRegister took " +
                               ms_text(run.fresh.register_ms) + " and cudaMemcpyAsync " + ms_text(run.fresh.call_ms) +
                               "; on the same vector again cudaHostRegister took " + ms_text(again.register_ms) +
                               " (median of " + std::to_string(run.repeated.size()) + ")";
  if (ratio >= kFirstRegistrationRatio) {
    return observe(name, measured + ": registering this fresh vector took " + fixed(ratio, 2) +
                             "x registering it again (one fresh vector: one sample)" +
                             table_against_fresh(table, run.fresh.register_ms));
  }
  // The largest phase, named.
  const std::pair<double, const char*> phases[] = {{run.fresh.register_ms, "cudaHostRegister"},
                                                   {run.fresh.call_ms, "cudaMemcpyAsync"},
                                                   {run.fresh.wait_ms, "the wait for the copy"},
                                                   {run.fresh.unregister_ms, "cudaHostUnregister"}};
  const auto largest = std::max_element(std::begin(phases), std::end(phases));
  return observe(name, measured + ": registering this fresh vector took about as long as registering it again (" +
                           fixed(ratio, 2) + "x). The largest phase of the fresh upload was " + largest->second + ", " +
                           ms_text(largest->first) + table_against_fresh(table, run.fresh.register_ms));
}

}  // namespace

std::vector<lab::Finding> registration_findings(const std::vector<RegistrationRun>& runs, const UploadRun& upload) {
  std::vector<lab::Finding> findings;
  std::string wrong;
  for (const RegistrationRun& r : runs) {
    if (!r.contents.intact) wrong += " " + size_text(r.bytes) + " contents: " + r.contents.detail() + ";";
    if (!r.copied.intact) wrong += " " + size_text(r.bytes) + " copy: " + r.copied.detail() + ";";
  }
  findings.push_back(lab::correctness_check(
      "registration kept every buffer's contents and its copies arrived", wrong.empty() && upload.correct,
      (wrong.empty() ? std::to_string(runs.size()) + " sizes intact" : "wrong:" + wrong) +
          "; uploads: " + upload.detail));
  if (!runs.empty()) findings.push_back(break_even_finding(runs));
  if (!upload.repeated.empty()) findings.push_back(upload_split_finding(upload, same_size(runs, upload.bytes)));
  return findings;
}

std::vector<lab::Background> registration_background() {
  return {
      {"cudaHostRegister page-locks a range of memory the program already allocated and makes it known to CUDA, "
       "so copies from it are accelerated like copies from cudaHostAlloc memory; cudaHostUnregister unlocks it",
       "CUDA Runtime API, cudaHostRegister and cudaHostUnregister"}};
}

// --- 4. The CPU time a non-blocking copy frees ---------------------------------

lab::ResultTable cpu_freed_table(const CpuFreedRun& run) {
  const double copy = median_of(run.copy_ms);
  const double cpu = median_of(run.cpu_ms);
  lab::ResultTable table(
      "A " + size_text(run.bytes) + " H2D copy and CPU work calibrated to it, three orders", "order",
      {{"median", "wall", "ms", 3}, {"vs_sum_percent", "vs the sum", "%", 0}, {"data", "data", "", 0}});
  table.add_row("the pinned copy alone (events)").samples(run.copy_ms, "ms");
  table.add_row("the CPU work alone").samples(run.cpu_ms, "ms");
  for (const PlacementRun* p : {&run.overlapped, &run.pageable, &run.early_sync}) {
    table.add_row(p->name)
        .samples(p->wall_ms, "ms")
        .set("vs_sum_percent", 100 * median_of(p->wall_ms) / (copy + cpu))
        .set("data", p->check.intact ? "intact" : "WRONG");
  }
  table.note("wall: from the copy call until both were done, median of " +
             std::to_string(run.overlapped.wall_ms.size()) +
             "; 'vs the sum': against the pinned copy and the CPU work one after the other");
  return table;
}

std::vector<lab::Finding> cpu_freed_findings(const CpuFreedRun& run) {
  std::vector<lab::Finding> findings;
  const bool intact = run.overlapped.check.intact && run.pageable.check.intact && run.early_sync.check.intact;
  findings.push_back(lab::correctness_check("the copies beside the CPU work arrived", intact,
                                            intact ? "each read back and compared"
                                                   : "overlapped: " + run.overlapped.check.detail() +
                                                         "; pageable: " + run.pageable.check.detail() +
                                                         "; early sync: " + run.early_sync.check.detail()));
  const double sum = median_of(run.copy_ms) + median_of(run.cpu_ms);
  const double overlapped = median_of(run.overlapped.wall_ms);
  findings.push_back(lab::timing_check(
      "pinned + cudaMemcpyAsync let the CPU work run during the copy", overlapped < 0.8 * sum,
      ms_text(overlapped) + " against " + ms_text(sum) + " for copy and CPU work one after the other (" +
          fixed(100 * overlapped / sum, 0) + " %; asked: under 80 %)"));
  const double early = median_of(run.early_sync.wall_ms);
  const double pageable = median_of(run.pageable.wall_ms);
  const std::string measured = "synchronising at once took " + ms_text(early) + ", pageable memory " +
                               ms_text(pageable) + ", pinned + non-blocking " + ms_text(overlapped);
  if (early > 1.25 * overlapped && pageable > 1.25 * overlapped) {
    findings.push_back(observe("what gives the CPU time back", measured +
                                                                   ": only both together, pinned memory and no "
                                                                   "synchronisation before the CPU work, freed it"));
  } else {
    findings.push_back(observe("what gives the CPU time back",
                               measured + ": in this run the three orders were not all 25 % apart; read the table"));
  }
  return findings;
}

// --- 5. Write-combined and mapped memory ----------------------------------------

lab::ResultTable write_combined_table(const WriteCombinedRun& run) {
  lab::ResultTable table("Ordinary and write-combined pinned memory, " + size_text(run.bytes), "memory",
                         {{"h2d_gbps", "H2D copy", "GB/s", 1},
                          {"cpu_write_gbps", "CPU writes", "GB/s", 1},
                          {"cpu_read_gbps", "CPU reads", "GB/s", 1}});
  table.add_row("pinned")
      .set("h2d_gbps", gbps_of(run.bytes, run.pinned_h2d_ms))
      .set("h2d_ms", run.pinned_h2d_ms)
      .set("cpu_write_gbps", run.pinned_write_gbps)
      .set("cpu_read_gbps", run.pinned_read_gbps);
  table.add_row("write-combined")
      .set("h2d_gbps", gbps_of(run.bytes, run.wc_h2d_ms))
      .set("h2d_ms", run.wc_h2d_ms)
      .set("cpu_write_gbps", run.wc_write_gbps)
      .set("cpu_read_gbps", run.wc_read_gbps);
  table.note(
      "H2D: median of events behind a blocked stream; CPU: one thread summing (reads) or filling (writes) "
      "the buffer as 64-bit words, median of 3");
  return table;
}

std::vector<lab::Finding> write_combined_findings(const WriteCombinedRun& run) {
  std::vector<lab::Finding> findings;
  findings.push_back(lab::correctness_check("random bytes round-trip through write-combined memory",
                                            run.round_trip.intact, run.round_trip.detail()));
  const double slower = run.pinned_read_gbps / run.wc_read_gbps;
  const std::string reads = "the CPU read write-combined memory at " + gbps_text(run.wc_read_gbps) +
                            ", ordinary pinned memory at " + gbps_text(run.pinned_read_gbps);
  if (slower >= 2) {
    findings.push_back(observe("CPU reads", reads + ": " + fixed(slower, 1) +
                                                "x slower, as the Programming Guide warns; fill such a buffer, "
                                                "never read it back on the CPU"));
  } else {
    findings.push_back(observe("CPU reads", reads + " (" + fixed(slower, 2) +
                                                "x): the slow reads the Programming Guide warns of did not appear on "
                                                "this machine, and this run does not show why"));
  }
  const double pinned = median_of(run.pinned_h2d_ms);
  const double wc = median_of(run.wc_h2d_ms);
  const std::string copies = "the H2D copy from write-combined memory took " + ms_text(wc) +
                             ", from ordinary "
                             "pinned memory " +
                             ms_text(pinned);
  switch (faster_of(wc, pinned)) {
    case Winner::first:
      findings.push_back(observe("the copy", copies + ": write-combined was " + fixed(pinned / wc, 2) + "x faster"));
      break;
    case Winner::second:
      findings.push_back(observe("the copy", copies + ": write-combined was " + fixed(wc / pinned, 2) + "x slower"));
      break;
    case Winner::same: findings.push_back(observe("the copy", copies + ": the same within 5 %")); break;
  }
  return findings;
}

std::vector<lab::Background> write_combined_background() {
  return {
      {"write-combining memory frees the host's L1 and L2 cache resources and is not snooped during transfers "
       "across PCI Express, which can improve transfer performance by up to 40 %; reading from it on the host is "
       "prohibitively slow, so it should in general be used for memory that the host only writes to",
       "CUDA C++ Programming Guide, Write-Combining Memory"}};
}

lab::ResultTable zero_copy_table(const MappedRun& run) {
  lab::ResultTable table("A kernel out[i] = passes x in[i] over " + size_text(run.bytes) +
                             ": its input copied first, or read from mapped memory",
                         "input read",
                         {{"copy_then_kernel_ms", "copy, then kernel", "ms", 3},
                          {"zero_copy_ms", "kernel reads host memory", "ms", 3},
                          {"faster", "faster", "", 0},
                          {"data", "data", "", 0}});
  for (const ZeroCopyPasses& z : run.passes) {
    const double copy_first = median_of(z.copy_then_kernel_ms);
    const double zero = median_of(z.zero_copy_ms);
    std::string faster;
    switch (faster_of(zero, copy_first)) {
      case Winner::first: faster = "zero-copy, " + fixed(copy_first / zero, 2) + "x"; break;
      case Winner::second: faster = "copy first, " + fixed(zero / copy_first, 2) + "x"; break;
      case Winner::same: faster = "the same (within 5 %)"; break;
    }
    table.add_row(std::to_string(z.passes) + (z.passes == 1 ? " time" : " times"))
        .set("passes", z.passes)
        .set("copy_then_kernel_ms", copy_first)
        .set("zero_copy_ms", zero)
        .set("copy_then_kernel_samples_ms", z.copy_then_kernel_ms)
        .set("zero_copy_samples_ms", z.zero_copy_ms)
        .set("faster", faster)
        .set("data", z.correct ? "correct" : "WRONG");
  }
  table.note("medians of events around each variant, isolated samples");
  return table;
}

std::vector<lab::Finding> zero_copy_findings(const MappedRun& run) {
  std::vector<lab::Finding> findings;
  bool correct = !run.passes.empty();
  std::string detail;
  for (const ZeroCopyPasses& z : run.passes) {
    correct = correct && z.correct;
    detail += (detail.empty() ? "" : "; ") + std::to_string(z.passes) + " pass(es): " + z.detail;
  }
  findings.push_back(lab::correctness_check("zero-copy and copy-then-kernel results are exact", correct, detail));
  if (run.unified_addressing) {
    findings.push_back(observe(
        "unified addressing",
        std::string("this device reports cudaDevAttrUnifiedAddressing = 1, and a cudaHostAlloc buffer made without "
                    "cudaHostAllocMapped had a device pointer ") +
            (run.plain_pinned_device_pointer_same ? "equal to its host pointer: a kernel could use that buffer at its "
                                                    "host address, mapped or not"
                                                  : "different from its host pointer (cudaPointerGetAttributes)")));
  } else {
    findings.push_back(observe("unified addressing",
                               "this device reports cudaDevAttrUnifiedAddressing = 0: only memory allocated with "
                               "cudaHostAllocMapped is device-accessible, through cudaHostGetDevicePointer"));
  }
  for (const ZeroCopyPasses& z : run.passes) {
    const double copy_first = median_of(z.copy_then_kernel_ms);
    const double zero = median_of(z.zero_copy_ms);
    const std::string name = "input read " + std::to_string(z.passes) + (z.passes == 1 ? " time" : " times");
    const std::string measured =
        "the kernel reading mapped memory took " + ms_text(zero) + ", copy then kernel " + ms_text(copy_first);
    switch (faster_of(zero, copy_first)) {
      case Winner::first:
        findings.push_back(observe(name, measured + ": zero-copy saved " + ms_text(copy_first - zero)));
        break;
      case Winner::second:
        findings.push_back(observe(name, measured + ": copying first was " + fixed(zero / copy_first, 2) + "x faster"));
        break;
      case Winner::same:
        findings.push_back(observe(name, measured + ": the same within 5 %, so reading the input from host memory "
                                                    "saved nothing over copying it first in this run"));
        break;
    }
  }
  return findings;
}

std::vector<lab::Background> zero_copy_background() {
  return {{"all host memory allocated with cudaMallocHost and cudaHostAlloc is directly accessible from every device "
           "that supports unified addressing, whether or not cudaHostAllocMapped is given, through the same pointer "
           "value as on the host (no cudaHostGetDevicePointer needed); unified addressing is enabled in 64-bit "
           "processes. Exceptions: write-combined memory and memory registered with cudaHostRegister may have a "
           "device address that differs from the host pointer",
           "CUDA Runtime API, Unified Addressing (Automatic Mapping of Host Allocated Host Memory)"},
          {"a kernel accessing mapped host memory needs no device allocation and no copy: the transfers happen "
           "implicitly as the kernel needs the data, at less than device memory's bandwidth",
           "CUDA C++ Programming Guide, Mapped Memory"},
          {"mapped pinned memory is not cached on the GPU, so it should be read or written only once",
           "CUDA C++ Best Practices Guide, Zero Copy"}};
}

}  // namespace ch06
