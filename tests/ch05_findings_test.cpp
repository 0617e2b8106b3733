// Chapter 05's findings on hand-made data (no GPU needed): every branch of every
// finding, pinned by its id, its verdict and its numbers; the tables' cells; the
// child process's output read back.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "background.hpp"
#include "child_output.hpp"
#include "findings.hpp"
#include "support/findings_support.hpp"

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

TEST_CASE("the lower bound names what sets it: both directions, the kernel, a copy, one engine") {
  ch05::LinkRun l = link();
  std::vector<lab::Finding> f = ch05::bound_findings(l);
  CHECK(by_id(f, "bound_light").id == "bound_light.both_directions");
  CHECK(value(f, "bound_light", "bound_ms") == Approx(6.0));
  CHECK(value(f, "bound_light", "kernel_ms") == Approx(0.25));
  CHECK(by_id(f, "bound_heavy").id == "bound_heavy.both_directions");  // 5.5 ms kernel, 6 ms both ways
  l.heavy_ms = {8.0, 8.1};
  f = ch05::bound_findings(l);
  CHECK(by_id(f, "bound_heavy").id == "bound_heavy.kernel");
  CHECK(value(f, "bound_heavy", "bound_ms") == Approx(8.0));
  l.both_ms = {5.0};
  l.h2d_ms = {5.5};
  f = ch05::bound_findings(l);
  CHECK(by_id(f, "bound_light").id == "bound_light.copy_in");
  CHECK(value(f, "bound_light", "bound_ms") == Approx(5.5));
  l.d2h_ms = {5.8};
  CHECK(by_id(ch05::bound_findings(l), "bound_light").id == "bound_light.copy_out");
  l.copy_engines = 1;
  f = ch05::bound_findings(l);
  CHECK(by_id(f, "bound_light").id == "bound_light.one_engine");
  CHECK(value(f, "bound_light", "bound_ms") == Approx(5.5 + 5.8));
}

TEST_CASE("the sweep: every row correct, or the first wrong one fails") {
  ch05::SweepRun s = sweep_run();
  const ch05::LinkRun l = link();
  const lab::Finding ok = by_id(ch05::sweep_findings(s, l), "schedules_correct");
  CHECK(ok.kind == lab::Finding::Kind::correctness);
  CHECK(ok.passed);
  CHECK(ok.value("rows_count").integer() == 8);
  s.rows[3].result = lab_test::wrong();
  CHECK_FALSE(by_id(ch05::sweep_findings(s, l), "schedules_correct").passed);
  CHECK_FALSE(by_id(ch05::sweep_findings(ch05::SweepRun{}, l), "schedules_correct").passed);  // no rows
}

TEST_CASE("the sweep table: each row with the model's prediction and its bound") {
  const ch05::SweepRun s = sweep_run();
  const lab::ResultTable t = ch05::sweep_table(s, link());
  CHECK(t.id() == "schedules");
  CHECK(t.rows().size() == s.rows.size());
  CHECK(cell(t, "light V1 8 chunks", "median") == Approx(6.6));
  CHECK(cell(t, "light V1 8 chunks", "bound_ms") == Approx(6.0));
  CHECK(cell(t, "light V1 8 chunks", "median_over_bound") == Approx(1.1));
  // The pipeline on the medians: (5.1 + 0.26 + 5.0) / 8 + 7 * 6.2 / 8.
  CHECK(cell(t, "light V1 8 chunks", "predicted_ms") == Approx(10.36 / 8 + 7 * 6.2 / 8));
  CHECK(t.row("light sequential 1 chunk").get("result").text() == "correct");
}

TEST_CASE("the sweep: overlap with the heavy kernel is a timing check, either way; light is an observation") {
  ch05::SweepRun s = sweep_run();
  const ch05::LinkRun l = link();
  std::vector<lab::Finding> f = ch05::sweep_findings(s, l);
  const lab::Finding saved = by_id(f, "overlap_heavy");
  CHECK(saved.kind == lab::Finding::Kind::timing);
  CHECK(saved.passed);
  CHECK(saved.value("best_ms").number() == Approx(7.1));
  CHECK(saved.value("sequential_ms").number() == Approx(16.0));
  const lab::Finding light = by_id(f, "overlap_light");
  CHECK(light.kind == lab::Finding::Kind::observation);
  CHECK(light.value("best_ms").number() == Approx(6.6));
  CHECK(light.value("predicted_ms").number() == Approx(10.36 / 8 + 7 * 6.2 / 8));
  s.rows[6].samples_ms = {15.0, 15.1};
  s.rows[7].samples_ms = {15.2, 15.3};
  f = ch05::sweep_findings(s, l);
  CHECK_FALSE(by_id(f, "overlap_heavy").passed);  // 15.05 against 16.0: not under 0.9x
  CHECK(value(f, "overlap_heavy", "best_ms") == Approx(15.05));
}

TEST_CASE("rows faster than the lower bound: none (with the closest), or some") {
  ch05::SweepRun s = sweep_run();
  const ch05::LinkRun l = link();
  std::vector<lab::Finding> f = ch05::sweep_findings(s, l);
  CHECK(by_id(f, "beat_bound").id == "beat_bound.none");
  CHECK(value(f, "beat_bound", "closest_above_percent") == Approx(100.0 * (6.5 / 6.0 - 1)));  // light V1 8
  s.rows[3].samples_ms = {5.8, 6.6};
  f = ch05::sweep_findings(s, l);
  CHECK(by_id(f, "beat_bound").id == "beat_bound.some");
  CHECK(by_id(f, "beat_bound").value("rows_count").integer() == 1);
}

TEST_CASE("V1 against V2: pairs within 5 %, each side faster, and the same-work pair apart") {
  ch05::SweepRun s = sweep_run();
  std::vector<lab::Finding> f = ch05::sweep_findings(s, link());
  CHECK(value(f, "v1_against_v2", "within_count") == 1);     // heavy/8: 7.1 against 7.1
  CHECK(value(f, "v1_against_v2", "v1_faster_count") == 1);  // light/8: 6.6 against 7.5, -12 %
  CHECK(value(f, "v1_against_v2", "v2_faster_count") == 0);
  CHECK(value(f, "v1_against_v2", "largest_gap_percent") == Approx(100 * 0.9 / 7.5));
  CHECK(value(f, "v1_against_v2", "same_work_gap_percent") == Approx(0.0));
  // V1 at 1 chunk slower than V2 by 18 %: the same work, so the run's noise, not "V2 faster".
  s.rows[1].samples_ms = {12.0, 12.4};
  f = ch05::sweep_findings(s, link());
  CHECK(value(f, "v1_against_v2", "v2_faster_count") == 0);
  CHECK(value(f, "v1_against_v2", "same_work_gap_percent") == Approx(100 * (12.2 - 10.3) / 10.3));
  CHECK(value(f, "v1_against_v2", "largest_gap_percent") == Approx(100 * 0.9 / 7.5));
  // A pair just over 5 % counts as apart.
  s = sweep_run();
  s.rows[4].samples_ms = {6.97};  // V1 6.6 against V2 6.97: -5.3 %
  f = ch05::sweep_findings(s, link());
  CHECK(value(f, "v1_against_v2", "v1_faster_count") == 1);
  CHECK(value(f, "v1_against_v2", "largest_gap_percent") == Approx(100 * 0.37 / 6.97));
}

namespace {

const char* kChildText =
    "connections 1\n"
    "schedules 4 1 2.0,2.1,2.2 1.5,1.6,1.7\n"
    "schedules 8 1 1.8,1.9 1.8,1.9\n"
    "spin 2.000\n"
    "orders 4 10.0,10.1 4.0,4.1\n"
    "orders 8 18.0 4.0\n"
    "done\n";

ch05::QueueChild child(const std::string& asked, const char* text) {
  ch05::QueueChild c;
  c.asked = asked;
  ch05::read_child_output(text, c);
  return c;
}

}  // namespace

TEST_CASE("the child's output is read back, or why not is said") {
  ch05::QueueChild c = child("1", kChildText);
  CHECK(c.measured);
  CHECK(c.seen == "1");
  CHECK(c.connections == 1);
  REQUIRE(c.schedules.size() == 2);
  CHECK(c.schedules[0].v2_ms == std::vector<double>{1.5, 1.6, 1.7});
  CHECK(c.schedules[0].correct);
  CHECK(c.spin_ms == Approx(2.0));
  REQUIRE(c.orders.size() == 2);
  CHECK(c.orders[1].depth_first_ms == std::vector<double>{18.0});
  ch05::QueueChild unfinished = child("1", "connections 1\nschedules 4 1 2.0 1.5\n");
  CHECK_FALSE(unfinished.measured);
  CHECK_FALSE(unfinished.why_not.empty());
  ch05::QueueChild garbled = child("1", "connections unset\nschedules 4 1 2.0,x 1.5\nspin 2\norders 4 1 1\ndone\n");
  CHECK_FALSE(garbled.measured);
  CHECK(garbled.seen.empty());
  CHECK(garbled.connections == 8);  // unset: the documented default
  CHECK(child("1", "connections many\nschedules 4 1 2.0 1.5\nspin 2\norders 4 1 1\ndone\n").connections == 0);
  CHECK_FALSE(child("1", "schedules 4 1 2.0 1.5\nspin 2\norders 4 1 1\ndone\n").measured);  // no connections line
}

TEST_CASE("what the child writes is what the chapter reads back") {
  ch05::QueueChild written;
  written.seen = "";  // unset
  written.spin_ms = 2.0;
  written.schedules = {{4, {2.5, 2.25}, {1.5}, true}, {8, {1.75}, {1.0625}, false}};
  written.orders = {{16, {6.0, 6.5}, {4.0}}};
  ch05::QueueChild read;
  read.asked = "";
  REQUIRE(ch05::read_child_output(ch05::child_output_text(written), read));
  CHECK(read.seen.empty());
  CHECK(read.connections == 8);
  CHECK(read.spin_ms == Approx(2.0));
  REQUIRE(read.schedules.size() == 2);
  CHECK(read.schedules[0].v1_ms == std::vector<double>{2.5, 2.25});
  CHECK(read.schedules[1].chunks == 8);
  CHECK_FALSE(read.schedules[1].correct);
  CHECK(read.schedules[1].v2_ms == std::vector<double>{1.0625});
  REQUIRE(read.orders.size() == 1);
  CHECK(read.orders[0].streams == 16);
  CHECK(read.orders[0].depth_first_ms == std::vector<double>{6.0, 6.5});
}

TEST_CASE("work queues: skipped, or a child that did not run, is said and not failed") {
  ch05::QueueRun skipped;
  skipped.skipped = "an instrumented run";
  const std::vector<lab::Finding> f = ch05::queue_findings(skipped);
  REQUIRE(f.size() == 1);
  CHECK(f[0].id == "queues_skipped");
  CHECK(f[0].kind == lab::Finding::Kind::observation);
  ch05::QueueRun run;
  ch05::QueueChild missing;
  missing.asked = "2";
  missing.why_not = "no executable at x";
  run.children = {missing};
  const std::vector<lab::Finding> g = ch05::queue_findings(run);
  CHECK(by_id(g, "child_2").id == "child_2.not_measured");
  CHECK_FALSE(has_id(g, "queue_children_correct"));  // no child ran: nothing to judge
  CHECK(ch05::queue_schedule_table(run).rows().empty());
  CHECK(ch05::stream_order_table(run).rows().empty());
}

TEST_CASE("work queues: a wrong result in a child fails; a child that saw another value says so") {
  ch05::QueueRun run;
  run.children = {child("1", kChildText)};
  std::vector<lab::Finding> f = ch05::queue_findings(run);
  CHECK(by_id(f, "queue_children_correct").passed);
  CHECK(value(f, "queue_children_correct", "children_count") == 1);
  CHECK_FALSE(has_id(f, "child_1"));  // measured, and saw what was asked
  run.children[0].schedules[1].correct = false;
  CHECK_FALSE(by_id(ch05::queue_findings(run), "queue_children_correct").passed);
  run.children[0].asked = "2";
  CHECK(by_id(ch05::queue_findings(run), "child_2").id == "child_2.saw_other");
}

TEST_CASE("the queue schedule table: V1 and V2 per connection count and chunk count") {
  ch05::QueueRun run;
  run.mib = 64;
  run.children = {child("1", kChildText)};
  const lab::ResultTable t = ch05::queue_schedule_table(run);
  CHECK(t.id() == "queue_schedules");
  REQUIRE(t.rows().size() == 2);
  CHECK(cell(t, "1, 4 chunks", "v1_ms") == Approx(2.1));
  CHECK(cell(t, "1, 4 chunks", "v2_ms") == Approx(1.6));
  CHECK(cell(t, "1, 4 chunks", "v1_over_v2_percent") == Approx(31.25));
  CHECK(cell(t, "1, 8 chunks", "v1_over_v2_percent") == Approx(0.0));
  CHECK(t.row("1, 8 chunks").get("result").text() == "correct");
}

TEST_CASE("issue order and connections: at every chunk count, not at every one, or not decisive") {
  ch05::QueueRun run;
  run.children = {child("1", kChildText), child("", kChildText)};
  run.children[1].seen = "";
  run.children[1].connections = 8;
  run.children[1].schedules[0].v1_ms = {1.6};  // default: V1 and V2 equal
  std::vector<lab::Finding> f = ch05::queue_findings(run);
  // 1 connection: 31.2 % apart at 4 chunks, 0 % at 8: not at every chunk count.
  CHECK(by_id(f, "issue_order").id == "issue_order.not_every_count");
  CHECK(value(f, "issue_order", "one_connection_gap_percent") == Approx(31.25));
  CHECK(value(f, "issue_order", "default_gap_percent") == Approx(0.0));
  CHECK(value(f, "issue_order", "one_connection_smallest_gap_percent") == Approx(0.0));
  run.children[0].schedules[1].v1_ms = {2.4};  // 8 chunks too: 2.4 against 1.85, +29.7 %
  f = ch05::queue_findings(run);
  CHECK(by_id(f, "issue_order").id == "issue_order.every_count");
  CHECK(value(f, "issue_order", "one_connection_smallest_gap_percent") == Approx(100 * 0.55 / 1.85));
  run.children[0].schedules[1].v1_ms = {1.8, 1.9};
  run.children[1].schedules[0].v1_ms = {2.1};  // the default just as far apart
  CHECK(by_id(ch05::queue_findings(run), "issue_order").id == "issue_order.not_decisive");
  // Larger with one connection, but under the margin (the H100's timeline run: 9 % against 1 %).
  run.children[0].schedules[0].v1_ms = {1.744};  // +9.0 %
  run.children[1].schedules[0].v1_ms = {1.616};  // +1.0 %
  f = ch05::queue_findings(run);
  CHECK(by_id(f, "issue_order").id == "issue_order.not_decisive");
  CHECK(value(f, "issue_order", "one_connection_gap_percent") == Approx(9.0));
  CHECK(value(f, "issue_order", "default_gap_percent") == Approx(1.0));
}

TEST_CASE("streams sharing connections: the model matched, or it did not") {
  ch05::QueueRun run;
  run.children = {child("1", kChildText)};  // 1 connection: model 5 and 9 kernel lengths; measured 5 and 9
  std::vector<lab::Finding> f = ch05::queue_findings(run);
  CHECK(by_id(f, "shared_connections_1").id == "shared_connections_1.matched");
  CHECK(value(f, "shared_connections_1", "matched_count") == 2);
  CHECK(by_id(f, "shared_connections_1").value("breadth_took_two").boolean());
  // 32 connections: no stream shares one.
  ch05::QueueRun wide;
  wide.children = {child("32", kChildText)};
  wide.children[0].seen = "32";
  wide.children[0].connections = 32;
  wide.children[0].orders[0].depth_first_ms = {4.0};
  wide.children[0].orders[1].depth_first_ms = {4.1};
  CHECK(by_id(ch05::queue_findings(wide), "shared_connections_32").id == "shared_connections_32.matched");
  // Default (8): 4 and 8 streams share nothing, 16 does; breadth first held back at 16.
  ch05::QueueRun usual;
  usual.children = {child("", kChildText)};
  usual.children[0].seen = "";
  usual.children[0].connections = 8;
  usual.children[0].orders[0].depth_first_ms = {4.0};
  usual.children[0].orders[1].depth_first_ms = {4.1};
  usual.children[0].orders.push_back({16, {6.1}, {6.0}});
  f = ch05::queue_findings(usual);
  CHECK(by_id(f, "shared_connections_default").id == "shared_connections_default.matched");
  CHECK_FALSE(by_id(f, "shared_connections_default").value("breadth_took_two").boolean());
  // 8 streams in 2 kernel lengths with 1 connection: not the model's 9.
  run.children[0].orders[1].depth_first_ms = {4.0};
  f = ch05::queue_findings(run);
  CHECK(by_id(f, "shared_connections_1").id == "shared_connections_1.not_matched");
  CHECK(value(f, "shared_connections_1", "matched_count") == 1);
  // An unreadable connection count: no model, so no finding and no model column.
  run.children[0].seen = "many";
  run.children[0].connections = 0;
  CHECK_FALSE(has_id(ch05::queue_findings(run), "shared_connections_many"));
  CHECK(ch05::stream_order_table(run).rows()[0].get("model_lengths").is_none());
}

TEST_CASE("the stream order table: medians, kernel lengths and the model's") {
  ch05::QueueRun run;
  run.children = {child("1", kChildText)};
  const lab::ResultTable t = ch05::stream_order_table(run);
  CHECK(t.id() == "stream_orders");
  REQUIRE(t.rows().size() == 2);
  CHECK(cell(t, "1, 4 streams", "depth_first_ms") == Approx(10.05));
  CHECK(cell(t, "1, 4 streams", "depth_first_lengths") == Approx(5.025));
  CHECK(cell(t, "1, 4 streams", "breadth_first_lengths") == Approx(2.025));
  CHECK(t.rows()[1].get("model_lengths").integer() == 9);
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

TEST_CASE("recorded runs: in the table with what ran at once, or not recorded; right or wrong") {
  std::vector<ch05::RecordedSchedule> runs = {
      recorded(ch05::Schedule::sequential, {work('H', 0, 4), work('K', 4, 5), work('D', 5, 9)}),
      recorded(ch05::Schedule::v1_per_chunk,
               {work('H', 0, 2), work('K', 2, 3), work('H', 2, 4), work('D', 3, 5), work('K', 4, 5), work('D', 5, 7)})};
  ch05::RecordedSchedule missing;
  missing.schedule = ch05::Schedule::v2_per_stage;
  missing.why_not = "built without CUPTI";
  missing.result = lab_test::correct();
  runs.push_back(missing);
  std::vector<lab::Finding> f = ch05::recorded_findings(runs);
  CHECK(by_id(f, "recorded_correct").passed);
  CHECK(value(f, "recorded_correct", "runs_count") == 3);
  CHECK_FALSE(has_id(f, "recorded_sequential"));  // recorded: its numbers are in the table
  CHECK_FALSE(has_id(f, "recorded_v1"));
  CHECK(by_id(f, "recorded_v2").id == "recorded_v2.not_recorded");
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
  CHECK_FALSE(by_id(ch05::recorded_findings(runs), "recorded_correct").passed);
  CHECK_FALSE(by_id(ch05::recorded_findings({}), "recorded_correct").passed);  // nothing recorded at all
}

TEST_CASE("every table and finding of the chapter has an id") {
  ch05::QueueRun run;
  run.children = {child("1", kChildText), child("", kChildText)};
  run.children[1].seen = "";
  run.children[1].connections = 8;
  std::vector<lab::Finding> all = ch05::bound_findings(link());
  for (const auto& more : {ch05::sweep_findings(sweep_run(), link()), ch05::queue_findings(run),
                           ch05::recorded_findings({recorded(ch05::Schedule::sequential, {work('H', 0, 1)})})}) {
    all.insert(all.end(), more.begin(), more.end());
  }
  for (const lab::Finding& f : all) CHECK_FALSE(f.id.empty());
  CHECK(all.size() == 2 + 5 + 4 + 1);  // bounds; sweep; queues (correct, order, two shared); recorded correct
}

TEST_CASE("section 3's background names where each line is stated") {
  const std::vector<lab::Background> lines = ch05::queue_background();
  CHECK(lines.size() == 3);
  for (const lab::Background& line : lines) CHECK_FALSE(line.source.empty());
}
