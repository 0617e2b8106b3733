#include "block_recorder.hpp"

#include <algorithm>
#include <map>

#include "statistics.hpp"

namespace lab {

namespace {

double us_between(unsigned long long from_ns, unsigned long long to_ns) {
  return static_cast<double>(to_ns - from_ns) * 1e-3;
}

// The written records of @p records, grouped by SM, each group in order of start.
std::map<unsigned int, std::vector<BlockRecord>> by_sm(const std::vector<BlockRecord>& records) {
  std::map<unsigned int, std::vector<BlockRecord>> sms;
  for (const BlockRecord& r : records)
    if (r.complete()) sms[r.smid].push_back(r);
  for (auto& [sm, blocks] : sms)
    std::sort(blocks.begin(), blocks.end(),
              [](const BlockRecord& x, const BlockRecord& y) { return x.start_ns < y.start_ns; });
  return sms;
}

}  // namespace

BlockSpan summarize_blocks(const std::vector<BlockRecord>& records) {
  BlockSpan s;
  std::vector<double> lengths;
  for (const BlockRecord& r : records) {
    if (!r.complete()) {
      ++s.missing;
      continue;
    }
    s.first_start_ns = s.blocks == 0 ? r.start_ns : std::min(s.first_start_ns, r.start_ns);
    s.last_end_ns = s.blocks == 0 ? r.end_ns : std::max(s.last_end_ns, r.end_ns);
    lengths.push_back(us_between(r.start_ns, r.end_ns));
    ++s.blocks;
  }
  s.span_us = s.blocks == 0 ? 0.0 : us_between(s.first_start_ns, s.last_end_ns);
  s.median_block_us = median_or_nan(lengths);
  s.max_block_us = lengths.empty() ? 0.0 : *std::max_element(lengths.begin(), lengths.end());
  for (const SmLane& lane : sm_lanes(records)) {
    s.min_blocks_per_sm = s.sms == 0 ? lane.blocks : std::min(s.min_blocks_per_sm, lane.blocks);
    s.max_blocks_per_sm = std::max(s.max_blocks_per_sm, lane.blocks);
    ++s.sms;
  }
  return s;
}

std::vector<SmLane> sm_lanes(const std::vector<BlockRecord>& records) {
  std::vector<SmLane> lanes;
  for (const auto& [sm, blocks] : by_sm(records)) {
    SmLane lane;
    lane.smid = sm;
    lane.blocks = blocks.size();
    lane.first_start_ns = blocks.front().start_ns;
    unsigned long long covered_to = blocks.front().start_ns;  // the union of the spans, swept in order of start
    for (const BlockRecord& b : blocks) {
      lane.last_end_ns = std::max(lane.last_end_ns, b.end_ns);
      if (b.end_ns > covered_to) {
        lane.busy_us += us_between(std::max(b.start_ns, covered_to), b.end_ns);
        covered_to = b.end_ns;
      }
    }
    lanes.push_back(lane);
  }
  return lanes;
}

std::string sm_list_text(const std::vector<BlockRecord>& records) {
  std::string text;
  const auto sms = by_sm(records);
  for (auto it = sms.begin(); it != sms.end();) {
    const unsigned int first = it->first;
    unsigned int last = first;
    for (++it; it != sms.end() && it->first == last + 1; ++it) last = it->first;
    text += (text.empty() ? "" : ", ") + std::to_string(first) + (last > first ? "-" + std::to_string(last) : "");
  }
  return text;
}

BlockColumns block_columns(const std::vector<BlockRecord>& records, unsigned long long origin_ns) {
  BlockColumns columns;
  for (const BlockRecord& r : records) {
    if (!r.complete()) continue;
    columns.start_us.push_back(static_cast<double>(static_cast<long long>(r.start_ns - origin_ns)) * 1e-3);
    columns.end_us.push_back(static_cast<double>(static_cast<long long>(r.end_ns - origin_ns)) * 1e-3);
    columns.sm.push_back(r.smid);
  }
  return columns;
}

std::vector<Interval> block_intervals(const std::vector<BlockRecord>& records, const std::string& name,
                                      unsigned long long origin_ns, int device) {
  std::vector<Interval> rows;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const BlockRecord& r = records[i];
    if (!r.complete()) continue;
    Interval row;
    row.kind = Interval::Kind::kernel;
    row.name = name + " block " + std::to_string(i);
    row.device = device;
    row.stream = r.smid;
    row.stream_name = "SM " + std::to_string(r.smid);
    // Signed: a block may start before the origin the caller chose.
    row.start_ns = static_cast<double>(static_cast<long long>(r.start_ns - origin_ns));
    row.end_ns = static_cast<double>(static_cast<long long>(r.end_ns - origin_ns));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace lab
