// Chapter 11, sections 3 to 5 (green contexts, host work in a stream, a stream
// held by a wait on memory) on hand-made data: the block records' reading,
// every branch of every finding in chapters/11_who_gets_the_gpu/checks_host.hpp
// (id, verdict, numbers) and the tables' cells. No GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "checks_host.hpp"
#include "support/findings_support.hpp"
#include "tables_host.hpp"

namespace {

using lab_test::by_id;
using lab_test::cell;
using lab_test::has_id;
using lab_test::value;

constexpr unsigned long long kOrigin = 1'700'000'000'000'000'000ull;  // a %globaltimer reading

// A record that began @p start_us after kOrigin, ran @p length_us, on SM @p sm.
ch11::BlockRecord record(double start_us, double length_us, unsigned sm) {
  const auto start = kOrigin + static_cast<unsigned long long>(start_us * 1e3);
  return {start, start + static_cast<unsigned long long>(length_us * 1e3), sm, 1u};
}

// --- 3 ---

ch11::GreenRun green_run() {
  ch11::GreenRun run;
  run.sm_count = 132;
  run.asked_sms = 12;
  run.small_sms = 16;
  run.large_sms = 116;
  run.min_partition_sms = 8;
  run.alignment_sms = 8;
  run.long_blocks = 4 * 2 * 132;
  run.blocks_per_sm = 2;
  run.long_block_us = 200;
  run.urgent_blocks = 16;
  run.urgent_block_us = 5;
  run.idle_delay_us = {4.0, 4.2, 3.9};
  run.green_delay_us = {5.0, 5.5, 4.8};
  run.shared_delay_us = {150.0, 140.0, 160.0};
  run.long_all_us = {800.0, 801.0, 799.0};
  run.long_large_us = {1000.0, 1001.0, 999.0};  // 5 waves against 4: +25 %
  run.long_sms_used = 116;
  run.urgent_sms_used = 16;
  return run;
}

// --- 4 ---

ch11::HostChainVariant chain_variant(const std::string& name, double gap_us, long long calls) {
  ch11::HostChainVariant v;
  v.name = name;
  v.gaps_us = {gap_us, gap_us + 0.1, gap_us - 0.1};
  v.per_kernel_us = {20.0 + gap_us};
  v.host_calls = calls;
  v.host_calls_expected = calls;
  return v;
}

ch11::HostChainRun chain_run(double plain_gap, double host_gap, double thread_gap) {
  ch11::HostChainRun run;
  run.kernels = 4;
  run.blocks = 132;
  run.kernel_us = 20;
  run.variants = {chain_variant("no_host_function", plain_gap, 0), chain_variant("host_function", host_gap, 3),
                  chain_variant("event_thread", thread_gap, 3)};
  return run;
}

// --- 5 ---

ch11::WaveWay wave_way(const std::string& name, double us, int held) {
  ch11::WaveWay w;
  w.name = name;
  w.wave_us = {us, us + 1.0, us - 1.0};
  w.late_blocks = {us > 300 ? 1.0 : 0.0};
  w.held = held;
  w.samples = 3;
  return w;
}

ch11::WaitValueRun wait_run(double free_us, double spin_us, double wait_us, int held = 3) {
  ch11::WaitValueRun run;
  run.sm_count = 132;
  run.blocks_per_sm = 2;
  run.threads = 1024;
  run.block_us = 200;
  run.ways = {wave_way("stream_free", free_us, 0), wave_way("spin_blocker", spin_us, held),
              wave_way("wait_value", wait_us, 3)};
  return run;
}

}  // namespace

TEST_CASE("ch11 records: a kernel's span, its SMs, a missing block and late blocks") {
  const std::vector<ch11::BlockRecord> r = {record(0, 10, 3), record(2, 10, 1), record(25, 10, 3), {}};
  const ch11::KernelSpan s = ch11::span_of(r.data(), r.size());
  CHECK(s.us() == doctest::Approx(35.0));
  CHECK(s.missing == 1);
  CHECK(s.sms == std::vector<unsigned>{1, 3});
  CHECK(ch11::late_blocks({r[0], r[1], r[2]}, 5.0) == 1);
}

TEST_CASE("ch11 records: a chain's gaps, and a pair that overlapped gives a negative gap") {
  // Kernel 0 blocks end at 10 and 11 us; kernel 1 starts at 13 us (gap 2), ends 23; kernel 2 starts at 22 (-1).
  const std::vector<ch11::BlockRecord> r = {record(0, 10, 0),  record(1, 10, 1),  record(13, 10, 0),
                                            record(13, 10, 1), record(22, 10, 0), record(22, 10, 1)};
  const ch11::ChainGaps g = ch11::chain_gaps(r, 3, 2);
  REQUIRE(g.gaps_us.size() == 2);
  CHECK(g.gaps_us[0] == doctest::Approx(2.0));
  CHECK(g.gaps_us[1] == doctest::Approx(-1.0));
  CHECK(g.per_kernel_us == doctest::Approx(32.0 / 3));
  CHECK(ch11::chain_gaps(r, 2, 2).gaps_us.empty());  // sizes that disagree: nothing read
}

TEST_CASE("ch11 green: disjoint parts, a loss as the waves predict, the urgent kernel against idle") {
  const ch11::GreenRun run = green_run();
  const auto f = ch11::green_checks(run);
  CHECK(by_id(f, "green_disjoint").kind == lab::Finding::Kind::correctness);
  CHECK(by_id(f, "green_disjoint").passed);
  CHECK(by_id(f, "green_long_loss").id == "green_long_loss.as_predicted");
  CHECK(value(f, "green_long_loss", "loss_percent") == doctest::Approx(25.0));
  CHECK(value(f, "green_long_loss", "wave_percent") == doctest::Approx(25.0));
  CHECK(value(f, "green_long_loss", "share_percent") == doctest::Approx(100.0 * 16 / 116));
  CHECK(by_id(f, "green_long_loss").kind == lab::Finding::Kind::observation);
  const lab::ResultTable t = ch11::green_table(run);
  CHECK(cell(t, "urgent_start_shared", "median") == doctest::Approx(150.0));
  CHECK(cell(t, "urgent_start_green", "vs_idle") == doctest::Approx(5.0 / 4.0));
  CHECK(cell(t, "urgent_start_shared", "vs_idle") == doctest::Approx(150.0 / 4.0));
  CHECK(t.row("urgent_start_idle").get("vs_idle").is_none());
  CHECK(cell(t, "long_large_part", "partition_sms") == 116);
}

TEST_CASE("ch11 green: shared SMs fail, a loss beyond the prediction, and a skip") {
  ch11::GreenRun run = green_run();
  run.shared_sms = 2;
  run.long_large_us = {1200.0};
  run.green_delay_us = {9.0};
  const auto f = ch11::green_checks(run);
  CHECK_FALSE(by_id(f, "green_disjoint").passed);
  CHECK(value(f, "green_disjoint", "shared_sms") == 2);
  CHECK(by_id(f, "green_long_loss").id == "green_long_loss.beyond");
  CHECK(value(f, "green_long_loss", "loss_percent") == doctest::Approx(50.0));
  run = green_run();
  run.urgent_sms_used = 17;  // more SMs than the part was given
  CHECK_FALSE(by_id(ch11::green_checks(run), "green_disjoint").passed);
  run.skipped = true;
  run.skip_reason = "no green contexts";
  const auto s = ch11::green_checks(run);
  REQUIRE(s.size() == 1);
  CHECK(s[0].id == "green_contexts.skipped");
}

TEST_CASE("ch11 host chain: in order, each way's gap against no host function") {
  const auto f = ch11::host_chain_checks(chain_run(0.8, 12.0, 6.0));
  CHECK(by_id(f, "host_chain_order").passed);
  CHECK(by_id(f, "host_chain_order").kind == lab::Finding::Kind::correctness);
  CHECK(value(f, "host_chain_order", "host_calls") == 6);
  CHECK_FALSE(has_id(f, "event_thread_gap"));
  const lab::ResultTable t = ch11::host_chain_table(chain_run(0.8, 12.0, 6.0));
  CHECK(cell(t, "host_function", "median") == doctest::Approx(12.0));
  CHECK(cell(t, "host_function", "above_plain_us") == doctest::Approx(11.2));
  CHECK(cell(t, "event_thread", "above_plain_us") == doctest::Approx(5.2));
  CHECK(t.row("no_host_function").get("above_plain_us").is_none());
  CHECK(cell(t, "event_thread", "host_calls") == 3);
}

TEST_CASE("ch11 host chain: the third way skipped, and out of order") {
  ch11::HostChainRun run = chain_run(0.8, 12.0, 6.0);
  run.variants[2].skipped = true;
  run.variants[2].skip_reason = "no stream memory operations";
  CHECK(by_id(ch11::host_chain_checks(run), "event_thread_gap").id == "event_thread_gap.skipped");
  CHECK(ch11::host_chain_table(run).row("event_thread").get("above_plain_us").is_none());
  run = chain_run(0.8, 12.0, 6.0);
  run.variants[0].gaps_us.push_back(-0.5);  // a kernel that began before the one before it ended
  CHECK_FALSE(by_id(ch11::host_chain_checks(run), "host_chain_order").passed);
  CHECK(value(ch11::host_chain_checks(run), "host_chain_order", "early_count") == 1);
  run = chain_run(0.8, 12.0, 6.0);
  run.variants[1].host_calls = 2;  // a host function that never ran
  CHECK_FALSE(by_id(ch11::host_chain_checks(run), "host_chain_order").passed);
  run = chain_run(0.8, 12.0, 6.0);
  run.variants[1].missing = 1;
  CHECK_FALSE(by_id(ch11::host_chain_checks(run), "host_chain_order").passed);
}

TEST_CASE("ch11 wait value: held, each wave against the free stream's") {
  const ch11::WaitValueRun run = wait_run(200.0, 400.0, 201.0);
  const auto f = ch11::wait_value_checks(run);
  CHECK(by_id(f, "stream_held").passed);
  CHECK(by_id(f, "stream_held").kind == lab::Finding::Kind::correctness);
  CHECK(f.size() == 1);
  const lab::ResultTable t = ch11::wait_value_table(run);
  CHECK(cell(t, "spin_blocker", "vs_free_percent") == doctest::Approx(100.0));
  CHECK(cell(t, "wait_value", "vs_free_percent") == doctest::Approx(0.5));
  CHECK(t.row("stream_free").get("vs_free_percent").is_none());
  CHECK(cell(t, "spin_blocker", "late_blocks") == 1);
  CHECK(cell(t, "wait_value", "held") == 3);
}

TEST_CASE("ch11 wait value: not held, and a skip") {
  CHECK_FALSE(by_id(ch11::wait_value_checks(wait_run(200.0, 400.0, 201.0, 2)), "stream_held").passed);
  ch11::WaitValueRun run = wait_run(200.0, 400.0, 201.0);
  run.skipped = true;
  run.skip_reason = "instrumented";
  const auto s = ch11::wait_value_checks(run);
  REQUIRE(s.size() == 1);
  CHECK(s[0].id == "wait_value.skipped");
  CHECK_FALSE(has_id(s, "stream_held"));
}

// --- 4. CUDA calls inside a host function -----------------------------------------------

namespace {

ch11::HostCallProbe call_probe(const std::string& call, const std::string& returned, bool finished = true) {
  ch11::HostCallProbe p;
  p.call = call;
  p.finished = finished;
  if (finished) {
    p.returned = returned;
    p.sync_after = "cudaSuccess";
  } else {
    p.why_not = "did not finish in 5 s";
  }
  return p;
}

ch11::HostCallRun call_run(std::vector<ch11::HostCallProbe> probes) {
  ch11::HostCallRun run;
  run.timeout_s = 5;
  run.probes = std::move(probes);
  return run;
}

}  // namespace

TEST_CASE("host_calls: nothing when the children ran (the table holds the answers), skipped when not") {
  CHECK(ch11::host_call_checks(call_run({call_probe("stream_query", "cudaErrorNotPermitted")})).empty());
  ch11::HostCallRun skipped;
  skipped.skipped = true;
  skipped.skip_reason = "instrumented";
  CHECK(by_id(ch11::host_call_checks(skipped), "host_calls").id == "host_calls.skipped");
}

TEST_CASE("host_call_table: what each call returned, or no answer") {
  const lab::ResultTable t = ch11::host_call_table(
      call_run({call_probe("malloc", "cudaErrorNotPermitted"), call_probe("sync_own_stream", "", false)}));
  CHECK(t.id() == "host_call");
  REQUIRE(t.rows().size() == 2);
  CHECK(t.row("malloc").get("returned").text() == "cudaErrorNotPermitted");
  CHECK(t.row("sync_own_stream").get("returned").text() == "no answer");
  CHECK(t.row("sync_own_stream").get("why").text() == "did not finish in 5 s");
}
