#include "findings_host.hpp"

#include <algorithm>
#include <cmath>

#include "vocabulary.hpp"

namespace ch11 {

namespace {

constexpr double kLossMarginPercent = 5.0;  // a long kernel's loss within this of the larger prediction

template <class Way>
const Way* find_named(const std::vector<Way>& ways, const std::string& name) {
  for (const Way& w : ways)
    if (w.name == name) return &w;
  return nullptr;
}

lab::ResultTable::Row& sampled_row(lab::ResultTable& table, const std::string& name, const std::vector<double>& s) {
  lab::ResultTable::Row& row = table.add_row(name);
  if (!s.empty()) row.samples(s, "us");
  return row;
}

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

lab::ResultTable green_table(const GreenRun& run) {
  lab::ResultTable table(
      "green_contexts",
      lab::format("Green contexts: %d of %d SMs asked for the small part, %d given (%d left for the large part)",
                  run.asked_sms, run.sm_count, run.small_sms, run.large_sms),
      "kernel",
      {{"median", "median", "us", 2},
       {"min", "min", "us", 2},
       {"max", "max", "us", 2},
       {"count", "samples", "", 0},
       {"vs_idle", "vs idle", "x", 2},
       {"partition_sms", "SMs given", "", 0},
       {"sms_used", "SMs used", "", 0}});
  const double idle = lab::median_or_nan(run.idle_delay_us);
  sampled_row(table, "urgent_start_idle", run.idle_delay_us)
      .set("partition_sms", static_cast<long long>(run.small_sms));
  sampled_row(table, "urgent_start_green", run.green_delay_us)
      .set("vs_idle", lab::median_or_nan(run.green_delay_us) / idle)
      .set("partition_sms", static_cast<long long>(run.small_sms))
      .set("sms_used", static_cast<long long>(run.urgent_sms_used));
  sampled_row(table, "urgent_start_shared", run.shared_delay_us)
      .set("vs_idle", lab::median_or_nan(run.shared_delay_us) / idle)
      .set("partition_sms", static_cast<long long>(run.sm_count));
  sampled_row(table, "long_all_sms", run.long_all_us).set("partition_sms", static_cast<long long>(run.sm_count));
  sampled_row(table, "long_large_part", run.long_large_us)
      .set("partition_sms", static_cast<long long>(run.large_sms))
      .set("sms_used", static_cast<long long>(run.long_sms_used));
  table.note(run.skipped ? "skipped: " + run.skip_reason
                         : lab::format("urgent_start: events around the urgent kernel (%d blocks of %.0f us) less its "
                                       "blocks' span; vs idle: median / urgent_start_idle's; long: its %d blocks (%d "
                                       "per SM) of %.0f us, first start to last end; minimum part %d SMs, alignment %d",
                                       run.urgent_blocks, run.urgent_block_us, run.long_blocks, run.blocks_per_sm,
                                       run.long_block_us, run.min_partition_sms, run.alignment_sms));
  return table;
}

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

std::vector<lab::Finding> green_findings(const GreenRun& run) {
  if (run.skipped) return {lab::skipped("green_contexts", "green contexts", run.skip_reason)};
  return {green_disjoint(run), green_long_loss(run)};
}

// --- 4. Host work inside a stream -------------------------------------------------------

lab::ResultTable host_chain_table(const HostChainRun& run) {
  lab::ResultTable table("host_chain",
                         lab::format("%d kernels of %.0f us (%d blocks each): the GPU's idle gap between two kernels",
                                     run.kernels, run.kernel_us, run.blocks),
                         "between kernels",
                         {{"median", "gap (median)", "us", 2},
                          {"min", "min", "us", 2},
                          {"max", "max", "us", 2},
                          {"count", "gaps", "", 0},
                          {"above_plain_us", "vs no_host_function", "us", 2},
                          {"per_kernel_us", "per kernel", "us", 2},
                          {"host_calls", "host calls", "", 0}});
  const HostChainVariant* plain = find_named(run.variants, std::string("no_host_function"));
  for (const HostChainVariant& v : run.variants) {
    lab::ResultTable::Row& row = sampled_row(table, v.name, v.gaps_us);
    row.set("per_kernel_us", lab::median_or_nan(v.per_kernel_us)).set("host_calls", v.host_calls);
    if (plain != nullptr && &v != plain && !v.skipped)
      row.set("above_plain_us", lab::median_or_nan(v.gaps_us) - lab::median_or_nan(plain->gaps_us));
  }
  table.note(std::string("gap: kernel k+1's first block start less kernel k's last block end (%globaltimer); "
                         "vs no_host_function: median gap less that way's; ") +
             (run.held ? "each sample queued behind a held stream" : "the stream not held (instrumented)"));
  return table;
}

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

std::vector<lab::Finding> host_chain_findings(const HostChainRun& run) {
  std::vector<lab::Finding> out = {host_chain_order(run)};
  const HostChainVariant* thread = find_named(run.variants, std::string("event_thread"));
  if (thread == nullptr || thread->skipped)
    out.push_back(lab::skipped("event_thread_gap", "a host thread that waits on an event and releases the stream",
                               thread ? thread->skip_reason : "not run"));
  return out;
}

lab::ResultTable host_call_table(const HostCallRun& run) {
  lab::ResultTable table("host_call", "A CUDA call inside a host function, one child process each",
                         "call in the host function",
                         {{"returned", "returned", "", 0}, {"sync_after", "its stream's sync", "", 0}});
  for (const HostCallProbe& p : run.probes) {
    lab::ResultTable::Row& row = table.add_row(p.call);
    row.set("returned", p.finished ? p.returned : "no answer").set("sync_after", p.finished ? p.sync_after : "-");
    if (!p.finished) row.set("why", p.why_not);  // the JSON's: e.g. stopped after the timeout
  }
  table.note(lab::format("each child stopped after %.0f s; its stream: cudaStreamSynchronize after the host function",
                         run.timeout_s));
  return table;
}

std::vector<lab::Finding> host_call_findings(const HostCallRun& run) {
  if (run.skipped) return {lab::skipped("host_calls", "CUDA calls inside a host function", run.skip_reason)};
  return {};
}

// --- 5. A stream that waits without an SM -----------------------------------------------

lab::ResultTable wait_value_table(const WaitValueRun& run) {
  lab::ResultTable table(
      "wait_value",
      lab::format("One full wave (%d blocks of %d threads, %d per SM, %.0f us each) beside a held stream",
                  run.sm_count * run.blocks_per_sm, run.threads, run.blocks_per_sm, run.block_us),
      "the other stream",
      {{"median", "wave (median)", "us", 2},
       {"min", "min", "us", 2},
       {"max", "max", "us", 2},
       {"count", "samples", "", 0},
       {"vs_free_percent", "vs stream_free", "%", 1},
       {"late_blocks", "late blocks (median)", "", 0},
       {"held", "held", "", 0}});
  const WaveWay* free_way = find_named(run.ways, std::string("stream_free"));
  for (const WaveWay& w : run.ways) {
    lab::ResultTable::Row& row = sampled_row(table, w.name, w.wave_us);
    row.set("late_blocks", lab::median_or_nan(w.late_blocks)).set("held", static_cast<long long>(w.held));
    if (free_way != nullptr && &w != free_way)
      row.set("vs_free_percent",
              lab::percent_above(lab::median_or_nan(w.wave_us), lab::median_or_nan(free_way->wave_us)));
  }
  table.note(run.skipped ? "skipped: " + run.skip_reason
                         : "wave: first block start to last block end; vs stream_free: its median against that way's; "
                           "late: blocks that began more than half a block after the first; held: samples whose "
                           "kernel behind the hold began after the wave");
  return table;
}

std::vector<lab::Finding> wait_value_findings(const WaitValueRun& run) {
  const WaveWay* spin = find_named(run.ways, std::string("spin_blocker"));
  const WaveWay* wait = find_named(run.ways, std::string("wait_value"));
  if (run.skipped || !spin || !wait)
    return {lab::skipped("wait_value", "a stream that waits without an SM", run.skip_reason)};
  const bool held = spin->held == spin->samples && wait->held == wait->samples && wait->samples > 0;
  return {lab::correctness_check("stream_held", "both holds kept the kernel behind them waiting", held,
                                 lab::format("held in %d of %d samples (spin), %d of %d (wait-value)", spin->held,
                                             spin->samples, wait->held, wait->samples))
              .with("spin_held_count", spin->held)
              .with("wait_held_count", wait->held)};
}

}  // namespace ch11
