// Chapter 05's checks on hand-made data (no GPU needed): every branch of every
// check, pinned by its id, its verdict and its numbers; the tables' cells; the
// child process's JSON line read back.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "checks.hpp"
#include "child_output.hpp"
#include "overlap_model.hpp"
#include "support/findings_support.hpp"
#include "tables.hpp"

namespace {

using doctest::Approx;
using lab_test::by_id;
using lab_test::cell;
using lab_test::has_id;
using lab_test::value;

// Copies of 5 ms each way (fastest), 6 ms both at once, a 0.25 ms light and a 5.5 ms heavy kernel.
ch05::LinkRun link() {
  ch05::LinkRun l;
  l.bytes = 256.0 * (1 << 20);
  l.copy_engines = 3;
  l.h2d_ms = {5.0, 5.1, 5.3};
  l.d2h_ms = {4.9, 5.0, 5.2};
  l.both_ms = {6.0, 6.2, 6.9};
  l.light_ms = {0.25, 0.26, 0.27};
  l.heavy_ms = {5.5, 5.6, 5.7};
  l.heavy_steps = 50;
  return l;
}

ch05::ScheduleRow row(const std::string& kernel, ch05::Schedule schedule, int chunks, std::vector<double> ms) {
  return {kernel, schedule, chunks, std::move(ms), lab_test::correct()};
}

ch05::SweepRun sweep_run() {
  ch05::SweepRun s;
  s.rows = {row("light", ch05::Schedule::sequential, 1, {10.2, 10.3, 10.4}),
            row("light", ch05::Schedule::v1_per_chunk, 1, {10.2, 10.3, 10.4}),
            row("light", ch05::Schedule::v2_per_stage, 1, {10.2, 10.3, 10.4}),
            row("light", ch05::Schedule::v1_per_chunk, 8, {6.5, 6.6, 6.7}),
            row("light", ch05::Schedule::v2_per_stage, 8, {7.4, 7.5, 7.6}),
            row("heavy", ch05::Schedule::sequential, 1, {15.8, 16.0, 16.2}),
            row("heavy", ch05::Schedule::v1_per_chunk, 8, {7.0, 7.1, 7.2}),
            row("heavy", ch05::Schedule::v2_per_stage, 8, {7.0, 7.1, 7.3})};
  return s;
}

}  // namespace

TEST_CASE("the model's inputs: medians for the prediction, the fastest samples for the bound") {
  const ch05::LinkRun l = link();
  CHECK(ch05::typical_inputs(l, "light").h2d_ms == Approx(5.1));
  CHECK(ch05::typical_inputs(l, "heavy").kernel_ms == Approx(5.6));
  CHECK(ch05::best_inputs(l, "light").both_ms == Approx(6.0));
  CHECK(ch05::best_inputs(l, "light").kernel_ms == Approx(0.25));
}

TEST_CASE("the link table: every copy and kernel, its statistics and GB/s at the fastest") {
  ch05::LinkRun l = link();
  const lab::ResultTable t = ch05::link_table(l);
  CHECK(t.id() == "link");
  REQUIRE(t.rows().size() == 5);
  CHECK(cell(t, "copy in alone (H)", "min") == Approx(5.0));
  CHECK(cell(t, "copy out alone (D)", "median") == Approx(5.0));
  CHECK(cell(t, "copy in alone (H)", "gbps_at_fastest") == Approx(256.0 * (1 << 20) / 5e-3 / 1e9));  // 53.7
  CHECK(cell(t, "both directions at once (B)", "gbps_at_fastest") == Approx(2 * 256.0 * (1 << 20) / 6e-3 / 1e9));
  CHECK(cell(t, "heavy kernel, 50 steps (K)", "max") == Approx(5.7));
  CHECK(t.row("light kernel, 1 step (K)").get("gbps_at_fastest").is_none());
  l.heavy_calibrated = false;  // the note says where the steps came from; the rows stay
  CHECK(ch05::link_table(l).rows().size() == 5);
}

TEST_CASE("the sweep: every row correct, or the first wrong one fails") {
  ch05::SweepRun s = sweep_run();
  const lab::Finding ok = by_id(ch05::sweep_checks(s), "schedules_correct");
  CHECK(ok.kind == lab::Finding::Kind::correctness);
  CHECK(ok.passed);
  CHECK(ok.value("rows_count").integer() == 8);
  s.rows[3].result = lab_test::wrong();
  CHECK_FALSE(by_id(ch05::sweep_checks(s), "schedules_correct").passed);
  const std::vector<lab::Finding> none = ch05::sweep_checks(ch05::SweepRun{});
  CHECK_FALSE(by_id(none, "schedules_correct").passed);  // no rows
  CHECK_FALSE(has_id(none, "overlap_heavy"));            // no heavy sequential row to compare with
}

TEST_CASE("the sweep table: each row against sequential, V1 against V2, the model and the bound") {
  const ch05::SweepRun s = sweep_run();
  const lab::ResultTable t = ch05::sweep_table(s, link());
  CHECK(t.id() == "schedules");
  CHECK(t.rows().size() == s.rows.size());
  CHECK(cell(t, "light V1 8 chunks", "median") == Approx(6.6));
  CHECK(cell(t, "light V1 8 chunks", "bound_ms") == Approx(6.0));
  CHECK(cell(t, "light V1 8 chunks", "median_over_bound") == Approx(1.1));
  CHECK(cell(t, "light V1 8 chunks", "fastest_over_bound") == Approx(6.5 / 6.0));
  CHECK(cell(t, "light V1 8 chunks", "sequential_over_median") == Approx(10.3 / 6.6));
  CHECK(cell(t, "light sequential 1 chunk", "sequential_over_median") == Approx(1.0));
  CHECK(cell(t, "heavy V2 8 chunks", "sequential_over_median") == Approx(16.0 / 7.1));
  // V1's median relative to V2's, on V1's rows only: -12 % at 8 chunks, 0 at 1 chunk (the same work).
  CHECK(cell(t, "light V1 8 chunks", "v1_over_v2_percent") == Approx(100 * (6.6 - 7.5) / 7.5));
  CHECK(cell(t, "light V1 1 chunk", "v1_over_v2_percent") == Approx(0.0));
  CHECK(t.row("light V2 8 chunks").get("v1_over_v2_percent").is_none());
  CHECK(t.row("light sequential 1 chunk").get("v1_over_v2_percent").is_none());
  // The pipeline on the medians: (5.1 + 0.26 + 5.0) / 8 + 7 * 6.2 / 8.
  CHECK(cell(t, "light V1 8 chunks", "predicted_ms") == Approx(10.36 / 8 + 7 * 6.2 / 8));
  CHECK(t.row("light sequential 1 chunk").get("result").text() == "correct");
  ch05::SweepRun alone;  // a row with nothing to compare with leaves those cells empty
  alone.rows = {s.rows[4]};
  const lab::ResultTable u = ch05::sweep_table(alone, link());
  CHECK(u.row("light V2 8 chunks").get("sequential_over_median").is_none());
  ch05::SweepRun faster = s;  // a fastest run under the bound reads below 1
  faster.rows[3].samples_ms = {5.8, 6.6};
  CHECK(cell(ch05::sweep_table(faster, link()), "light V1 8 chunks", "fastest_over_bound") == Approx(5.8 / 6.0));
}

TEST_CASE("overlap with the heavy kernel saves >= 10 %: a timing check, either way") {
  ch05::SweepRun s = sweep_run();
  std::vector<lab::Finding> f = ch05::sweep_checks(s);
  const lab::Finding saved = by_id(f, "overlap_heavy");
  CHECK(saved.kind == lab::Finding::Kind::timing);
  CHECK(saved.passed);
  CHECK(saved.value("best_ms").number() == Approx(7.1));
  CHECK(saved.value("sequential_ms").number() == Approx(16.0));
  CHECK_FALSE(has_id(f, "overlap_light"));  // the light rows: the table's "vs sequential" column
  s.rows[6].samples_ms = {15.0, 15.1};
  s.rows[7].samples_ms = {15.2, 15.3};
  f = ch05::sweep_checks(s);
  CHECK_FALSE(by_id(f, "overlap_heavy").passed);  // 15.05 against 16.0: not under 0.9x
  CHECK(value(f, "overlap_heavy", "best_ms") == Approx(15.05));
  s.rows[6].samples_ms = {14.3};  // 0.894x: just under
  CHECK(by_id(ch05::sweep_checks(s), "overlap_heavy").passed);
}

namespace {

ch05::QueueChild measured(const std::string& asked) {
  ch05::QueueChild c;
  c.asked = asked;
  c.seen = asked;
  c.spin_ms = 2.0;
  c.schedules = {{4, {2.0, 2.1, 2.2}, {1.5, 1.6, 1.7}, true}, {8, {1.8, 1.9}, {1.8, 1.9}, true}};
  c.orders = {{4, {10.0, 10.1}, {4.0, 4.1}}, {8, {18.0}, {4.0}}};  // 1 connection: the model's 5 and 9 lengths
  return c;
}

}  // namespace

TEST_CASE("the child's JSON line is read back, or why not is said") {
  ch05::QueueChild written = measured("1");
  written.schedules[1].correct = false;
  ch05::QueueChild read;
  read.asked = "1";
  REQUIRE(ch05::read_child_output("a driver's warning\n" + ch05::child_output_text(written), read));
  CHECK(read.measured());
  CHECK(read.asked == "1");
  CHECK(read.seen == "1");
  CHECK(read.spin_ms == Approx(2.0));
  REQUIRE(read.schedules.size() == 2);
  CHECK(read.schedules[0].v1_ms == std::vector<double>{2.0, 2.1, 2.2});
  CHECK(read.schedules[1].chunks == 8);
  CHECK_FALSE(read.schedules[1].correct);
  REQUIRE(read.orders.size() == 2);
  CHECK(read.orders[1].depth_first_ms == std::vector<double>{18.0});
  written.seen = "";  // unset
  REQUIRE(ch05::read_child_output(ch05::child_output_text(written), read));
  CHECK(read.seen.empty());
  written.orders.clear();  // a line with nothing measured
  CHECK_FALSE(ch05::read_child_output(ch05::child_output_text(written), read));
  CHECK_FALSE(read.measured());
  CHECK(read.why_not.find("no measurement") != std::string::npos);
  ch05::QueueChild garbled;
  CHECK_FALSE(ch05::read_child_output("{\"seen\": \"1\", \"spin_ms\": 2}\nnot json\n", garbled));
  CHECK_FALSE(garbled.measured());
  CHECK(garbled.why_not.find("no line") != std::string::npos);
}

TEST_CASE("work queues: skipped, or a child that did not run, is a skip, not a failure") {
  ch05::QueueRun skipped;
  skipped.skipped = "an instrumented run";
  const std::vector<lab::Finding> f = ch05::queue_checks(skipped);
  REQUIRE(f.size() == 1);
  CHECK(f[0].id == "queues.skipped");
  CHECK(f[0].kind == lab::Finding::Kind::observation);
  ch05::QueueRun run;
  ch05::QueueChild missing;
  missing.asked = "2";
  missing.why_not = "no executable at x";
  ch05::QueueChild default_missing;
  default_missing.why_not = "timed out";
  run.children = {missing, default_missing};
  const std::vector<lab::Finding> g = ch05::queue_checks(run);
  CHECK(by_id(g, "child_2").id == "child_2.skipped");
  CHECK(by_id(g, "child_default").id == "child_default.skipped");
  CHECK_FALSE(has_id(g, "queue_children_correct"));  // no child ran: nothing to judge
  CHECK(ch05::queue_schedule_table(run).rows().empty());
  CHECK(ch05::stream_order_table(run).rows().empty());
}

TEST_CASE("work queues: every child correct, or a wrong result in one fails") {
  ch05::QueueRun run;
  run.children = {measured("1"), measured("")};
  std::vector<lab::Finding> f = ch05::queue_checks(run);
  CHECK(by_id(f, "queue_children_correct").passed);
  CHECK(value(f, "queue_children_correct", "children_count") == 2);
  CHECK(f.size() == 1);
  run.children[1].schedules[1].correct = false;
  CHECK_FALSE(by_id(ch05::queue_checks(run), "queue_children_correct").passed);
}

TEST_CASE("the queue schedule table: V1 and V2 per connection count and chunk count") {
  ch05::QueueRun run;
  run.mib = 64;
  run.children = {measured("1")};
  const lab::ResultTable t = ch05::queue_schedule_table(run);
  CHECK(t.id() == "queue_schedules");
  REQUIRE(t.rows().size() == 2);
  CHECK(cell(t, "1, 4 chunks", "v1_ms") == Approx(2.1));
  CHECK(cell(t, "1, 4 chunks", "v2_ms") == Approx(1.6));
  CHECK(cell(t, "1, 4 chunks", "v1_over_v2_percent") == Approx(31.25));
  CHECK(cell(t, "1, 8 chunks", "v1_over_v2_percent") == Approx(0.0));
  CHECK(t.row("1, 8 chunks").get("connections_asked").text() == "1");
  CHECK(t.row("1, 8 chunks").get("result").text() == "correct");
}

TEST_CASE("the stream order table: medians, kernel lengths, the model's, and whether it held") {
  ch05::QueueRun run;
  run.children = {measured("1")};
  lab::ResultTable t = ch05::stream_order_table(run);
  CHECK(t.id() == "stream_orders");
  REQUIRE(t.rows().size() == 2);
  CHECK(cell(t, "1, 4 streams", "depth_first_ms") == Approx(10.05));
  CHECK(cell(t, "1, 4 streams", "depth_first_lengths") == Approx(5.025));
  CHECK(cell(t, "1, 4 streams", "breadth_first_lengths") == Approx(2.025));
  CHECK(t.rows()[1].get("model_lengths").integer() == 9);
  CHECK(t.row("1, 4 streams").get("model_held").text() == "yes");
  run.children[0].orders[1].depth_first_ms = {4.0};  // 8 streams in 2 lengths with 1 connection: not the model's 9
  t = ch05::stream_order_table(run);
  CHECK(t.row("1, 8 streams").get("model_held").text() == "no");
  run.children[0].orders[0].depth_first_ms = {11.0};  // 5.5 lengths: half a kernel off still holds
  CHECK(ch05::stream_order_table(run).row("1, 4 streams").get("model_held").text() == "yes");
  run.children[0].orders[0].depth_first_ms = {11.1};  // 5.55: more than half off
  CHECK(ch05::stream_order_table(run).row("1, 4 streams").get("model_held").text() == "no");
  run.children[0].seen = "";  // unset: the documented default, 8 connections: 4 streams take 2 lengths
  run.children[0].orders[0].depth_first_ms = {4.0};
  t = ch05::stream_order_table(run);
  CHECK(t.row("default (unset), 4 streams").get("model_lengths").integer() == 2);
  CHECK(t.row("default (unset), 4 streams").get("model_held").text() == "yes");
  run.children[0].seen = "many";  // an unreadable connection count: no model, no verdict on it
  t = ch05::stream_order_table(run);
  CHECK(t.rows()[0].get("model_lengths").is_none());
  CHECK(t.rows()[0].get("model_held").is_none());
}

namespace {

lab::Interval work(char kind, double start_ms, double end_ms) {
  lab::Interval i;
  i.kind = kind == 'K' ? lab::Interval::Kind::kernel : lab::Interval::Kind::memcpy;
  i.direction = kind == 'H' ? "HtoD" : kind == 'D' ? "DtoH" : "";
  i.start_ns = start_ms * 1e6;
  i.end_ns = end_ms * 1e6;
  return i;
}

ch05::RecordedSchedule recorded(ch05::Schedule schedule, std::vector<lab::Interval> intervals) {
  ch05::RecordedSchedule r;
  r.schedule = schedule;
  r.chunks = schedule == ch05::Schedule::sequential ? 1 : 2;
  r.recorded = true;
  r.work = std::move(intervals);
  r.result = lab_test::correct();
  return r;
}

}  // namespace

TEST_CASE("recorded runs: in the table with what ran at once, or skipped; right or wrong") {
  std::vector<ch05::RecordedSchedule> runs = {
      recorded(ch05::Schedule::sequential, {work('H', 0, 4), work('K', 4, 5), work('D', 5, 9)}),
      recorded(ch05::Schedule::v1_per_chunk,
               {work('H', 0, 2), work('K', 2, 3), work('H', 2, 4), work('D', 3, 5), work('K', 4, 5), work('D', 5, 7)})};
  ch05::RecordedSchedule missing;
  missing.schedule = ch05::Schedule::v2_per_stage;
  missing.why_not = "built without CUPTI";
  missing.result = lab_test::correct();
  runs.push_back(missing);
  std::vector<lab::Finding> f = ch05::recorded_checks(runs);
  CHECK(by_id(f, "recorded_correct").passed);
  CHECK(value(f, "recorded_correct", "runs_count") == 3);
  CHECK_FALSE(has_id(f, "recorded_sequential"));  // recorded: its numbers are in the table
  CHECK_FALSE(has_id(f, "recorded_v1"));
  CHECK(by_id(f, "recorded_v2").id == "recorded_v2.skipped");
  const lab::ResultTable t = ch05::recorded_table(runs);
  CHECK(t.id() == "recorded");
  REQUIRE(t.rows().size() == 2);
  CHECK(cell(t, "V1, 2 chunks", "in_and_out_ms") == Approx(1.0));
  CHECK(cell(t, "V1, 2 chunks", "copies_and_kernel_ms") == Approx(2.0));
  CHECK(cell(t, "sequential, 1 chunk", "copy_out_busy_ms") == Approx(4.0));
  CHECK(cell(t, "sequential, 1 chunk", "in_and_out_ms") == Approx(0.0));  // one after the other
  CHECK(cell(t, "sequential, 1 chunk", "copies_and_kernel_ms") == Approx(0.0));
  CHECK(cell(t, "sequential, 1 chunk", "span_ms") == Approx(9.0));
  runs[1].result = lab_test::wrong();
  CHECK_FALSE(by_id(ch05::recorded_checks(runs), "recorded_correct").passed);
  CHECK_FALSE(by_id(ch05::recorded_checks({}), "recorded_correct").passed);  // nothing recorded at all
}

TEST_CASE("every table and finding of the chapter has an id") {
  ch05::QueueRun run;
  run.children = {measured("1"), measured("")};
  std::vector<lab::Finding> all = ch05::sweep_checks(sweep_run());
  for (const auto& more :
       {ch05::queue_checks(run), ch05::recorded_checks({recorded(ch05::Schedule::sequential, {work('H', 0, 1)})})}) {
    all.insert(all.end(), more.begin(), more.end());
  }
  for (const lab::Finding& f : all) CHECK_FALSE(f.id.empty());
  CHECK(all.size() == 2 + 1 + 1);  // sweep (correct, overlap_heavy); queues (correct); recorded (correct)
}
