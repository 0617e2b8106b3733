#include "findings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sample_statistics.hpp"
#include "statistics.hpp"

namespace ch07 {

namespace {

std::string fixed(double value, int decimals) { return lab::fixed(value, decimals); }

// "+2.50 us" or "-3.80 us": a difference always shows its sign.
std::string signed_us(double us) { return (us < 0 ? "" : "+") + fixed(us, 2) + " us"; }

constexpr auto& median_of = lab::median_or_nan;  // NaN when there are no samples

lab::Finding (&observe)(const std::string&, const std::string&) = lab::named_observation;  // "name: text"

std::string mib(std::size_t bytes) { return fixed(static_cast<double>(bytes) / (1 << 20), 1) + " MiB"; }

const CacheCase* find_case(const WorkingSetRun& set, Preceding p, Placement m) {
  for (const CacheCase& c : set.cases)
    if (c.preceding == p && c.placement == m) return &c;
  return nullptr;
}

// The median of one case in microseconds; NaN when the case is missing.
double median_us(const WorkingSetRun& set, Preceding p, Placement m) {
  const CacheCase* c = find_case(set, p, m);
  return c == nullptr ? std::numeric_limits<double>::quiet_NaN() : 1000.0 * median_of(c->ms);
}

bool fits_in_l2(const WorkingSetRun& set) { return set.bytes <= set.l2_bytes; }

}  // namespace

// --- 1. Warm and cold L2 ---------------------------------------------------------

const char* preceding_name(Preceding preceding) {
  switch (preceding) {
    case Preceding::nothing: return "nothing";
    case Preceding::spin: return "spin kernel";
    case Preceding::write_flush: return "write flush";
    case Preceding::read_flush: return "read flush";
  }
  return "?";
}

const char* placement_name(Placement placement) {
  return placement == Placement::isolated ? "isolated" : "blocked stream";
}

std::string working_set_name(const WorkingSetRun& set) {
  if (fits_in_l2(set)) return "fits in L2";
  return fixed(static_cast<double>(set.bytes) / static_cast<double>(set.l2_bytes), 1) + " x the L2";
}

FlushEffects flush_effects(const WorkingSetRun& set) {
  using P = Preceding;
  using M = Placement;
  auto m = [&](P p, M placement) { return median_us(set, p, placement); };
  FlushEffects e;
  e.warm_us = m(P::nothing, M::blocked_stream);
  e.launch_gap_us = m(P::nothing, M::isolated) - e.warm_us;
  e.hidden_by_spin_us = m(P::nothing, M::isolated) - m(P::spin, M::isolated);
  e.cooling_write_us = m(P::write_flush, M::blocked_stream) - e.warm_us;
  e.cooling_read_us = m(P::read_flush, M::blocked_stream) - e.warm_us;
  e.article_us = m(P::write_flush, M::isolated) - m(P::nothing, M::isolated);
  return e;
}

lab::ResultTable working_set_table(const WorkingSetRun& set) {
  lab::ResultTable table("Working set " + mib(set.bytes) + " (" + working_set_name(set) + "; the L2 holds " +
                             mib(set.l2_bytes) + ")",
                         "before each sample",
                         {{"placement", "placement", "", 0},
                          {"count", "samples", "", 0},
                          {"min_us", "min", "us", 2},
                          {"median_us", "median", "us", 2},
                          {"max_us", "max", "us", 2},
                          {"vs_warm", "vs warm, blocked", "x", 2},
                          {"bandwidth_gbps", "GB/s", "", 0},
                          {"result", "result", "", 0}});
  const double warm_us = flush_effects(set).warm_us;
  for (const CacheCase& c : set.cases) {
    lab::ResultTable::Row& row =
        table.add_row(std::string(preceding_name(c.preceding)) + ", " + placement_name(c.placement));
    row.samples(c.ms, "ms").set("placement", placement_name(c.placement)).set("working_set_bytes", set.bytes);
    if (!c.ms.empty()) {
      const lab::Summary s = lab::summarize(c.ms);
      row.set("min_us", 1000 * s.min).set("median_us", 1000 * s.median).set("max_us", 1000 * s.max);
      row.set("vs_warm", 1000 * s.median / warm_us);
      row.set("bandwidth_gbps", lab::gigabytes_per_second(static_cast<double>(set.bytes), s.median));
    }
    row.set("result", c.correct ? "correct" : "WRONG");
  }
  table.note("x and y each read or written once per run; event times; vs warm: the median over nothing, blocked stream");
  return table;
}

lab::ResultTable effects_table(const WorkingSetRun& set) {
  const FlushEffects e = flush_effects(set);
  lab::ResultTable table("The flush's effects, measured apart (" + working_set_name(set) + ")", "effect",
                         {{"measured_as", "measured as", "", 0}, {"us", "difference", "us", 2}});
  table.add_row("launch gap of a lone launch").set("measured_as", "nothing: isolated - blocked").set("us", e.launch_gap_us);
  table.add_row("hidden by a busy GPU alone").set("measured_as", "isolated: nothing - spin kernel").set("us", e.hidden_by_spin_us);
  table.add_row("cooling alone, write flush").set("measured_as", "blocked: write flush - nothing").set("us", e.cooling_write_us);
  table.add_row("cooling alone, read flush").set("measured_as", "blocked: read flush - nothing").set("us", e.cooling_read_us);
  table.add_row("the article's comparison").set("measured_as", "isolated: write flush - nothing").set("us", e.article_us);
  return table;
}

namespace {

// For a set that fits in L2: did the write flush slow it by at least 20 %?
lab::Finding cooling_check(const WorkingSetRun& set, const FlushEffects& e) {
  const double ratio = (e.warm_us + e.cooling_write_us) / e.warm_us;
  return lab::timing_check(
      "a cold L2 slows a working set that fits in it (" + mib(set.bytes) + ")", ratio > 1.2,
      "blocked stream, so no launch gap counts: " + fixed(e.warm_us, 2) + " us warm, " +
          fixed(e.warm_us + e.cooling_write_us, 2) + " us after a write flush (" + fixed(ratio, 2) + "x), " +
          fixed(e.warm_us + e.cooling_read_us, 2) + " us after a read flush (" +
          fixed((e.warm_us + e.cooling_read_us) / e.warm_us, 2) + "x); expected above 1.2x");
}

lab::Finding large_set_cooling(const WorkingSetRun& set, const FlushEffects& e) {
  const double ratio = (e.warm_us + e.cooling_write_us) / e.warm_us;
  const std::string numbers = fixed(e.warm_us, 2) + " us warm against " + fixed(e.warm_us + e.cooling_write_us, 2) +
                              " us after a write flush (" + fixed(ratio, 2) + "x, blocked stream)";
  if (std::fabs(ratio - 1) <= 0.05) {
    return observe("cooling, " + working_set_name(set),
                   numbers + ": within 5 %. From the sizes: a set this much larger than the L2 evicts its own "
                             "beginning before it ends, so its data comes from memory either way (not measured here)");
  }
  return observe("cooling, " + working_set_name(set),
                 numbers + ": more than 5 % apart, so part of this working set did survive in L2 between runs "
                           "(or the flush changed something else)");
}

lab::Finding article_comparison(const WorkingSetRun& set, const FlushEffects& e) {
  const std::string parts = "the launch gap was " + signed_us(e.launch_gap_us) + ", a busy GPU alone hid " +
                            signed_us(e.hidden_by_spin_us) + ", cooling alone cost " + signed_us(e.cooling_write_us);
  if (e.article_us < 0) {
    return observe("flush before a lone launch, " + working_set_name(set),
                   "the kernel looked FASTER after a write flush (" + signed_us(e.article_us) + "): " + parts +
                       ". Hiding the launch gap outweighed cooling the cache");
  }
  return observe("flush before a lone launch, " + working_set_name(set),
                 "the kernel looked slower after a write flush (" + signed_us(e.article_us) + "): " + parts +
                     ". Cooling the cache outweighed hiding the launch gap");
}

// The two flushes touch the same bytes; the difference between them is measured, its cause is not.
lab::Finding write_against_read(const WorkingSetRun& set, const FlushEffects& e) {
  const double apart = e.cooling_write_us - e.cooling_read_us;
  const std::string numbers = "after the write flush the kernel took " + signed_us(e.cooling_write_us) +
                              " against warm, after the read flush " + signed_us(e.cooling_read_us) +
                              " (blocked stream, " + working_set_name(set) + ")";
  if (apart > 0.05 * e.warm_us) {
    return observe("write flush against read flush, " + working_set_name(set),
                   numbers + ": the write flush cost " + fixed(apart, 2) +
                       " us more, though both touch the same bytes. This fits the write flush leaving modified "
                       "lines that must be written back to memory before the kernel's data can replace them; "
                       "this run counts no write-backs, so that cause is not measured here");
  }
  if (apart < -0.05 * e.warm_us) {
    return observe("write flush against read flush, " + working_set_name(set),
                   numbers + ": the read flush cost " + fixed(-apart, 2) + " us more than the write flush");
  }
  // Within 5 % of warm, yet possibly apart beyond the noise: every sample of one case
  // faster than every sample of the other is a difference this run did measure.
  const CacheCase* write = find_case(set, Preceding::write_flush, Placement::blocked_stream);
  const CacheCase* read = find_case(set, Preceding::read_flush, Placement::blocked_stream);
  if (write != nullptr && read != nullptr && !write->ms.empty() && !read->ms.empty()) {
    const auto [write_min, write_max] = std::minmax_element(write->ms.begin(), write->ms.end());
    const auto [read_min, read_max] = std::minmax_element(read->ms.begin(), read->ms.end());
    const auto range = [](double low_ms, double high_ms) {
      return fixed(1000 * low_ms, 2) + " to " + fixed(1000 * high_ms, 2) + " us";
    };
    const std::string ranges = "after the write flush " + range(*write_min, *write_max) + ", after the read flush " +
                               range(*read_min, *read_max);
    if (*read_max < *write_min || *write_max < *read_min) {
      const bool read_faster = *read_max < *write_min;
      return observe("write flush against read flush, " + working_set_name(set),
                     numbers + ": within 5 % of the warm time of each other (" + fixed(std::fabs(apart), 2) +
                         " us, " + fixed(100 * std::fabs(apart) / e.warm_us, 1) + " %), yet every sample after the " +
                         (read_faster ? "read" : "write") + " flush was faster than every sample after the " +
                         (read_faster ? "write" : "read") + " flush (" + ranges +
                         "): a small difference, but outside the samples' spread");
    }
  }
  return observe("write flush against read flush, " + working_set_name(set),
                 numbers + ": within 5 % of the warm time of each other, and their samples overlap; this run does "
                           "not tell them apart");
}

}  // namespace

std::vector<lab::Finding> cache_findings(const CacheRun& run) {
  std::vector<lab::Finding> findings;
  std::size_t cases = 0;
  std::string wrong;
  for (const WorkingSetRun& set : run.sets) {
    for (const CacheCase& c : set.cases) {
      ++cases;
      if (!c.correct && wrong.empty())
        wrong = "; first wrong: " + working_set_name(set) + ", " + preceding_name(c.preceding) + ", " +
                placement_name(c.placement) + ": " + c.detail;
    }
  }
  findings.push_back(lab::correctness_check("y = 2x correct in every case", wrong.empty() && cases > 0,
                                            std::to_string(cases) +
                                                " cases, y poisoned first, exact comparison with the CPU" + wrong));
  for (const WorkingSetRun& set : run.sets) {
    const FlushEffects e = flush_effects(set);
    findings.push_back(fits_in_l2(set) ? cooling_check(set, e) : large_set_cooling(set, e));
    findings.push_back(article_comparison(set, e));
    findings.push_back(write_against_read(set, e));
  }
  return findings;
}

std::vector<lab::Background> cache_background() {
  return {
      {"nvbench's cold measurement flushes the L2 before every sample with cudaMemsetAsync over a buffer of "
       "cudaDevAttrL2CacheSize bytes, once the L2's size; this chapter's lab::L2Flusher touches twice the L2's size "
       "and first resets lines marked persisting (cudaCtxResetPersistingL2Cache)",
       "NVIDIA/nvbench, nvbench/detail/l2flush.cuh; common/l2_flush.cu"},
      {"Nsight Compute by default flushes all GPU caches before each replay of a profiled kernel (--cache-control "
       "all) and locks the GPU clocks to their base values (--clock-control base); its gpu__time_duration is "
       "measured on the GPU and holds no launch gap. So its figure is a cold kernel at base clock, while the events "
       "here time a warm or flushed kernel at whatever clock the GPU ran, with or without the launch gap: pass "
       "--cache-control none --clock-control none to compare like with like",
       "Nsight Compute CLI User Guide, Command Line Options, Profile (--cache-control, --clock-control)"}};
}

// --- 2. The SM clock ------------------------------------------------------------------

namespace {

std::vector<double> nvml_clocks(const std::vector<NvmlSample>& samples) {
  std::vector<double> mhz;
  for (const NvmlSample& s : samples)
    if (s.sm_clock_mhz > 0) mhz.push_back(s.sm_clock_mhz);
  return mhz;
}

std::vector<double> nvml_powers(const std::vector<NvmlSample>& samples) {
  std::vector<double> watts;
  for (const NvmlSample& s : samples)
    if (s.power_watts > 0) watts.push_back(s.power_watts);
  return watts;
}

double max_of(const std::vector<double>& values) {
  return values.empty() ? std::numeric_limits<double>::quiet_NaN() : *std::max_element(values.begin(), values.end());
}

// NVML's clock event reasons that slow the clock under load (nvml.h: nvmlClocksEventReason*).
std::string reason_names(unsigned long long mask) {
  const std::pair<unsigned long long, const char*> names[] = {
      {0x4, "software power cap"}, {0x8, "hardware slowdown"}, {0x20, "software thermal slowdown"},
      {0x40, "hardware thermal slowdown"}, {0x80, "hardware power brake"}};
  std::string text;
  for (const auto& [bit, name] : names) {
    if ((mask & bit) == 0) continue;
    text += (text.empty() ? "" : ", ") + std::string(name);
  }
  return text;
}

// The in-kernel method's own uncertainty for one probe: the spread of repeated probes
// and the timer's step over the probe's length, whichever is larger.
double method_error_mhz(const ClockRun& run) {
  const lab::Summary idle = lab::summarize(run.idle_kernel_mhz);
  const double step_error = run.probe_ms > 0 ? idle.median * run.timer_step_ns / (run.probe_ms * 1e6) : 0.0;
  return std::max(idle.max - idle.min, step_error);
}

}  // namespace

lab::ResultTable clock_table(const ClockRun& run) {
  lab::ResultTable table("The SM clock inside kernels (SM cycles / %globaltimer ns), beside NVML; nominal " +
                             fixed(run.nominal_mhz, 0) + " MHz",
                         "when",
                         {{"count", "readings", "", 0},
                          {"min", "in-kernel min", "MHz", 0},
                          {"median", "median", "MHz", 0},
                          {"max", "max", "MHz", 0},
                          {"nvml_mhz", "NVML", "MHz", 0},
                          {"power_watts", "power", "W", 0},
                          {"power_max_watts", "power max", "W", 0}});
  lab::ResultTable::Row& idle = table.add_row("idle (probes of " + fixed(run.probe_ms, 1) + " ms)");
  idle.samples(run.idle_kernel_mhz, "MHz");
  if (!run.idle_nvml_mhz.empty()) idle.set("nvml_mhz", median_of(run.idle_nvml_mhz));
  if (run.idle_power_watts > 0) idle.set("power_watts", run.idle_power_watts);
  lab::ResultTable::Row& load = table.add_row("under load (" + fixed(run.load_ms, 0) + " ms)");
  load.samples(run.load_kernel_mhz, "MHz");
  const std::vector<double> clocks = nvml_clocks(run.load_nvml);
  const std::vector<double> powers = nvml_powers(run.load_nvml);
  if (!clocks.empty()) load.set("nvml_mhz", lab::median(clocks));
  if (!powers.empty()) load.set("power_watts", lab::median(powers)).set("power_max_watts", max_of(powers));
  // Every NVML reading of the load, in order, so that "the JSON keeps every reading" holds for them too.
  std::vector<double> at_ms, nvml_mhz, nvml_watts, nvml_reasons;
  for (const NvmlSample& s : run.load_nvml) {
    at_ms.push_back(s.at_ms);
    nvml_mhz.push_back(s.sm_clock_mhz);
    nvml_watts.push_back(s.power_watts);
    nvml_reasons.push_back(s.reasons_known ? static_cast<double>(s.clock_reasons) : -1.0);
  }
  load.set("nvml_at_ms", at_ms)
      .set("nvml_sm_clock_mhz", nvml_mhz)
      .set("nvml_power_watts", nvml_watts)
      .set("nvml_clock_reasons", nvml_reasons);  // NVML's bit mask; -1 where it was not read
  load.set("nvml_samples", static_cast<long long>(run.load_nvml.size()))
      .set("load_tflops", run.load_tflops)
      .set("load_copy_gbps", run.load_copy_gbps)
      .set("power_limit_watts", run.power_limit_watts);
  lab::ResultTable::Row& after = table.add_row("right after the load");
  after.samples({run.after_kernel_mhz}, "MHz");
  if (run.after_nvml_mhz > 0) after.set("nvml_mhz", run.after_nvml_mhz);
  table.note("the load: tensor-core WMMA on every SM (" + fixed(run.load_tflops, 0) + " TFLOP/s) beside a copy (" +
             fixed(run.load_copy_gbps, 0) + " GB/s); power limit " +
             (run.power_limit_watts > 0 ? fixed(run.power_limit_watts, 0) + " W" : std::string("unknown")) +
             "; the JSON keeps every reading");
  return table;
}

lab::ResultTable clock_error_table(const ClockRun& run) {
  lab::ResultTable table("How exact is an in-kernel clock reading?", "error term",
                         {{"value", "value", "", 2}, {"mhz", "in MHz", "MHz", 1}});
  const lab::Summary idle = lab::summarize(run.idle_kernel_mhz);
  table.add_row("spread of " + std::to_string(run.idle_kernel_mhz.size()) + " idle probes (max - min)")
      .set("mhz", idle.max - idle.min);
  table.add_row("%globaltimer's smallest step, ns")
      .set("value", run.timer_step_ns)
      .set("mhz", run.probe_ms > 0 ? idle.median * run.timer_step_ns / (run.probe_ms * 1e6) : 0.0);
  table.add_row("%globaltimer's mean step, ns").set("value", run.timer_mean_step_ns);
  if (!run.idle_nvml_mhz.empty())
    table.add_row("in-kernel median - NVML at idle").set("mhz", idle.median - median_of(run.idle_nvml_mhz));
  table.note("a probe divides SM cycles by nanoseconds over " + fixed(run.probe_ms, 1) +
             " ms; one timer step at each end is the timer's share of its error");
  return table;
}

std::vector<lab::Finding> clock_findings(const ClockRun& run) {
  std::vector<lab::Finding> findings;
  findings.push_back(lab::correctness_check("the load computed what the CPU computes", run.load_correct,
                                            run.load_detail));
  const lab::Summary idle = lab::summarize(run.idle_kernel_mhz);
  const lab::Summary load = lab::summarize(run.load_kernel_mhz);
  const std::vector<double> powers = nvml_powers(run.load_nvml);
  std::string power_text = "NVML read no power";
  if (!powers.empty()) {
    power_text = "at " + fixed(lab::median(powers), 0) + " W (at most " + fixed(max_of(powers), 0) + " W)";
    if (run.power_limit_watts > 0)
      power_text += " of a " + fixed(run.power_limit_watts, 0) + " W limit (" +
                    fixed(100 * max_of(powers) / run.power_limit_watts, 0) + " % at most)";
  }
  unsigned long long reasons = 0;
  for (const NvmlSample& s : run.load_nvml)
    if (s.reasons_known) reasons |= s.clock_reasons;
  const std::string reasons_text = reason_names(reasons);
  const std::string numbers = "the in-kernel clock under load read a median of " + fixed(load.median, 0) + " MHz (" +
                              fixed(load.min, 0) + " to " + fixed(load.max, 0) + ") against " +
                              fixed(idle.median, 0) + " MHz at idle, " + power_text;
  const double change = std::max(kClockChange * idle.median, method_error_mhz(run));
  if (load.median < idle.median - change) {
    findings.push_back(observe("the load moved the clock",
                               numbers + ": " + fixed(idle.median - load.median, 0) + " MHz lower" +
                                   (reasons_text.empty() ? "; NVML named no slowdown reason"
                                                         : "; NVML's reasons: " + reasons_text)));
  } else {
    findings.push_back(observe("the load did not move the clock",
                               numbers + ": within " + fixed(change, 0) +
                                   " MHz, so this load could not move the clock on this GPU" +
                                   (reasons_text.empty() ? "" : " (NVML still named: " + reasons_text + ")")));
  }
  if (!run.idle_nvml_mhz.empty()) {
    const double nvml = median_of(run.idle_nvml_mhz);
    const double apart = idle.median - nvml;
    const double error = method_error_mhz(run) + 1.0;  // NVML reports whole MHz
    const std::string text = "in-kernel " + fixed(idle.median, 1) + " MHz against NVML's " + fixed(nvml, 0) +
                             " MHz at idle (" + (apart < 0 ? "" : "+") + fixed(apart, 1) + " MHz, " +
                             fixed(100 * apart / nvml, 2) + " %); the method's own error is about " +
                             fixed(error, 1) + " MHz (probe spread, %globaltimer's " + fixed(run.timer_step_ns, 0) +
                             " ns step over " + fixed(run.probe_ms, 1) + " ms, NVML's whole MHz)";
    if (std::fabs(apart) <= error) {
      findings.push_back(observe("in-kernel clock against NVML", text + ": they agree within it"));
    } else {
      findings.push_back(observe("in-kernel clock against NVML",
                                 text + ": they differ by more than that, so the SM's cycle counter and "
                                        "%globaltimer disagree with NVML's figure; this run cannot tell which "
                                        "is off. Read in-kernel clocks as relative (idle against load), good to "
                                        "about " + fixed(error, 0) + " MHz"));
    }
  }
  std::vector<double> every = run.idle_kernel_mhz;
  every.insert(every.end(), run.load_kernel_mhz.begin(), run.load_kernel_mhz.end());
  every.push_back(run.after_kernel_mhz);
  const ClockVerdict verdict = judge_clock(every, run.nominal_mhz);
  findings.push_back(observe("nvbench's rule", std::to_string(verdict.below) + " of " +
                                                   std::to_string(every.size()) +
                                                   " in-kernel readings under 75 % of the nominal " +
                                                   fixed(run.nominal_mhz, 0) + " MHz" +
                                                   (verdict.below > 0 ? ": nvbench would discard such samples"
                                                                      : ": nvbench would discard none")));
  return findings;
}

std::vector<lab::Background> clock_background() {
  return {{"nvidia-smi --lock-gpu-clocks (-lgc) pins the GPU clock to a range and --reset-gpu-clocks (-rgc) undoes "
           "it; both need root and change the GPU for every process on it. This chapter never calls them: it "
           "measures the clock instead",
           "nvidia-smi documentation (man nvidia-smi), Clocks"},
          {"nvmlDeviceGetPowerUsage reports the board's power draw in milliwatts, and "
           "nvmlDeviceGetCurrentClocksEventReasons why the clocks are below their maximum (idle, power cap, "
           "thermal slowdown, ...)",
           "NVML API Reference, Device Queries"},
          {"nvbench measures the SM clock in every sample (clock64 over %globaltimer) and can discard samples taken "
           "below 75 % of the nominal clock",
           "NVIDIA/nvbench command-line help (--throttle-threshold, default 75 %)"}};
}

// --- 3. Many samples --------------------------------------------------------------

std::vector<std::size_t> precision_counts(std::size_t total) {
  std::vector<std::size_t> counts;  // 5, 10, 20, 50, 100, 200, 500, ... below total, then total
  for (std::size_t decade = 1; decade < total; decade *= 10) {
    for (std::size_t step : {1, 2, 5}) {
      const std::size_t n = step * decade;
      if (n >= 5 && n < total) counts.push_back(n);
    }
  }
  if (total >= 5) counts.push_back(total);
  return counts;
}

lab::ResultTable samples_table(const SamplesRun& run) {
  lab::ResultTable table(std::to_string(run.ms.size()) + " lone launches of the clocked kernel (" +
                             std::to_string(run.steps) + " FMAs per thread), event times",
                         "samples",
                         {{"count", "count", "", 0},
                          {"min", "min", "ms", 4},
                          {"median", "median", "ms", 4},
                          {"mean", "mean", "ms", 4},
                          {"max", "max", "ms", 4},
                          {"stddev", "stddev", "ms", 4},
                          {"cv_percent", "CV", "%", 2},
                          {"outliers_below", "outliers below", "", 0},
                          {"outliers_above", "outliers above", "", 0}});
  lab::ResultTable::Row& row = table.add_row("clocked kernel");
  row.samples(run.ms, "ms");
  if (!run.ms.empty()) {
    const Outliers o = tukey_outliers(run.ms);
    row.set("cv_percent", 100 * lab::summarize(run.ms).cv)
        .set("outliers_below", o.below)
        .set("outliers_above", o.above)
        .set("low_fence_ms", o.low_fence)
        .set("high_fence_ms", o.high_fence)
        .set("clock_mhz_per_sample", run.clock_mhz);
  }
  table.note("outliers: beyond Tukey's fences, 1.5 IQR outside the quartiles");
  return table;
}

lab::ResultTable histogram_table(const SamplesRun& run) {
  lab::ResultTable table("Their histogram", "bin",
                         {{"from", "from", "ms", 4}, {"to", "to", "ms", 4}, {"samples", "samples", "", 0},
                          {"bar", "", "", 0}});
  if (run.ms.empty()) return table;
  const Histogram h = histogram(run.ms, 12);
  const int fullest = *std::max_element(h.counts.begin(), h.counts.end());
  for (std::size_t i = 0; i < h.counts.size(); ++i) {
    const auto bar = static_cast<std::size_t>(std::lround(40.0 * h.counts[i] / std::max(fullest, 1)));
    table.add_row(std::to_string(i + 1))
        .set("from", h.low + static_cast<double>(i) * h.width)
        .set("to", h.low + static_cast<double>(i + 1) * h.width)
        .set("samples", h.counts[i])
        .set("bar", std::string(bar, '#'));
  }
  return table;
}

lab::ResultTable precision_table(const SamplesRun& run) {
  lab::ResultTable table("How precisely the median is known: a 95 % bootstrap interval from the first n samples",
                         "first n samples",
                         {{"median", "median", "ms", 4},
                          {"low", "interval from", "ms", 4},
                          {"high", "to", "ms", 4},
                          {"width_percent", "width", "% of median", 3}});
  for (std::size_t n : precision_counts(run.ms.size())) {
    const MedianInterval i =
        bootstrap_median_interval(std::vector<double>(run.ms.begin(), run.ms.begin() + static_cast<std::ptrdiff_t>(n)));
    table.add_row(std::to_string(n))
        .set("count", n)
        .set("median", i.median)
        .set("low", i.low)
        .set("high", i.high)
        .set("width_percent", i.width_percent());
  }
  table.note("2000 resamples with replacement, fixed seed; the interval holds the middle 95 % of their medians");
  return table;
}

std::vector<lab::Finding> samples_findings(const SamplesRun& run) {
  std::vector<lab::Finding> findings;
  findings.push_back(lab::correctness_check("the clocked kernel computed what the CPU computes, after the samples",
                                            run.correct, std::to_string(run.steps) + " FMAs per thread, exact"));
  if (run.ms.size() < 2) return findings;
  const lab::Summary s = lab::summarize(run.ms);
  const Outliers o = tukey_outliers(run.ms);
  const std::string spread = "median " + fixed(s.median, 4) + " ms, mean " + fixed(s.mean, 4) + " ms, " +
                             std::to_string(o.above) + " sample(s) above Tukey's upper fence and " +
                             std::to_string(o.below) + " below the lower";
  if (s.mean > s.median && o.above > o.below) {
    findings.push_back(observe("mean against median",
                               spread + ": the slow outliers pull the mean up; the median does not move with them"));
  } else {
    findings.push_back(observe("mean against median", spread + ": no pull of slow outliers on the mean here"));
  }
  const std::vector<std::size_t> counts = precision_counts(run.ms.size());
  if (counts.size() >= 2) {
    const std::size_t few = counts.front();
    const std::size_t many = counts.back();
    const double narrow = bootstrap_median_interval(run.ms).width_percent();
    const double wide =
        bootstrap_median_interval(std::vector<double>(run.ms.begin(), run.ms.begin() + static_cast<std::ptrdiff_t>(few)))
            .width_percent();
    const double expected = std::sqrt(static_cast<double>(many) / static_cast<double>(few));
    const std::string text = "the interval was " + fixed(wide, 3) + " % of the median wide from " +
                             std::to_string(few) + " samples and " + fixed(narrow, 3) + " % from " +
                             std::to_string(many) + ": ";
    if (narrow <= 0 || wide <= 0) {
      findings.push_back(observe("precision against samples",
                                 text + "an interval of zero width (equal samples, or the timer's grading) shows no trend"));
    } else {
      const double ratio = wide / narrow;
      const std::string measured = fixed(ratio, 1) + "x narrower for " + fixed(static_cast<double>(many) / few, 0) +
                                   "x the samples, against " + fixed(expected, 1) + "x for 1/sqrt(n)";
      if (ratio >= expected / 2 && ratio <= expected * 2) {
        findings.push_back(observe("precision against samples",
                                   text + measured + ": roughly as 1/sqrt(n), so each halving of the interval "
                                                     "costs four times the samples"));
      } else if (ratio < expected / 2) {
        findings.push_back(observe("precision against samples",
                                   text + measured + ": slower than 1/sqrt(n); the samples drift or come in "
                                                     "groups, and more of them buy less than the rule promises"));
      } else {
        findings.push_back(observe("precision against samples",
                                   text + measured + ": faster than 1/sqrt(n); the first samples were noisier "
                                                     "than the rest (a warm-up the loop did not cover?)"));
      }
    }
  }
  if (!run.clock_mhz.empty()) {
    const ClockVerdict c = judge_clock(run.clock_mhz, run.nominal_mhz);
    findings.push_back(observe("the clock per sample",
                               fixed(c.min_mhz, 0) + " to " + fixed(c.max_mhz, 0) + " MHz in-kernel over the " +
                                   std::to_string(run.clock_mhz.size()) + " samples; " + std::to_string(c.below) +
                                   " under 75 % of nominal" +
                                   (c.below > 0 ? " (nvbench would discard them)" : " (none flagged)")));
  }
  return findings;
}

std::vector<lab::Background> samples_background() {
  return {{"cudaEventElapsedTime has a resolution of around 0.5 microseconds, so differences between samples "
           "smaller than that are the timer's grading, not the kernel",
           "CUDA Runtime API, cudaEventElapsedTime"},
          {"a percentile bootstrap interval: resample the samples with replacement many times, take each "
           "resample's median, and keep the middle 95 % of those medians",
           "Efron and Tibshirani, An Introduction to the Bootstrap (1993), ch. 13"},
          {"the recipe lab::measure_ms follows: warm up; take many samples with events; say whether the L2 was warm "
           "or flushed and block the stream when the launch gap must not count; report the median with its spread "
           "and the sample count; record the SM clock; compare variants in the same run",
           "docs/measuring.md"}};
}

}  // namespace ch07
