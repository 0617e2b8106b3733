// Chapter 05's checks replayed on the kept runs of two GPUs (no GPU needed):
// the H200 run of 2026-12-02e (the fifth of that day, code at 37ba1db) and the H100's run 5 of
// 2026-11-25 (an older version of the code, whose tables carry the same ids
// and the columns these functions need). Each run's section 1 to 3 data is
// rebuilt from its JSON into the chapter's structs, fed to the chapter's own
// table and check functions, and the verdicts (and the cells the page quotes)
// are asserted to be what the run printed.
//
// Not rebuilt: section 4's recorded_correct. The JSON keeps each recorded
// run's sums (span, busy and overlap times), not the CUPTI intervals nor each
// run's comparison with the CPU that recorded_checks and recorded_table are
// made from.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "checks.hpp"
#include "overlap_model.hpp"
#include "support/findings_support.hpp"
#include "support/replay.hpp"
#include "tables.hpp"

namespace {

using doctest::Approx;
using lab_test::by_id;
using lab_test::cell;
using lab_test::KeptRun;
using lab_test::samples;
using lab_test::value;

const char* const kH200 = lab_test::kH200Run;
const char* const kH100 = lab_test::kH100Run;
const char* const kChapter = "ch05_overlap";

// Section 1: the link table's five rows, in the order the chapter prints them.
ch05::LinkRun link_from(const KeptRun& run) {
  const auto rows = run.rows("link");
  REQUIRE(rows.size() == 5);
  ch05::LinkRun link;
  link.bytes = run.options().at("mib").get<double>() * (1 << 20);
  link.copy_engines = run.device().at("copy_engines").get<int>();
  link.h2d_ms = samples(rows[0]);
  link.d2h_ms = samples(rows[1]);
  link.both_ms = samples(rows[2]);
  link.light_ms = samples(rows[3]);
  link.heavy_ms = samples(rows[4]);
  const std::string heavy = rows[4].at("name").get<std::string>();  // "heavy kernel, 47 steps (K)"
  REQUIRE(std::sscanf(heavy.c_str(), "heavy kernel, %d steps", &link.heavy_steps) == 1);
  return link;
}

ch05::Schedule schedule_from(const std::string& name) {
  if (name == "sequential") return ch05::Schedule::sequential;
  return name == "V1" ? ch05::Schedule::v1_per_chunk : ch05::Schedule::v2_per_stage;
}

// The result column as a comparison: "correct", or one that failed.
lab::Comparison result_from(const nlohmann::json& row) {
  return row.at("result").get<std::string>() == "correct" ? lab_test::correct() : lab_test::wrong();
}

// Section 2: every row of the sweep (the tour ran with the default connections).
ch05::SweepRun sweep_from(const KeptRun& run) {
  ch05::SweepRun sweep;
  for (const auto& r : run.rows("schedules")) {
    sweep.rows.push_back({r.at("kernel").get<std::string>(), schedule_from(r.at("schedule").get<std::string>()),
                          r.at("chunks").get<int>(), samples(r), result_from(r)});
  }
  return sweep;
}

// Section 3: one child per connection count, from the two tables' rows. The
// JSON keeps V1's and V2's samples but only the medians of the spin kernels,
// so each stream order is rebuilt as one sample, its median.
ch05::QueueRun queues_from(const KeptRun& run) {
  std::map<std::string, ch05::QueueChild> by_seen;
  std::vector<std::string> order;
  auto child = [&](const std::string& seen) -> ch05::QueueChild& {
    if (by_seen.count(seen) == 0) {
      order.push_back(seen);
      ch05::QueueChild c;
      c.seen = seen;
      by_seen[seen] = c;
    }
    return by_seen[seen];
  };
  for (const auto& r : run.rows("queue_schedules")) {
    ch05::QueueChild& c = child(r.at("connections_seen").get<std::string>());
    c.asked = r.at("connections_asked").get<std::string>();
    c.schedules.push_back({r.at("chunks").get<int>(), r.at("v1_samples_ms").get<std::vector<double>>(),
                           r.at("v2_samples_ms").get<std::vector<double>>(),
                           r.at("result").get<std::string>() == "correct"});
  }
  for (const auto& r : run.rows("stream_orders")) {
    ch05::QueueChild& c = child(r.at("connections_seen").get<std::string>());
    c.spin_ms = r.at("spin_ms").get<double>();
    c.orders.push_back(
        {r.at("streams").get<int>(), {r.at("depth_first_ms").get<double>()}, {r.at("breadth_first_ms").get<double>()}});
  }
  ch05::QueueRun queues;
  queues.mib = run.options().at("queue-mib").get<double>();
  for (const std::string& seen : order) queues.children.push_back(by_seen[seen]);
  return queues;
}

// The cells of the sweep table that both runs' JSON carry, recomputed from the
// samples, against what each run wrote: the model, the bound, median / bound.
void check_sweep_cells(const KeptRun& run, const lab::ResultTable& table) {
  for (const auto& r : run.rows("schedules")) {
    const std::string name = r.at("name").get<std::string>();
    CAPTURE(name);
    for (const char* key : {"predicted_ms", "bound_ms", "median_over_bound", "fastest_over_bound",
                            "sequential_over_median", "v1_over_v2_percent"}) {
      CAPTURE(key);
      if (r.contains(key)) CHECK(cell(table, name, key) == Approx(r.at(key).get<double>()).epsilon(1e-6));
    }
  }
}

// What the page counts in the recomputed sweep table: rows with a run faster than their
// bound, and V1 against V2 over the pairs of 2 or more chunks (within 5 %, V2 faster, V1 faster).
struct SweepCounts {
  int beat_bound = 0, within = 0, v2_faster = 0, v1_faster = 0;
};

SweepCounts counts_of(const lab::ResultTable& table) {
  SweepCounts c;
  for (const lab::ResultTable::Row& row : table.rows()) {
    if (row.get("fastest_over_bound").number() < 1) c.beat_bound += 1;
    const lab::Value gap = row.get("v1_over_v2_percent");
    if (gap.is_none() || row.get("chunks").integer() < 2) continue;
    if (gap.number() > 5)
      c.v2_faster += 1;
    else if (gap.number() < -5)
      c.v1_faster += 1;
    else
      c.within += 1;
  }
  return c;
}

// How many stream counts of the child with @p seen connections the model held for, recomputed.
int model_held_count(const lab::ResultTable& table, const KeptRun& run, const std::string& seen) {
  int held = 0;
  for (const auto& r : run.rows("stream_orders")) {
    if (r.at("connections_seen").get<std::string>() != seen) continue;
    if (table.row(r.at("name").get<std::string>()).get("model_held").text() == "yes") held += 1;
  }
  return held;
}

}  // namespace

TEST_CASE("replay H200 2026-12-02e: section 1, the bound is both directions at once at its fastest") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const ch05::LinkRun link = link_from(run);
  CHECK(link.heavy_steps == 47);
  for (const char* kernel : {"light", "heavy"}) {
    CAPTURE(kernel);
    CHECK(ch05::overlap_bound_ms(ch05::best_inputs(link, kernel)) == Approx(5.283).epsilon(1e-3));
    CHECK(ch05::overlap_bound_ms(ch05::best_inputs(link, kernel)) == Approx(ch05::fastest_of(link.both_ms)));
  }
}

TEST_CASE("replay H200 2026-12-02e: section 2, every cell and both checks as the run printed them") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const ch05::LinkRun link = link_from(run);
  const ch05::SweepRun sweep = sweep_from(run);
  const lab::ResultTable table = ch05::sweep_table(sweep, link);
  check_sweep_cells(run, table);
  // The page: no row beat its bound; V1 and V2 within 5 % in 9 of 10 pairs (heavy 8 chunks: -5.2 %,
  // V1 the faster).
  const SweepCounts counts = counts_of(table);
  CHECK(counts.beat_bound == 0);
  CHECK(counts.within == 9);
  CHECK(counts.v2_faster == 0);
  CHECK(counts.v1_faster == 1);
  // The identical 1-chunk rows, V1 against V2: within 0.1 % (light -0.07 %, heavy -0.00 %).
  for (const char* name : {"light V1 1 chunk", "heavy V1 1 chunk"}) {
    CAPTURE(name);
    CHECK(std::abs(cell(table, name, "v1_over_v2_percent")) < 0.1);
  }

  const std::vector<lab::Finding> findings = ch05::sweep_checks(sweep);
  CHECK(by_id(findings, "schedules_correct").passed == run.passed("schedules_correct"));
  CHECK(value(findings, "schedules_correct", "rows_count") == 26);
  // The lesson: heavy V2 32 chunks, 5.873 ms against 14.423 ms sequential.
  CHECK(by_id(findings, "overlap_heavy").passed == run.passed("overlap_heavy"));
  CHECK(by_id(findings, "overlap_heavy").passed);
  const auto& printed = run.finding("overlap_heavy").at("values");
  CHECK(value(findings, "overlap_heavy", "best_ms") == Approx(printed.at("best_ms").get<double>()));
  CHECK(value(findings, "overlap_heavy", "sequential_ms") == Approx(printed.at("sequential_ms").get<double>()));
  CHECK(value(findings, "overlap_heavy", "best_ms") == Approx(5.873).epsilon(1e-3));
  CHECK(value(findings, "overlap_heavy", "sequential_ms") == Approx(14.423).epsilon(1e-3));
}

// Section 3 on either run: the four children, their check, and V1 against V2 per pair, cell by cell.
static ch05::QueueRun replay_children(const KeptRun& run) {
  const ch05::QueueRun queues = queues_from(run);
  REQUIRE(queues.children.size() == 4);
  const std::vector<lab::Finding> findings = ch05::queue_checks(queues);
  CHECK(by_id(findings, "queue_children_correct").passed == run.passed("queue_children_correct"));
  CHECK(value(findings, "queue_children_correct", "children_count") == 4);
  const lab::ResultTable schedules = ch05::queue_schedule_table(queues);
  for (const auto& r : run.rows("queue_schedules")) {
    CAPTURE(r.at("name").get<std::string>());
    CHECK(cell(schedules, r.at("name").get<std::string>(), "v1_over_v2_percent") ==
          Approx(r.at("v1_over_v2_percent").get<double>()).epsilon(1e-6));
  }
  return queues;
}

TEST_CASE("replay H200 2026-12-02e: section 3, the children's tables and their check") {
  const KeptRun run = KeptRun::load(kH200, kChapter);
  const ch05::QueueRun queues = replay_children(run);
  // The page: V1 against V2 within 1.3 % in every child (-0.7 to +1.3 %).
  const lab::ResultTable schedules = ch05::queue_schedule_table(queues);
  for (const auto& r : run.rows("queue_schedules")) {
    CAPTURE(r.at("name").get<std::string>());
    CHECK(std::abs(cell(schedules, r.at("name").get<std::string>(), "v1_over_v2_percent")) < 1.3);
  }
  // Every stream count of every child lay within half a kernel of the model, as printed.
  const lab::ResultTable orders = ch05::stream_order_table(queues);
  for (const auto& r : run.rows("stream_orders")) {
    const std::string name = r.at("name").get<std::string>();
    CAPTURE(name);
    CHECK(cell(orders, name, "model_lengths") == r.at("model_lengths").get<int>());
    CHECK(orders.row(name).get("model_held").text() == r.at("model_held").get<std::string>());
    CHECK(orders.row(name).get("model_held").text() == "yes");
  }
}

TEST_CASE("replay H100 run 5 of 2026-11-25: section 1, the same kind of bound") {
  const KeptRun run = KeptRun::load(kH100, kChapter);
  const ch05::LinkRun link = link_from(run);
  CHECK(link.heavy_steps == 51);
  // Run 5 printed it as bound_light.both_directions and bound_heavy.both_directions.
  for (const char* kernel : {"light", "heavy"}) {
    CAPTURE(kernel);
    const double printed = run.finding(std::string("bound_") + kernel).at("values").at("bound_ms").get<double>();
    CHECK(run.finding(std::string("bound_") + kernel).at("finding_id").get<std::string>() ==
          std::string("bound_") + kernel + ".both_directions");
    CHECK(ch05::overlap_bound_ms(ch05::best_inputs(link, kernel)) == Approx(printed));
    CHECK(ch05::overlap_bound_ms(ch05::best_inputs(link, kernel)) == Approx(ch05::fastest_of(link.both_ms)));
  }
}

TEST_CASE("replay H100 run 5 of 2026-11-25: section 2, the new code's verdicts on the H100's samples") {
  const KeptRun run = KeptRun::load(kH100, kChapter);
  const ch05::LinkRun link = link_from(run);
  const ch05::SweepRun sweep = sweep_from(run);
  // Run 5's table had the model, the bound and median / bound (not the newer columns).
  const lab::ResultTable table = ch05::sweep_table(sweep, link);
  check_sweep_cells(run, table);
  // Run 5 printed these counts as observations the code no longer prints (beat_bound.some,
  // v1_against_v2); the new table's columns give the same on its samples.
  const SweepCounts counts = counts_of(table);
  CHECK(counts.beat_bound == run.finding("beat_bound").at("values").at("rows_count").get<int>());
  CHECK(counts.beat_bound == 7);
  const auto& pairs = run.finding("v1_against_v2").at("values");
  CHECK(counts.within == pairs.at("within_count").get<int>());
  CHECK(counts.v2_faster == pairs.at("v2_faster_count").get<int>());
  CHECK(counts.v1_faster == pairs.at("v1_faster_count").get<int>());

  const std::vector<lab::Finding> findings = ch05::sweep_checks(sweep);
  CHECK(by_id(findings, "schedules_correct").passed == run.passed("schedules_correct"));
  CHECK(value(findings, "schedules_correct", "rows_count") == 26);
  // The same verdict as the H200 (passed), here heavy V2 32 chunks, 6.144 ms against 15.618 ms sequential.
  CHECK(by_id(findings, "overlap_heavy").passed == run.passed("overlap_heavy"));
  CHECK(by_id(findings, "overlap_heavy").passed);
  const auto& printed = run.finding("overlap_heavy").at("values");
  CHECK(value(findings, "overlap_heavy", "best_ms") == Approx(printed.at("best_ms").get<double>()));
  CHECK(value(findings, "overlap_heavy", "sequential_ms") == Approx(printed.at("sequential_ms").get<double>()));
}

TEST_CASE("replay H100 run 5 of 2026-11-25: section 3, the new code's tables and check on the H100's children") {
  const KeptRun run = KeptRun::load(kH100, kChapter);
  // Run 5 kept V1 against V2 per pair (up to 110.2 % with 1 connection at 8 chunks): the same cells now.
  const ch05::QueueRun queues = replay_children(run);
  // Run 5 printed shared_connections_<c>.matched (matched_count 4) for each child; the new
  // table's model_held column says "yes" at the same 4 stream counts of each.
  const lab::ResultTable orders = ch05::stream_order_table(queues);
  const std::vector<std::pair<std::string, std::string>> children = {
      {"", "default"}, {"1", "1"}, {"2", "2"}, {"32", "32"}};
  for (const auto& [seen, id] : children) {
    CAPTURE(id);
    const auto& printed = run.finding("shared_connections_" + id);
    CHECK(printed.at("finding_id").get<std::string>() == "shared_connections_" + id + ".matched");
    CHECK(model_held_count(orders, run, seen) == printed.at("values").at("matched_count").get<int>());
  }
  for (const auto& r : run.rows("stream_orders")) {
    CAPTURE(r.at("name").get<std::string>());
    CHECK(cell(orders, r.at("name").get<std::string>(), "model_lengths") == r.at("model_lengths").get<int>());
  }
}
