#include "tables.hpp"

#include <algorithm>
#include <cmath>

#include "checks.hpp"
#include "sample_statistics.hpp"
#include "vocabulary.hpp"

namespace ch07 {

// --- 1. Warm and cold L2 ---------------------------------------------------------

namespace {

// Each row of the effects table: the median of one case minus the median of another (in us), named by what changes
// between the two; "measured as" says which two.
struct Effect {
  const char *name, *measured_as;
  Preceding first_preceding;
  Placement first_placement;
  Preceding second_preceding;
  Placement second_placement;
};
constexpr Effect kEffects[] = {{"placement, nothing before", "nothing: isolated - blocked", Preceding::nothing,
                                Placement::isolated, Preceding::nothing, Placement::blocked_stream},
                               {"spin kernel before, isolated", "isolated: nothing - spin kernel", Preceding::nothing,
                                Placement::isolated, Preceding::spin, Placement::isolated},
                               {"write flush before, blocked", "blocked: write flush - nothing", Preceding::write_flush,
                                Placement::blocked_stream, Preceding::nothing, Placement::blocked_stream},
                               {"read flush before, blocked", "blocked: read flush - nothing", Preceding::read_flush,
                                Placement::blocked_stream, Preceding::nothing, Placement::blocked_stream},
                               {"the article's comparison", "isolated: write flush - nothing", Preceding::write_flush,
                                Placement::isolated, Preceding::nothing, Placement::isolated}};

}  // namespace

lab::ResultTable working_set_table(const WorkingSetRun& set) {
  lab::ResultTable table("working_set_" + set.role,
                         "Working set " + lab::mib_text(static_cast<double>(set.bytes)) + " (" + working_set_name(set) +
                             "; the L2 holds " + lab::mib_text(static_cast<double>(set.l2_bytes)) + ")",
                         "before each sample",
                         {{"count", "samples", "", 0},
                          {"min_us", "min", "us", 2},
                          {"median_us", "median", "us", 2},
                          {"max_us", "max", "us", 2},
                          {"vs_warm", "vs warm, blocked", "x", 2},
                          {"bandwidth_gbps", "GB/s", "", 0},
                          {"result", "result", "", 0}});
  const double warm_us = median_us(set, Preceding::nothing, Placement::blocked_stream);
  for (const CacheCase& c : set.cases) {
    lab::ResultTable::Row& row =
        table.add_row(std::string(preceding_name(c.preceding)) + ", " + placement_name(c.placement));
    row.samples(c.ms, "ms").set("working_set_bytes", set.bytes);
    if (!c.ms.empty()) {
      const lab::Summary s = lab::summarize(c.ms);
      row.set("min_us", 1000 * s.min).set("median_us", 1000 * s.median).set("max_us", 1000 * s.max);
      row.set("vs_warm", 1000 * s.median / warm_us);
      row.set("bandwidth_gbps", lab::gigabytes_per_second(static_cast<double>(set.bytes), s.median));
    }
    row.set("result", c.correct ? "correct" : "WRONG");
  }
  table.note("x and y each read or written once per run; event times; vs warm: over the median of nothing, blocked");
  return table;
}

lab::ResultTable effects_table(const WorkingSetRun& set) {
  lab::ResultTable table("flush_effects_" + set.role,
                         "The flush's effects, measured apart (" + working_set_name(set) + ")", "what changes",
                         {{"measured_as", "measured as", "", 0}, {"us", "difference", "us", 2}});
  for (const Effect& e : kEffects) {
    table.add_row(e.name)
        .set("measured_as", e.measured_as)
        .set("us", median_us(set, e.first_preceding, e.first_placement) -
                       median_us(set, e.second_preceding, e.second_placement));
  }
  return table;
}

// --- 2. The SM clock ------------------------------------------------------------------

namespace {

// One field of every NVML reading of the load, in order; with @p positive, only the readings above 0.
std::vector<double> each(const std::vector<NvmlSample>& samples, double NvmlSample::* field, bool positive = false) {
  std::vector<double> values;
  for (const NvmlSample& s : samples)
    if (!positive || s.*field > 0) values.push_back(s.*field);
  return values;
}

}  // namespace

lab::ResultTable clock_table(const ClockRun& run) {
  const std::string whole = run.nvml_whole_gpu ? ", whole GPU" : "";  // under MIG NVML answers for the whole board
  const std::string power = (run.power_averaged ? "power, 1 s avg" : "power, instant") + whole;  // as NVML returns it
  lab::ResultTable table(
      "clock",
      lab::format("The SM clock inside kernels (SM cycles / %%globaltimer ns), beside NVML; nominal %.0f MHz",
                  run.nominal_mhz),
      "when",
      {{"count", "readings", "", 0},
       {"min", "in-kernel min", "MHz", 0},
       {"median", "median", "MHz", 0},
       {"max", "max", "MHz", 0},
       {"below_75_percent", "< 75 % nominal", "", 0},
       {"nvml_mhz", "NVML" + whole, "MHz", 0},
       {"power_watts", power, "W", 0},
       {"power_max_watts", "max " + power, "W", 0}});
  lab::ResultTable::Row& idle = table.add_row(lab::format("idle (probes of %.1f ms)", run.probe_ms));
  idle.samples(run.idle_kernel_mhz, "MHz").set("below_75_percent", below_rule(run.idle_kernel_mhz, run.nominal_mhz));
  if (!run.idle_nvml_mhz.empty()) idle.set("nvml_mhz", lab::median(run.idle_nvml_mhz));
  if (run.idle_power_watts > 0) idle.set("power_watts", run.idle_power_watts);
  lab::ResultTable::Row& load = table.add_row(lab::format("under load (%.0f ms)", run.load_ms));
  load.samples(run.load_kernel_mhz, "MHz").set("below_75_percent", below_rule(run.load_kernel_mhz, run.nominal_mhz));
  const std::vector<double> clocks = each(run.load_nvml, &NvmlSample::sm_clock_mhz, true);
  const std::vector<double> powers = each(run.load_nvml, &NvmlSample::power_watts, true);
  if (!clocks.empty()) load.set("nvml_mhz", lab::median(clocks));
  if (!powers.empty())
    load.set("power_watts", lab::median(powers))
        .set("power_max_watts", *std::max_element(powers.begin(), powers.end()));
  // Every NVML reading of the load, in order, so that "the JSON keeps every reading" holds for them too.
  std::vector<double> reasons;  // NVML's bit mask; -1 where it was not read
  for (const NvmlSample& s : run.load_nvml) reasons.push_back(s.reasons_known ? s.clock_reasons : -1.0);
  load.set("nvml_at_ms", each(run.load_nvml, &NvmlSample::at_ms)).set("nvml_clock_reasons", reasons);
  load.set("nvml_sm_clock_mhz", each(run.load_nvml, &NvmlSample::sm_clock_mhz));
  load.set("nvml_power_watts", each(run.load_nvml, &NvmlSample::power_watts)).set("nvml_samples", run.load_nvml.size());
  load.set("load_tflops", run.load_tflops).set("load_copy_gbps", run.load_copy_gbps);
  load.set("power_limit_watts", run.power_limit_watts).set("power_averaged_1s", run.power_averaged);
  lab::ResultTable::Row& after = table.add_row("right after the load");
  after.samples({run.after_kernel_mhz}, "MHz")
      .set("below_75_percent", below_rule({run.after_kernel_mhz}, run.nominal_mhz));
  if (run.after_nvml_mhz > 0) after.set("nvml_mhz", run.after_nvml_mhz);
  table.note(lab::format("the load: tensor-core WMMA on every SM (%.0f TFLOP/s) beside a copy (%.0f GB/s); ",
                         run.load_tflops, run.load_copy_gbps) +
             (run.power_limit_watts > 0 ? lab::format("power limit %.0f W", run.power_limit_watts)
                                        : std::string("power limit unknown")) +
             "; < 75 % nominal: readings nvbench would discard; the JSON keeps every reading");
  return table;
}

lab::ResultTable clock_error_table(const ClockRun& run) {
  lab::ResultTable table("clock_error", "How exact is an in-kernel clock reading?", "error term",
                         {{"value", "value", "", 2}, {"mhz", "in MHz", "MHz", 1}});
  const lab::Summary idle = lab::summarize(run.idle_kernel_mhz);
  table.add_row(lab::format("spread of %zu idle probes (max - min)", run.idle_kernel_mhz.size()))
      .set("mhz", idle.max - idle.min);
  table.add_row("%globaltimer's smallest step, ns").set("value", run.timer_step_ns).set("mhz", timer_error_mhz(run));
  table.add_row("%globaltimer's mean step, ns").set("value", run.timer_mean_step_ns);
  table.add_row("the method's error: the larger, + NVML's 1 MHz step").set("mhz", method_error_mhz(run) + 1.0);
  if (!run.idle_nvml_mhz.empty())
    table.add_row("in-kernel median - NVML at idle").set("mhz", idle.median - lab::median(run.idle_nvml_mhz));
  table.note(
      lab::format("a probe divides SM cycles by nanoseconds over %.1f ms; the timer's share of its error is one "
                  "timer step (rounding both readings changes their difference by less than that)",
                  run.probe_ms));
  return table;
}

// --- 3. Many samples --------------------------------------------------------------

lab::ResultTable samples_table(const SamplesRun& run) {
  lab::ResultTable table("samples",
                         lab::format("%zu lone launches of the clocked kernel (%lld FMAs per thread), event times",
                                     run.ms.size(), run.steps),
                         "samples",
                         {{"count", "count", "", 0},
                          {"min", "min", "ms", 4},
                          {"median", "median", "ms", 4},
                          {"mean", "mean", "ms", 4},
                          {"max", "max", "ms", 4},
                          {"stddev", "stddev", "ms", 4},
                          {"cv_percent", "CV", "%", 2},
                          {"step_us", "step at most", "us", 3},
                          {"outliers_below", "outliers below", "", 0},
                          {"outliers_above", "outliers above", "", 0},
                          {"clock_min_mhz", "clock min", "MHz", 0},
                          {"clock_max_mhz", "clock max", "MHz", 0},
                          {"below_75_percent", "< 75 % nominal", "", 0}});
  lab::ResultTable::Row& row = table.add_row("clocked kernel");
  row.samples(run.ms, "ms");
  if (!run.clock_mhz.empty()) {
    const auto [low, high] = std::minmax_element(run.clock_mhz.begin(), run.clock_mhz.end());
    row.set("clock_min_mhz", *low).set("clock_max_mhz", *high);
    row.set("below_75_percent", below_rule(run.clock_mhz, run.nominal_mhz));
  }
  if (!run.ms.empty()) {
    const Outliers o = tukey_outliers(run.ms);
    row.set("step_us", 1000 * lab::smallest_step(run.ms, 1e-6));  // under 1 ns: the float's rounding, not a step
    row.set("cv_percent", 100 * lab::summarize(run.ms).cv)
        .set("outliers_below", o.below)
        .set("outliers_above", o.above);
    row.set("low_fence_ms", o.low_fence).set("high_fence_ms", o.high_fence).set("clock_mhz_per_sample", run.clock_mhz);
  }
  table.note(
      "step at most: the smallest gap between two samples; outliers: 1.5 IQR outside the quartiles (Tukey); clock: "
      "the SM clock measured inside each sample; < 75 % nominal: samples nvbench would discard");
  return table;
}

lab::ResultTable histogram_table(const SamplesRun& run) {
  lab::ResultTable table(
      "histogram", "Their histogram", "bin",
      {{"from", "from", "ms", 4}, {"to", "to", "ms", 4}, {"samples", "samples", "", 0}, {"bar", "", "", 0}});
  if (run.ms.empty()) return table;
  const Histogram h = histogram(run.ms, 12);
  const int fullest = *std::max_element(h.counts.begin(), h.counts.end());
  for (std::size_t i = 0; i < h.counts.size(); ++i) {
    const auto bar = static_cast<std::size_t>(std::lround(40.0 * h.counts[i] / std::max(fullest, 1)));
    lab::ResultTable::Row& row = table.add_row(std::to_string(i + 1));
    row.set("from", h.low + static_cast<double>(i) * h.width).set("to", h.low + static_cast<double>(i + 1) * h.width);
    row.set("samples", h.counts[i]).set("bar", std::string(bar, '#'));
  }
  return table;
}

lab::ResultTable precision_table(const SamplesRun& run) {
  lab::ResultTable table("precision",
                         "How precisely the median is known: a 95 % bootstrap interval from the first n samples",
                         "first n samples",
                         {{"median", "median", "ms", 4},
                          {"low", "interval from", "ms", 4},
                          {"high", "to", "ms", 4},
                          {"width_percent", "width", "% of median", 3},
                          {"sqrt_n_percent", "1/sqrt(n) predicts", "% of median", 3}});
  const std::vector<std::size_t> counts = precision_counts(run.ms.size());
  // The width 1/sqrt(n) predicts from the row of 10 samples (the fewest when there is none; from 5 samples the
  // interval is their whole range, a coarser measure).
  const std::size_t from = counts.size() > 2 ? counts[1] : counts.empty() ? 0 : counts.front();
  const double from_width = from > 0 ? first_n_interval(run.ms, from).width_percent() : 0.0;
  for (std::size_t n : counts) {
    const MedianInterval i = first_n_interval(run.ms, n);
    lab::ResultTable::Row& row = table.add_row(std::to_string(n));
    row.set("count", n).set("median", i.median).set("low", i.low).set("high", i.high);
    row.set("width_percent", i.width_percent())
        .set("sqrt_n_percent", from_width * std::sqrt(static_cast<double>(from) / static_cast<double>(n)));
  }
  table.note(
      lab::format("2000 resamples with replacement, fixed seed; the interval holds the middle 95 %% of their "
                  "medians; 1/sqrt(n): the width of the row of %zu samples times sqrt(%zu / n)",
                  from, from));
  return table;
}

}  // namespace ch07
