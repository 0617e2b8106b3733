// The block recorder's host side (common/timeline/block_recorder.hpp) on hand-made
// records: a kernel's span, its lanes per SM, the list of SMs, and the trace rows.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "block_recorder.hpp"

namespace {

constexpr unsigned long long kEpoch = 1'700'000'000'000'000'000ull;  // a %globaltimer reading: ns since 1970

lab::BlockRecord block(unsigned long long start, unsigned long long end, unsigned int sm) {
  return {kEpoch + start, kEpoch + end, sm, 1};
}

// Five blocks on SMs 0, 1 and 3: SM 0 runs two that overlap (0-1000, 500-2000),
// then one after a gap (3000-3500); SM 1 one (100-1100); SM 3 one (200-4200).
std::vector<lab::BlockRecord> records() {
  return {block(0, 1000, 0), block(500, 2000, 0), block(100, 1100, 1), block(3000, 3500, 0), block(200, 4200, 3)};
}

}  // namespace

TEST_CASE("summarize_blocks: the span runs from the first start to the last end, over written records only") {
  std::vector<lab::BlockRecord> r = records();
  r.push_back(lab::BlockRecord{});                    // never written
  r.push_back({kEpoch + 5000, kEpoch + 4000, 2, 1});  // ends before it starts: not usable
  const lab::BlockSpan s = lab::summarize_blocks(r);
  CHECK(s.blocks == 5);
  CHECK(s.missing == 2);
  CHECK(s.first_start_ns == kEpoch);
  CHECK(s.last_end_ns == kEpoch + 4200);
  CHECK(s.span_us == doctest::Approx(4.2));
  CHECK(s.median_block_us == doctest::Approx(1.0));  // lengths 1.0, 1.5, 1.0, 0.5, 4.0 us
  CHECK(s.max_block_us == doctest::Approx(4.0));
  CHECK(s.sms == 3);
  CHECK(s.min_blocks_per_sm == 1);
  CHECK(s.max_blocks_per_sm == 3);
}

TEST_CASE("summarize_blocks: no written record gives an empty span and a NaN median") {
  const lab::BlockSpan s = lab::summarize_blocks({lab::BlockRecord{}, lab::BlockRecord{}});
  CHECK(s.blocks == 0);
  CHECK(s.missing == 2);
  CHECK(s.span_us == 0.0);
  CHECK(std::isnan(s.median_block_us));
  CHECK(s.sms == 0);
}

TEST_CASE("sm_lanes: one lane per SM in SM order; busy time is the union of its blocks") {
  const std::vector<lab::SmLane> lanes = lab::sm_lanes(records());
  REQUIRE(lanes.size() == 3);
  CHECK(lanes[0].smid == 0);
  CHECK(lanes[0].blocks == 3);
  CHECK(lanes[0].first_start_ns == kEpoch);
  CHECK(lanes[0].last_end_ns == kEpoch + 3500);
  CHECK(lanes[0].busy_us == doctest::Approx(2.5));  // 0-2000 and 3000-3500: the overlap counted once
  CHECK(lanes[1].smid == 1);
  CHECK(lanes[1].busy_us == doctest::Approx(1.0));
  CHECK(lanes[2].smid == 3);
  CHECK(lanes[2].busy_us == doctest::Approx(4.0));
}

TEST_CASE("sm_list_text: consecutive SMs collapse into ranges") {
  CHECK(lab::sm_list_text(records()) == "0-1, 3");
  std::vector<lab::BlockRecord> r;
  for (unsigned int sm : {7u, 2u, 3u, 4u, 9u, 10u}) r.push_back(block(0, 10, sm));
  CHECK(lab::sm_list_text(r) == "2-4, 7, 9-10");
  CHECK(lab::sm_list_text({lab::BlockRecord{}}).empty());
}

TEST_CASE("block_intervals: one kernel row per written block, on the track of its SM, after the origin") {
  std::vector<lab::BlockRecord> r = records();
  r.push_back(lab::BlockRecord{});
  const std::vector<lab::Interval> rows = lab::block_intervals(r, "add", kEpoch + 100, 1);
  REQUIRE(rows.size() == 5);
  CHECK(rows[0].kind == lab::Interval::Kind::kernel);
  CHECK(rows[0].name == "add block 0");
  CHECK(rows[0].stream_name == "SM 0");
  CHECK(rows[0].device == 1);
  CHECK(rows[0].start_ns == doctest::Approx(-100.0));  // began before the origin
  CHECK(rows[0].end_ns == doctest::Approx(900.0));
  CHECK(rows[4].stream_name == "SM 3");
  CHECK(rows[4].end_ns == doctest::Approx(4100.0));
}

TEST_CASE("block_columns: written records as start, end and SM columns in us after the origin") {
  std::vector<lab::BlockRecord> r = records();
  r.insert(r.begin() + 1, lab::BlockRecord{});
  const lab::BlockColumns c = lab::block_columns(r, kEpoch + 500);
  REQUIRE(c.start_us.size() == 5);
  REQUIRE(c.end_us.size() == 5);
  REQUIRE(c.sm.size() == 5);
  CHECK(c.start_us[0] == doctest::Approx(-0.5));
  CHECK(c.end_us[0] == doctest::Approx(0.5));
  CHECK(c.start_us[1] == doctest::Approx(0.0));  // the unwritten record left out
  CHECK(c.sm[4] == 3);
  CHECK(c.end_us[4] == doctest::Approx(3.7));
}
