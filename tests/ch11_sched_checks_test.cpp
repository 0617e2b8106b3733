// Chapter 11, sections 1, 2 and 6 on hand-made data: every branch of every
// finding in chapters/11_who_gets_the_gpu/checks_sched.hpp (id, verdict,
// numbers), the preemption reading of block records, and the tables' cells. No GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "checks_sched.hpp"
#include "support/findings_support.hpp"
#include "tables_sched.hpp"

namespace {

using lab_test::by_id;
using lab_test::has_id;
using lab_test::value;

constexpr unsigned long long kEpoch = 1'700'000'000'000'000'000ull;  // a %globaltimer reading: ns since 1970

lab::BlockRecord block(double start_us, double end_us, unsigned int sm) {
  return {kEpoch + static_cast<unsigned long long>(start_us * 1e3),
          kEpoch + static_cast<unsigned long long>(end_us * 1e3), sm, 1};
}

// --- 1 ---

// One recording launch of @p blocks blocks on 2 SMs spanning @p span_us.
std::vector<lab::BlockRecord> launch(int blocks, double span_us) {
  std::vector<lab::BlockRecord> r;
  for (int i = 0; i < blocks; ++i)
    r.push_back(block(i == blocks - 1 ? span_us - 1.0 : 0.1 * i, i == blocks - 1 ? span_us : 0.1 * i + 1.0,
                      static_cast<unsigned>(i % 2)));
  return r;
}

// Three samples: CUPTI reads 3.00 us recording, 2.90 us not; spans @p span_us; events 4.2 us.
ch11::BlockTimelineRun timeline(double span_us, bool cupti = true) {
  ch11::BlockTimelineRun run;
  run.n = 1024;
  run.blocks = 4;
  run.threads = 256;
  if (cupti) {
    run.plain_cupti_us = {2.9, 2.9, 2.9};
    run.recorded_cupti_us = {3.0, 3.0, 3.0};
  } else {
    run.cupti_missing = "a profiler holds CUPTI";
  }
  run.plain_events_us = {4.0, 4.0, 4.0};
  run.recorded_events_us = {4.2, 4.2, 4.2};
  run.last = launch(4, span_us);
  run.spans = {lab::summarize_blocks(run.last), lab::summarize_blocks(run.last), lab::summarize_blocks(run.last)};
  run.result = lab_test::correct();
  return run;
}

// --- 2 ---

// A case on 2 SMs holding 2 long blocks each (0-200 us, then 200-400 us); urgent
// blocks start at @p urgent_start_us on SMs 0 and 1 and run 5 us.
ch11::UrgentCase loaded_case(const std::string& name, int priority, double delay_us, double urgent_start_us) {
  ch11::UrgentCase c;
  c.name = name;
  c.priority = priority;
  c.delay_us = {delay_us, delay_us + 1.0, delay_us - 1.0};
  c.launched_after_us = {300.0, 300.0, 300.0};
  for (unsigned int sm : {0u, 1u})
    for (int slot = 0; slot < 2; ++slot) {
      c.long_run.push_back(block(0, 200, sm));
      c.long_run.push_back(block(200, 400, sm));
    }
  c.urgent = {block(urgent_start_us, urgent_start_us + 5, 0), block(urgent_start_us, urgent_start_us + 5, 1)};
  return c;
}

ch11::PriorityRun priority_run(double equal_us, double greatest_us, bool attribute = true, int greatest = -5) {
  ch11::PriorityRun run;
  run.least = 0;
  run.greatest = greatest;
  run.threads = 1024;
  run.resident_per_sm = 2;
  run.long_blocks = 8;
  run.long_waves = 2;  // on 2 SMs
  run.long_block_us = 200;
  run.urgent_blocks = 2;
  run.urgent_block_us = 5;
  ch11::UrgentCase idle;
  idle.name = "idle";
  idle.loaded = false;
  idle.priority = greatest;
  idle.delay_us = {6.0, 6.5, 7.0};
  idle.launched_after_us = {NAN, NAN, NAN};
  idle.urgent = {block(0, 5, 0), block(0, 5, 1)};
  run.cases = {idle, loaded_case("equal_priority", 0, equal_us, 400.5),
               loaded_case("greatest_priority", greatest, greatest_us, 400.5)};
  if (attribute) run.cases.push_back(loaded_case("launch_attribute", greatest, greatest_us + 2.0, 400.5));
  if (!attribute) run.attribute_missing = "the driver is too old";
  return run;
}

}  // namespace

// --- 1. A block-level timeline -----------------------------------------------------------------

TEST_CASE("recorder_spans_us: one span per recording launch, first start to last end") {
  const std::vector<double> spans = ch11::recorder_spans_us(timeline(3.05));
  REQUIRE(spans.size() == 3);
  CHECK(spans[0] == doctest::Approx(3.05));
}

TEST_CASE("block_add_correct and block_records_complete: pass on right data, fail on a wrong c or a lost record") {
  ch11::BlockTimelineRun run = timeline(3.05);
  auto f = ch11::block_timeline_checks(run);
  CHECK(by_id(f, "block_add_correct").passed);
  CHECK(by_id(f, "block_records_complete").passed);
  CHECK(value(f, "block_records_complete", "written_count") == 12);
  CHECK(value(f, "block_records_complete", "expected_count") == 12);

  run.result = lab_test::wrong();
  std::vector<lab::BlockRecord> lost = run.last;
  lost[2] = lab::BlockRecord{};  // a block that never wrote its record
  run.spans[1] = lab::summarize_blocks(lost);
  f = ch11::block_timeline_checks(run);
  CHECK_FALSE(by_id(f, "block_add_correct").passed);
  CHECK(value(f, "block_add_correct", "mismatches_count") == 3);
  CHECK_FALSE(by_id(f, "block_records_complete").passed);
  CHECK(value(f, "block_records_complete", "missing_count") == 1);

  run = timeline(3.05);
  lost = run.last;
  lost.pop_back();  // a launch read with fewer records than blocks
  run.spans[0] = lab::summarize_blocks(lost);
  CHECK_FALSE(by_id(ch11::block_timeline_checks(run), "block_records_complete").passed);
}

TEST_CASE("recorder_vs_cupti: the span shorter than CUPTI's duration in every launch, not shorter, skipped") {
  auto f = ch11::block_timeline_checks(timeline(2.2));  // CUPTI 3.00 us: the span 0.8 us shorter
  CHECK(by_id(f, "recorder_vs_cupti").id == "recorder_vs_cupti.shorter");
  CHECK(by_id(f, "recorder_vs_cupti").kind == lab::Finding::Kind::observation);
  CHECK(value(f, "recorder_vs_cupti", "launches_shorter") == 3);
  CHECK(value(f, "recorder_vs_cupti", "shorter_by_us") == doctest::Approx(0.8));
  CHECK(value(f, "recorder_vs_cupti", "cupti_us") == doctest::Approx(3.0));

  f = ch11::block_timeline_checks(timeline(3.5));  // longer than CUPTI's duration
  CHECK(by_id(f, "recorder_vs_cupti").id == "recorder_vs_cupti.not_shorter");
  CHECK(value(f, "recorder_vs_cupti", "launches_shorter") == 0);
  CHECK(value(f, "recorder_vs_cupti", "shorter_by_us") == doctest::Approx(-0.5));

  f = ch11::block_timeline_checks(timeline(3.05, false));
  CHECK(by_id(f, "recorder_vs_cupti").id == "recorder_vs_cupti.skipped");
}

TEST_CASE("block_timer_table and block_timeline_table: every way of timing, every launch read") {
  const lab::ResultTable timer = ch11::block_timer_table(timeline(3.05));
  CHECK(timer.id() == "block_timer");
  CHECK(timer.rows().size() == 5);
  CHECK(lab_test::cell(timer, "CUPTI, recording", "median") == doctest::Approx(3.0));
  CHECK(lab_test::cell(timer, "block recorder's span", "median") == doctest::Approx(3.05));
  // Each recording row against the same timer not recording, in % of its median.
  CHECK(lab_test::cell(timer, "CUPTI, recording", "vs_plain_percent") == doctest::Approx(100.0 * 0.1 / 2.9));
  CHECK(lab_test::cell(timer, "events, recording", "vs_plain_percent") == doctest::Approx(5.0));
  CHECK(timer.row("CUPTI, not recording").get("vs_plain_percent").is_none());
  const lab::ResultTable no_cupti = ch11::block_timer_table(timeline(3.05, false));
  CHECK(no_cupti.rows().size() == 3);  // no CUPTI rows
  CHECK(lab_test::cell(no_cupti, "events, recording", "vs_plain_percent") == doctest::Approx(5.0));

  const lab::ResultTable blocks = ch11::block_timeline_table(timeline(3.05));
  CHECK(blocks.id() == "block_timeline");
  REQUIRE(blocks.rows().size() == 3);
  CHECK(lab_test::cell(blocks, "sample 1", "blocks") == 4);
  CHECK(lab_test::cell(blocks, "sample 1", "sms") == 2);
  CHECK(lab_test::cell(blocks, "sample 1", "max_per_sm") == 2);
  CHECK(lab_test::cell(blocks, "sample 1", "span_us") == doctest::Approx(3.05));
  // The last launch's records, for the figures: in us after its first start.
  CHECK(blocks.row("sample 3").get("block_end_us").numbers().back() == doctest::Approx(3.05));
  CHECK(blocks.row("sample 3").get("block_sm").numbers().size() == 4);
  CHECK(blocks.row("sample 1").get("block_sm").is_none());
}

// --- 2. Stream priorities ------------------------------------------------------------------------

TEST_CASE("read_preemption: an urgent block on an SM still full of long blocks counts; one after an end does not") {
  ch11::UrgentCase after = loaded_case("greatest_priority", -5, 1, 400.5);
  ch11::PreemptionSummary p = ch11::read_preemption(after, 2);
  CHECK(p.urgent_blocks == 2);
  CHECK(p.started_on_full_sm == 0);
  CHECK(p.slot_wait_us == doctest::Approx(0.5));
  CHECK(p.longest_long_us == doctest::Approx(200.0));
  CHECK(p.sms == 2);

  const ch11::UrgentCase inside = loaded_case("greatest_priority", -5, 1, 250.0);  // both long blocks still run
  p = ch11::read_preemption(inside, 2);
  CHECK(p.started_on_full_sm == 2);
  CHECK(p.slot_wait_us == doctest::Approx(50.0));                   // the first wave ended at 200 us
  CHECK(ch11::read_preemption(inside, 3).started_on_full_sm == 0);  // an SM that holds 3 was not full
}

TEST_CASE("priority_records_complete: fails when a block recorded nothing") {
  ch11::PriorityRun run = priority_run(500, 100);
  CHECK(by_id(ch11::priority_checks(run), "priority_records_complete").passed);
  run.cases[1].missing = 3;
  const auto f = ch11::priority_checks(run);
  CHECK_FALSE(by_id(f, "priority_records_complete").passed);
  CHECK(value(f, "priority_records_complete", "missing_count") == 3);
}

TEST_CASE("priority_shortens_delay: an observation, shorter, not shorter, or one level") {
  auto f = ch11::priority_checks(priority_run(500, 100));
  CHECK(by_id(f, "priority_shortens_delay").id == "priority_shortens_delay.shorter");
  CHECK(by_id(f, "priority_shortens_delay").kind == lab::Finding::Kind::observation);  // priorities are a hint
  CHECK(value(f, "priority_shortens_delay", "greatest_us") == doctest::Approx(100));
  CHECK(value(f, "priority_shortens_delay", "equal_us") == doctest::Approx(500));
  CHECK(value(f, "priority_shortens_delay", "ratio") == doctest::Approx(0.2));

  f = ch11::priority_checks(priority_run(500, 520));
  CHECK(by_id(f, "priority_shortens_delay").id == "priority_shortens_delay.not_shorter");
  CHECK(by_id(f, "priority_shortens_delay").passed);  // shown, not judged

  f = ch11::priority_checks(priority_run(500, 100, true, 0));
  CHECK(by_id(f, "priority_shortens_delay").id == "priority_shortens_delay.single_level");
}

TEST_CASE("launch_attribute_priority: skipped with the reason when that case did not run, else absent") {
  CHECK_FALSE(has_id(ch11::priority_checks(priority_run(500, 100)), "launch_attribute_priority"));
  const auto f = ch11::priority_checks(priority_run(500, 100, false));
  CHECK(by_id(f, "launch_attribute_priority").id == "launch_attribute_priority.skipped");
  CHECK(lab_test::contains(by_id(f, "launch_attribute_priority").text, "the driver is too old"));
}

TEST_CASE("priority_checks: a skipped run says only why") {
  ch11::PriorityRun run;
  run.skipped = true;
  run.skip_reason = "instrumented";
  const auto f = ch11::priority_checks(run);
  REQUIRE(f.size() == 1);
  CHECK(f[0].id == "priorities.skipped");
  CHECK_FALSE(has_id(f, "priority_records_complete"));
}

TEST_CASE("priority_table: one row per case with its delay, SMs and blocks on full SMs") {
  const lab::ResultTable t = ch11::priority_table(priority_run(500, 100));
  CHECK(t.id() == "priority_urgent");
  REQUIRE(t.rows().size() == 4);
  CHECK(lab_test::cell(t, "equal_priority", "median") == doctest::Approx(500));
  CHECK(lab_test::cell(t, "equal_priority", "vs_equal") == doctest::Approx(1.0));
  CHECK(lab_test::cell(t, "greatest_priority", "vs_equal") == doctest::Approx(0.2));
  CHECK(lab_test::cell(t, "launch_attribute", "vs_equal") == doctest::Approx(102.0 / 500));
  CHECK(lab_test::cell(t, "idle", "vs_equal") == doctest::Approx(6.5 / 500));
  CHECK(lab_test::cell(t, "greatest_priority", "longest_long_us") == doctest::Approx(200));
  CHECK(lab_test::cell(t, "greatest_priority", "priority") == -5);
  CHECK(lab_test::cell(t, "greatest_priority", "sms") == 2);
  CHECK(lab_test::cell(t, "greatest_priority", "started_on_full_sm") == 0);
  CHECK(lab_test::cell(t, "equal_priority", "launched_after_us") == doctest::Approx(300));
  CHECK(t.row("greatest_priority").get("sm_list").text() == "0-1");
  // The last sample's blocks, for the figures: in us after the long kernel's first start, and the launch.
  CHECK(t.row("greatest_priority").get("urgent_start_us").numbers() == std::vector<double>{400.5, 400.5});
  CHECK(t.row("greatest_priority").get("urgent_sm").numbers() == std::vector<double>{0, 1});
  CHECK(t.row("greatest_priority").get("long_end_us").numbers().size() == 8);
  CHECK(lab_test::cell(t, "greatest_priority", "launch_us") == doctest::Approx(300));
  CHECK(lab_test::cell(t, "idle", "launch_us") == doctest::Approx(-7.0));  // the last sample's delay before its start
  CHECK(t.row("idle").get("long_sm").numbers().empty());
}

// --- 6. Ranges a profiler shows -------------------------------------------------------------------

TEST_CASE("nvtx_table: the cost per pair and what the push returned") {
  ch11::NvtxRun run;
  run.pairs_per_sample = 1000;
  run.per_range_ns = {3.0, 2.0, 4.0};
  run.push_result = -2;
  run.pop_result = -2;
  const lab::ResultTable t = ch11::nvtx_table(run);
  CHECK(t.id() == "nvtx_cost");
  CHECK(lab_test::cell(t, "push + pop", "median") == doctest::Approx(3.0));
  CHECK(t.row("push + pop").get("push_result").integer() == -2);
}
