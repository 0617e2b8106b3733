// The trace renderers (common/timeline/trace.hpp) on hand-made intervals: the text chart's
// rows and columns, and the Chrome trace JSON parsed back field by field.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/text_lines.hpp"
#include "trace.hpp"

using Json = nlohmann::ordered_json;

namespace {

lab::Interval kernel(std::uint32_t stream, const std::string& stream_name, double start_us, double end_us) {
  lab::Interval i;
  i.kind = lab::Interval::Kind::kernel;
  i.name = "scale_kernel";
  i.stream = stream;
  i.stream_name = stream_name;
  i.start_ns = start_us * 1000;
  i.end_ns = end_us * 1000;
  return i;
}

lab::Interval copy(std::uint32_t stream, const std::string& direction, double start_us, double end_us) {
  lab::Interval i = kernel(stream, "stream " + std::to_string(stream), start_us, end_us);
  i.kind = lab::Interval::Kind::memcpy;
  i.name = "copy";
  i.direction = direction;
  i.bytes = 1 << 20;
  i.host_memory = "pinned";
  return i;
}

// The X events of a parsed trace, and the names of its tracks by (pid, tid).
struct Parsed {
  std::vector<Json> slices;  // copies: the parsed trace may be a temporary
  std::map<std::pair<int, int>, std::string> track_names;
  std::map<int, std::string> process_names;
};

Parsed parse(const Json& trace) {
  Parsed p;
  const Json& events = trace.at("traceEvents");
  for (std::size_t k = 0; k < events.size(); ++k) {
    const Json& e = events.at(k);
    const std::string ph = e.at("ph").get<std::string>();
    const int pid = static_cast<int>(e.at("pid").get<double>());
    if (ph == "X") {
      p.slices.push_back(e);
    } else if (ph == "M" && e.at("name").get<std::string>() == "thread_name") {
      p.track_names[{pid, static_cast<int>(e.at("tid").get<double>())}] = e.at("args").at("name").get<std::string>();
    } else if (ph == "M" && e.at("name").get<std::string>() == "process_name") {
      p.process_names[pid] = e.at("args").at("name").get<std::string>();
    }
  }
  return p;
}

// No two slices of one track overlap (touching is allowed).
bool tracks_never_overlap(const Parsed& p) {
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> by_track;
  for (const Json& e : p.slices) {
    const double ts = e.at("ts").get<double>();
    by_track[{static_cast<int>(e.at("pid").get<double>()), static_cast<int>(e.at("tid").get<double>())}].push_back(
        {ts, ts + e.at("dur").get<double>()});
  }
  for (auto& [track, slices] : by_track) {
    std::sort(slices.begin(), slices.end());
    for (std::size_t k = 1; k < slices.size(); ++k)
      if (slices[k].first < slices[k - 1].second) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("chrome_trace: two overlapping kernels on two streams, field by field") {
  const Json trace =
      Json::parse(lab::chrome_trace({kernel(7, "stream A", 0, 100), kernel(9, "stream B", 50, 150)}, "NVIDIA H100"));
  const Json reparsed = Json::parse(trace.dump());  // what a viewer reads
  CHECK(reparsed.at("displayTimeUnit").get<std::string>() == "ns");
  const Parsed p = parse(reparsed);
  REQUIRE(p.slices.size() == 2);
  CHECK(p.process_names.at(0) == "device 0: NVIDIA H100");
  const Json& a = p.slices[0];
  const Json& b = p.slices[1];
  CHECK(a.at("name").get<std::string>() == "scale_kernel");
  CHECK(a.at("cat").get<std::string>() == "kernel");
  CHECK(a.at("ts").get<double>() == doctest::Approx(0.0));
  CHECK(a.at("dur").get<double>() == doctest::Approx(100.0));  // microseconds
  CHECK(b.at("ts").get<double>() == doctest::Approx(50.0));
  CHECK(a.at("pid").get<double>() == 0);
  CHECK(a.at("tid").get<double>() != b.at("tid").get<double>());
  CHECK(p.track_names.at({0, static_cast<int>(a.at("tid").get<double>())}) == "stream A");
  CHECK(p.track_names.at({0, static_cast<int>(b.at("tid").get<double>())}) == "stream B");
  CHECK(a.at("args").at("stream").get<std::string>() == "stream A");
  CHECK(tracks_never_overlap(p));
}

TEST_CASE("chrome_trace: copies carry bytes, direction and host memory; regions get their own track") {
  lab::Interval region = kernel(0, "", 0, 300);
  region.kind = lab::Interval::Kind::region;
  region.name = "10 streams";
  const Parsed p = parse(Json::parse(lab::chrome_trace({copy(3, "HtoD", 10, 20), region}, "GPU")));
  REQUIRE(p.slices.size() == 2);
  const Json* c = nullptr;
  const Json* r = nullptr;
  for (const Json& e : p.slices) (e.at("cat").get<std::string>() == "memcpy" ? c : r) = &e;
  REQUIRE(c != nullptr);
  REQUIRE(r != nullptr);
  CHECK(c->at("args").at("bytes").get<double>() == 1048576);
  CHECK(c->at("args").at("direction").get<std::string>() == "HtoD");
  CHECK(c->at("args").at("host_memory").get<std::string>() == "pinned");
  CHECK(r->at("cat").get<std::string>() == "region");
  CHECK(p.track_names.at({0, static_cast<int>(r->at("tid").get<double>())}) == "chapter");
}

TEST_CASE("chrome_trace: overlapping intervals of one stream go on separate tracks") {
  const std::vector<lab::Interval> intervals = {kernel(1, "s", 0, 10), kernel(1, "s", 5, 15), kernel(1, "s", 10, 20),
                                                kernel(1, "s", 12, 13)};
  const Parsed p = parse(Json::parse(lab::chrome_trace(intervals, "GPU")));
  CHECK(tracks_never_overlap(p));
  std::vector<std::string> names;
  for (const auto& [track, name] : p.track_names) names.push_back(name);
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"s", "s (2)", "s (3)"});  // [10, 20) follows [0, 10): touching is fine
}

TEST_CASE("render_chart: one row per stream in order of first work, from unsorted input") {
  // Stream 2 starts first although it comes last in the input.
  const std::string chart =
      lab::render_chart({kernel(1, "late", 50, 100), copy(5, "DtoH", 60, 90), kernel(2, "early", 0, 40)}, 100);
  const std::vector<std::string> lines = lab_test::lines_of(chart);
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0].rfind("  early", 0) == 0);
  CHECK(lines[1].rfind("  late", 0) == 0);
  CHECK(lines[2].rfind("  stream 5", 0) == 0);
  CHECK(lines[0].find('K') != std::string::npos);
  CHECK(lines[2].find('D') != std::string::npos);
  CHECK(chart.find("D copy device to host") != std::string::npos);
  CHECK(chart.find("H copy") == std::string::npos);  // the legend lists only what was drawn
  for (const std::string& line : lines) CHECK(line.size() <= 100);
}

TEST_CASE("render_chart: one interval, a zero-length interval, and an empty recording") {
  const std::vector<std::string> one = lab_test::lines_of(lab::render_chart({kernel(1, "only", 0, 10)}, 60));
  REQUIRE(!one.empty());
  CHECK(std::count(one[0].begin(), one[0].end(), 'K') > 40);  // it fills the whole time axis
  for (const std::string& line : one) CHECK(line.size() <= 60);
  const std::string zero = lab::render_chart({kernel(1, "long", 0, 10), kernel(2, "instant", 5, 5)}, 80);
  const std::vector<std::string> lines = lab_test::lines_of(zero);
  REQUIRE(lines.size() >= 2);
  CHECK(std::count(lines[1].begin(), lines[1].end(), 'K') == 1);  // drawn as one column
  CHECK(lab::render_chart({}, 100).find("no GPU work") != std::string::npos);
  lab::Interval region = kernel(0, "", 0, 1);
  region.kind = lab::Interval::Kind::region;
  CHECK(lab::render_chart({region}, 100).find("no GPU work") != std::string::npos);
}

TEST_CASE("render_chart: many streams, and a very short kernel beside a very long copy") {
  std::vector<lab::Interval> many;
  for (std::uint32_t s = 0; s < 24; ++s)
    many.push_back(kernel(s, "stream " + std::to_string(s), s * 10.0, s * 10.0 + 5));
  const std::vector<std::string> rows = lab_test::lines_of(lab::render_chart(many, 100));
  REQUIRE(rows.size() >= 24);
  for (std::size_t s = 0; s < 24; ++s) CHECK(rows[s].find("stream " + std::to_string(s) + " ") != std::string::npos);
  for (const std::string& line : rows) CHECK(line.size() <= 100);
  // 1 s of copy and a 1 us kernel on the same stream: the kernel still gets its column.
  const std::vector<std::string> lines =
      lab_test::lines_of(lab::render_chart({copy(1, "HtoD", 0, 1e6), kernel(1, "stream 1", 5e5, 5e5 + 1)}, 100));
  REQUIRE(!lines.empty());
  CHECK(lines[0].find('K') != std::string::npos);
  CHECK(lines[0].find('H') != std::string::npos);
}

TEST_CASE("render_chart and chrome_trace: a host span gets its own row and track") {
  lab::Interval timer = kernel(0, "host timer", 0, 30);
  timer.kind = lab::Interval::Kind::host;
  timer.name = "host timer";
  const std::vector<lab::Interval> intervals = {kernel(4, "stream", 0, 100), timer};
  const std::vector<std::string> lines = lab_test::lines_of(lab::render_chart(intervals, 80));
  REQUIRE(lines.size() >= 2);
  CHECK(lines[1].rfind("  host timer", 0) == 0);
  CHECK(lines[1].find('T') != std::string::npos);
  CHECK(lines[1].find('K') == std::string::npos);
  const Parsed p = parse(Json::parse(lab::chrome_trace(intervals, "GPU")));
  std::vector<std::string> names;
  for (const auto& [track, name] : p.track_names) names.push_back(name);
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"host timer", "stream"});
}

TEST_CASE("busy_ms counts overlapping intervals of the chosen kinds once") {
  // Copies in: 0-10 and 5-20 us (union 20 us); a kernel 30-40 us; a copy out 15-25 us.
  const std::vector<lab::Interval> work = {copy(1, "HtoD", 0, 10), copy(2, "HtoD", 5, 20), kernel(1, "s", 30, 40),
                                           copy(3, "DtoH", 15, 25)};
  CHECK(lab::busy_ms(work, "H") == doctest::Approx(0.020));
  CHECK(lab::busy_ms(work, "K") == doctest::Approx(0.010));
  CHECK(lab::busy_ms(work, "HD") == doctest::Approx(0.025));
  CHECK(lab::busy_ms(work, "S") == 0);
  CHECK(lab::busy_ms({}, "HKD") == 0);
}

TEST_CASE("overlap_ms is the intersection of the two unions, and 0 when they only touch") {
  const std::vector<lab::Interval> work = {copy(1, "HtoD", 0, 10), copy(2, "HtoD", 5, 20), copy(3, "DtoH", 15, 25),
                                           kernel(1, "s", 25, 40)};
  CHECK(lab::overlap_ms(work, "H", "D") == doctest::Approx(0.005));
  CHECK(lab::overlap_ms(work, "D", "K") == 0);  // 15-25 and 25-40 touch
  CHECK(lab::overlap_ms(work, "HD", "K") == 0);
  CHECK(lab::overlap_ms(work, "H", "H") == doctest::Approx(0.020));
}

TEST_CASE("kernels_named: the kernels whose name contains one of the names, in the order they started") {
  lab::Interval late = kernel(1, "stream 1", 30, 40), early = kernel(2, "stream 2", 10, 20);
  late.name = "void jacobi_sweep<float>(...)";
  early.name = "jacobi_decide";
  lab::Interval other = kernel(1, "stream 1", 0, 5), moved = copy(1, "HtoD", 5, 8);
  other.name = "pass_add";
  moved.name = "jacobi_sweep copy";  // a copy, not a kernel, whatever its name
  const std::vector<lab::Interval> work = {late, other, moved, early};
  const std::vector<lab::Interval> named = lab::kernels_named(work, {"jacobi_sweep", "jacobi_decide"});
  REQUIRE(named.size() == 2);
  CHECK(named[0].name == "jacobi_decide");
  CHECK(named[1].name == "void jacobi_sweep<float>(...)");
  const std::vector<lab::Interval> all = lab::kernels_named(work);
  REQUIRE(all.size() == 3);
  CHECK(all[0].name == "pass_add");
  CHECK(lab::kernels_named(work, {"timed_add"}).empty());
}
