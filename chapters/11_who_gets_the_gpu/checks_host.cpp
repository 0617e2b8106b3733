#include "checks_host.hpp"

#include <algorithm>
#include <cmath>

#include "vocabulary.hpp"

namespace ch11 {

namespace {

constexpr double kLossMarginPercent = 5.0;  // a long kernel's loss within this of the larger prediction

}  // namespace

KernelSpan span_of(const BlockRecord* first, std::size_t count) {
  KernelSpan span;
  bool any = false;
  for (std::size_t i = 0; i < count; ++i) {
    const BlockRecord& b = first[i];
    if (!b.complete()) {
      ++span.missing;
      continue;
    }
    span.first_start_ns = any ? std::min(span.first_start_ns, b.start_ns) : b.start_ns;
    span.last_end_ns = any ? std::max(span.last_end_ns, b.end_ns) : b.end_ns;
    any = true;
    span.sms.push_back(b.smid);
  }
  std::sort(span.sms.begin(), span.sms.end());
  span.sms.erase(std::unique(span.sms.begin(), span.sms.end()), span.sms.end());
  return span;
}

int late_blocks(const std::vector<BlockRecord>& records, double after_us) {
  const KernelSpan span = span_of(records.data(), records.size());
  const auto limit = span.first_start_ns + static_cast<unsigned long long>(after_us * 1e3);
  return static_cast<int>(
      std::count_if(records.begin(), records.end(), [limit](const BlockRecord& b) { return b.start_ns > limit; }));
}

ChainGaps chain_gaps(const std::vector<BlockRecord>& records, int kernels, int blocks) {
  ChainGaps g;
  if (kernels < 1 || blocks < 1 || records.size() != static_cast<std::size_t>(kernels) * blocks) return g;
  std::vector<KernelSpan> spans;
  for (int k = 0; k < kernels; ++k) {
    spans.push_back(span_of(records.data() + static_cast<std::size_t>(k) * blocks, static_cast<std::size_t>(blocks)));
    g.missing += spans.back().missing;
  }
  // Differences as signed integers first: a double holds a %globaltimer reading (~1.7e18 ns) only to 256 ns.
  const auto us = [](unsigned long long later, unsigned long long earlier) {
    return static_cast<double>(static_cast<long long>(later - earlier)) * 1e-3;  // < 0 when later < earlier
  };
  for (int k = 0; k + 1 < kernels; ++k) g.gaps_us.push_back(us(spans[k + 1].first_start_ns, spans[k].last_end_ns));
  g.per_kernel_us = us(spans.back().last_end_ns, spans[0].first_start_ns) / kernels;
  return g;
}

// --- 3. Green contexts ------------------------------------------------------------------

static lab::Finding green_disjoint(const GreenRun& run) {
  const bool passed = run.shared_sms == 0 && run.long_sms_used <= run.large_sms && run.urgent_sms_used <= run.small_sms;
  return lab::correctness_check(
             "green_disjoint", "each kernel ran only on its green context's SMs", passed,
             lab::format("the urgent kernel used %d SMs (%d given), the long kernel %d (%d given), "
                         "%d SMs used by both",
                         run.urgent_sms_used, run.small_sms, run.long_sms_used, run.large_sms, run.shared_sms))
      .with("urgent_sms_used", run.urgent_sms_used)
      .with("long_sms_used", run.long_sms_used)
      .with("shared_sms", run.shared_sms);
}

static lab::Finding green_long_loss(const GreenRun& run) {
  const double all = lab::median_or_nan(run.long_all_us), large = lab::median_or_nan(run.long_large_us);
  const double loss = lab::percent_above(large, all);
  const double share = lab::percent_above(run.sm_count, run.large_sms);  // fewer SMs, proportionally slower
  const auto waves = [&](int sms) { return std::ceil(run.long_blocks / static_cast<double>(run.blocks_per_sm * sms)); };
  const double wave_loss = run.large_sms > 0 ? lab::percent_above(waves(run.large_sms), waves(run.sm_count)) : NAN;
  const bool as_predicted = loss <= std::max(share, wave_loss) + kLossMarginPercent;
  return lab::named_observation(
             as_predicted ? "green_long_loss.as_predicted" : "green_long_loss.beyond",
             "the long kernel in the large part",
             lab::format("%.0f us against %.0f us on every SM: %+.1f %%, with %.1f %% fewer SMs (the SM share "
                         "predicts %+.1f %%, whole waves %+.1f %%)",
                         large, all, loss, 100.0 - lab::percent_of(run.large_sms, run.sm_count), share, wave_loss))
      .with("long_all_us", all)
      .with("long_large_us", large)
      .with("loss_percent", loss)
      .with("share_percent", share)
      .with("wave_percent", wave_loss);
}

std::vector<lab::Finding> green_checks(const GreenRun& run) {
  if (run.skipped) return {lab::skipped("green_contexts", "green contexts", run.skip_reason)};
  return {green_disjoint(run), green_long_loss(run)};
}

// --- 4. Host work inside a stream -------------------------------------------------------

static lab::Finding host_chain_order(const HostChainRun& run) {
  int missing = 0, early = 0, gaps = 0;
  long long calls = 0, expected = 0;
  for (const HostChainVariant& v : run.variants) {
    missing += v.missing;
    calls += v.host_calls;
    expected += v.host_calls_expected;
    gaps += static_cast<int>(v.gaps_us.size());
    early += static_cast<int>(std::count_if(v.gaps_us.begin(), v.gaps_us.end(), [](double g) { return g < 0; }));
  }
  return lab::correctness_check("host_chain_order",
                                "every kernel began after the one before it (stream order), every host call ran",
                                gaps > 0 && missing == 0 && early == 0 && calls == expected,
                                lab::format("%d of %d pairs began early, %d block records missing, %lld of %lld host "
                                            "calls ran",
                                            early, gaps, missing, calls, expected))
      .with("early_count", early)
      .with("missing_count", missing)
      .with("host_calls", static_cast<double>(calls));
}

std::vector<lab::Finding> host_chain_checks(const HostChainRun& run) {
  std::vector<lab::Finding> out = {host_chain_order(run)};
  const HostChainVariant* thread = find_named(run.variants, std::string("event_thread"));
  if (thread == nullptr || thread->skipped)
    out.push_back(lab::skipped("event_thread_gap", "a host thread that waits on an event and releases the stream",
                               thread ? thread->skip_reason : "not run"));
  return out;
}

std::vector<lab::Finding> host_call_checks(const HostCallRun& run) {
  if (run.skipped) return {lab::skipped("host_calls", "CUDA calls inside a host function", run.skip_reason)};
  return {};
}

// --- 5. A stream held by a wait on memory -----------------------------------------------

std::vector<lab::Finding> wait_value_checks(const WaitValueRun& run) {
  const WaveWay* spin = find_named(run.ways, std::string("spin_blocker"));
  const WaveWay* wait = find_named(run.ways, std::string("wait_value"));
  if (run.skipped || !spin || !wait)
    return {lab::skipped("wait_value", "a stream held by a wait on memory", run.skip_reason)};
  const bool held = spin->held == spin->samples && wait->held == wait->samples && wait->samples > 0;
  return {lab::correctness_check("stream_held", "both holds kept the kernel behind them waiting", held,
                                 lab::format("held in %d of %d samples (spin), %d of %d (wait-value)", spin->held,
                                             spin->samples, wait->held, wait->samples))
              .with("spin_held_count", spin->held)
              .with("wait_held_count", wait->held)};
}

}  // namespace ch11
