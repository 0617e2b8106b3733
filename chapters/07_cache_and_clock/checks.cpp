#include "checks.hpp"

#include <algorithm>
#include <cmath>

#include "vocabulary.hpp"

namespace ch07 {

// --- 1. Warm and cold L2 ---------------------------------------------------------

namespace {

const CacheCase* find_case(const WorkingSetRun& set, Preceding p, Placement m) {
  for (const CacheCase& c : set.cases)
    if (c.preceding == p && c.placement == m) return &c;
  return nullptr;
}

// Every case of both working sets: y = 2x exact after its samples (y poisoned first).
lab::Finding cases_correct(const CacheRun& run) {
  std::size_t cases = 0;
  std::string wrong;
  for (const WorkingSetRun* set : {&run.small, &run.large}) {
    for (const CacheCase& c : set->cases) {
      ++cases;
      if (!c.correct && wrong.empty())
        wrong = "; first wrong: " + working_set_name(*set) + ", " + preceding_name(c.preceding) + ", " +
                placement_name(c.placement) + ": " + c.detail;
    }
  }
  lab::Finding f = lab::correctness_check(
      "cases_correct", "y = 2x correct in every case", wrong.empty() && cases > 0,
      lab::count_text(cases, "case", "cases") + ", y poisoned first, exact comparison with the CPU" + wrong);
  return f.with("case_count", cases);
}

// Did a write flush slow a set that fits in the L2 (blocked stream: no launch gap counts)? Its median after the flush
// must lie above the slowest warm sample: a threshold from the run's own spread, not from one GPU's numbers.
lab::Finding cooling(const WorkingSetRun& set) {
  const CacheCase* warm = find_case(set, Preceding::nothing, Placement::blocked_stream);
  const double slowest_warm_us =
      warm == nullptr || warm->ms.empty() ? std::nan("") : 1000 * *std::max_element(warm->ms.begin(), warm->ms.end());
  const double warm_us = median_us(set, Preceding::nothing, Placement::blocked_stream);
  const double write_us = median_us(set, Preceding::write_flush, Placement::blocked_stream);
  const double read_us = median_us(set, Preceding::read_flush, Placement::blocked_stream);
  lab::Finding f = lab::timing_check(
      "cooling_" + set.role, "a write flush before each sample slows a working set that fits in the L2",
      write_us > slowest_warm_us,
      lab::format("blocked stream: %.2f us warm (the slowest sample %.2f), %.2f after a write flush (%.2fx), %.2f "
                  "after a read flush (%.2fx); asked: the write flush's median above the slowest warm sample",
                  warm_us, slowest_warm_us, write_us, write_us / warm_us, read_us, read_us / warm_us));
  f.with("warm_us", warm_us).with("slowest_warm_us", slowest_warm_us);
  return f.with("write_flush_us", write_us).with("read_flush_us", read_us);
}

}  // namespace

bool fits_in_l2(const WorkingSetRun& set) { return set.bytes <= set.l2_bytes; }

std::string working_set_name(const WorkingSetRun& set) {
  if (fits_in_l2(set)) return "fits in L2";
  return lab::format("%.1f x the L2", static_cast<double>(set.bytes) / static_cast<double>(set.l2_bytes));
}

double median_us(const WorkingSetRun& set, Preceding preceding, Placement placement) {
  const CacheCase* c = find_case(set, preceding, placement);
  return c == nullptr ? std::nan("") : 1000.0 * lab::median_or_nan(c->ms);
}

std::vector<lab::Finding> cache_checks(const CacheRun& run) {
  std::vector<lab::Finding> findings{cases_correct(run)};
  for (const WorkingSetRun* set : {&run.small, &run.large})
    if (fits_in_l2(*set)) findings.push_back(cooling(*set));
  return findings;
}

// --- 2. The SM clock ------------------------------------------------------------------

namespace {

// NVML's clock event reasons that slow the clock under load (nvml.h: nvmlClocksEventReason*).
std::string reason_names(unsigned long long mask) {
  const std::pair<unsigned long long, const char*> names[] = {{0x4, "software power cap"},
                                                              {0x8, "hardware slowdown"},
                                                              {0x20, "software thermal slowdown"},
                                                              {0x40, "hardware thermal slowdown"},
                                                              {0x80, "hardware power brake"}};
  std::string text;
  for (const auto& [bit, name] : names)
    if ((mask & bit) != 0) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

// NVML's slowdown reasons during the load, as read: which, in how many of the readings that have them, from when.
struct LoadReasons {
  unsigned long long mask = 0;  // every bit NVML gave during the load
  std::size_t read = 0, with_reason = 0;
  double first_ms = 0;  // when the first reading with a slowdown reason came
};

LoadReasons load_reasons(const std::vector<NvmlSample>& load) {
  LoadReasons r;
  for (const NvmlSample& s : load) {
    if (!s.reasons_known) continue;
    ++r.read;
    r.mask |= s.clock_reasons;
    if (!reason_names(s.clock_reasons).empty() && r.with_reason++ == 0) r.first_ms = s.at_ms;
  }
  return r;
}

// Did the load lower the in-kernel clock by more than the method's error and 1 %? With NVML's reasons.
lab::Finding load_clock(const ClockRun& run) {
  const lab::Summary idle = lab::summarize(run.idle_kernel_mhz);
  const lab::Summary load = lab::summarize(run.load_kernel_mhz);
  const LoadReasons r = load_reasons(run.load_nvml);
  const double change = std::max(0.01 * idle.median, method_error_mhz(run));
  const bool moved = load.median < idle.median - change;
  lab::Finding f = lab::named_observation(
      moved ? "load_clock.moved" : "load_clock.unmoved",
      moved ? "the load moved the clock" : "the load did not move the clock",
      lab::format("a median of %.0f MHz under load against %.0f MHz at idle: ", load.median, idle.median) +
          (moved ? lab::format("%.0f MHz lower", idle.median - load.median)
                 : lab::format("within %.0f MHz (1 %% or the method's error, the larger)", change)) +
          "; NVML's clock-event reasons during the load: " +
          (r.with_reason == 0 ? lab::format("none in %zu readings", r.read)
                              : reason_names(r.mask) + lab::format(" in %zu of %zu readings (from %.0f ms)",
                                                                   r.with_reason, r.read, r.first_ms)));
  f.with("idle_mhz", idle.median).with("load_mhz", load.median);
  f.with("change_mhz", change).with("clock_reasons", r.mask);
  return f.with("readings_with_reason", r.with_reason).with("nvml_readings", r.read);
}

}  // namespace

double timer_error_mhz(const ClockRun& run) {
  return run.probe_ms > 0 ? lab::median_or_nan(run.idle_kernel_mhz) * run.timer_step_ns / (run.probe_ms * 1e6) : 0.0;
}

double method_error_mhz(const ClockRun& run) {
  const lab::Summary idle = lab::summarize(run.idle_kernel_mhz);
  return std::max(idle.max - idle.min, timer_error_mhz(run));
}

std::size_t below_rule(const std::vector<double>& mhz, double nominal_mhz) {
  return static_cast<std::size_t>(
      std::count_if(mhz.begin(), mhz.end(), [&](double x) { return x < kNvbenchThreshold * nominal_mhz; }));
}

std::vector<lab::Finding> clock_checks(const ClockRun& run) {
  return {lab::correctness_check("load_correct", "the load computed what the CPU computes", run.load_correct,
                                 run.load_detail),
          load_clock(run)};
}

// --- 3. Many samples --------------------------------------------------------------

std::vector<lab::Finding> samples_checks(const SamplesRun& run) {
  return {lab::correctness_check("clocked_correct",
                                 "the clocked kernel computed what the CPU computes, after the samples", run.correct,
                                 lab::format("%lld FMAs per thread, exact", run.steps))};
}

}  // namespace ch07
