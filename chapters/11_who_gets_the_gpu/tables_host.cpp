#include "tables_host.hpp"

#include <string>

#include "checks_host.hpp"
#include "vocabulary.hpp"

namespace ch11 {

namespace {

lab::ResultTable::Row& sampled_row(lab::ResultTable& table, const std::string& name, const std::vector<double>& s) {
  lab::ResultTable::Row& row = table.add_row(name);
  if (!s.empty()) row.samples(s, "us");
  return row;
}

}  // namespace

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

// --- 5. A stream held by a wait on memory -----------------------------------------------

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

}  // namespace ch11
