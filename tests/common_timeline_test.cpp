// The spans, overlap sums and text chart of common/timeline.hpp, on hand-made spans.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/text_lines.hpp"
#include "timeline.hpp"

using lab_test::lines_of;

TEST_CASE("busy_ms counts overlapping spans of the same kind once") {
  const std::vector<lab::Span> spans = {{"a", 'H', 0, 2}, {"b", 'H', 1, 3}, {"c", 'H', 5, 6}, {"d", 'K', 0, 10}};
  CHECK(lab::busy_ms(spans, "H") == doctest::Approx(4.0));  // [0,3] + [5,6]
  CHECK(lab::busy_ms(spans, "K") == doctest::Approx(10.0));
  CHECK(lab::busy_ms(spans, "HK") == doctest::Approx(10.0));
  CHECK(lab::busy_ms(spans, "D") == 0.0);
  CHECK(lab::busy_ms({}, "H") == 0.0);
}

TEST_CASE("overlap_ms is the length of the intersection of the two unions") {
  const std::vector<lab::Span> spans = {
      {"a", 'H', 0, 4}, {"b", 'D', 3, 6}, {"c", 'D', 8, 9}, {"d", 'H', 8.5, 12}, {"e", 'K', 20, 21}};
  CHECK(lab::overlap_ms(spans, "H", "D") == doctest::Approx(1.0 + 0.5));  // [3,4] and [8.5,9]
  CHECK(lab::overlap_ms(spans, "D", "H") == doctest::Approx(1.5));        // symmetric
  CHECK(lab::overlap_ms(spans, "HD", "K") == 0.0);                       // disjoint
  // Zero-length spans never overlap anything.
  CHECK(lab::overlap_ms({{"a", 'H', 1, 1}, {"b", 'D', 0, 2}}, "H", "D") == 0.0);
}

TEST_CASE("queue_one_at_a_time starts each copy when the previous one ended") {
  // Three copies reached at 0 that ended at 1, 2 and 3: they ran one after another.
  std::vector<lab::Span> spans = {{"s2", 'H', 0, 3}, {"s0", 'H', 0, 1}, {"s1", 'H', 0, 2}, {"s0", 'K', 0, 5}};
  lab::queue_one_at_a_time(spans, 'H');
  CHECK(spans[0].begin_ms == doctest::Approx(2.0));
  CHECK(spans[1].begin_ms == doctest::Approx(0.0));
  CHECK(spans[2].begin_ms == doctest::Approx(1.0));
  CHECK(spans[3].begin_ms == doctest::Approx(0.0));  // other symbols untouched
  CHECK(lab::overlap_ms(spans, "H", "H") == doctest::Approx(3.0));
  // A copy that was reached after the previous one ended keeps its own start.
  std::vector<lab::Span> late = {{"a", 'D', 0, 1}, {"b", 'D', 4, 5}};
  lab::queue_one_at_a_time(late, 'D');
  CHECK(late[1].begin_ms == doctest::Approx(4.0));
}

TEST_CASE("render_timeline draws one row per track, scaled to the latest end") {
  const std::vector<lab::Span> spans = {
      {"stream 1", 'K', 5, 10}, {"stream 0", 'H', 0, 5}, {"stream 0", 'D', 5, 10}};
  const std::string chart = lab::render_timeline(spans, {{'H', "in"}, {'K', "kernel"}, {'D', "out"}}, 10);
  const std::vector<std::string> rows = lines_of(chart);
  REQUIRE(rows.size() == 4);  // two tracks, the scale, the legend
  CHECK(rows[0] == "  stream 1 |     KKKKK|");  // first appearance first
  CHECK(rows[1] == "  stream 0 |HHHHHDDDDD|");
  CHECK(rows[2].find("0") != std::string::npos);
  CHECK(rows[2].find("10.000 ms") != std::string::npos);
  CHECK(rows[3].find("H in") != std::string::npos);
  CHECK(rows[3].find("one column = 1.000 ms") != std::string::npos);
}

TEST_CASE("render_timeline keeps short and zero-length spans visible") {
  // A 0.01 ms kernel between two 5 ms copies on one row, 10 columns of 1 ms.
  const std::vector<lab::Span> spans = {{"s", 'H', 0, 5}, {"s", 'K', 5, 5.01}, {"s", 'D', 5.01, 10}, {"t", 'X', 7, 7}};
  const std::vector<std::string> rows = lines_of(lab::render_timeline(spans, {}, 10));
  CHECK(rows[0] == "  s |HHHHHKDDDD|");
  CHECK(rows[1] == "  t |       X  |");
}

TEST_CASE("render_timeline handles one span, many rows, nothing at all, and a tiny width") {
  CHECK(lab::render_timeline({}, {}, 20) == "  (no spans)\n");
  const std::vector<std::string> one = lines_of(lab::render_timeline({{"only", '#', 0, 1e-6}}, {}, 20));
  CHECK(one[0] == "  only |" + std::string(20, '#') + "|");
  std::vector<lab::Span> many;
  for (int i = 0; i < 32; ++i) many.push_back({"stream " + std::to_string(i), 'K', i * 1.0, i + 1.0});
  const std::vector<std::string> rows = lines_of(lab::render_timeline(many, {}, 64));
  CHECK(rows.size() == 34);
  for (int i = 0; i < 32; ++i) CHECK(rows[static_cast<std::size_t>(i)].size() == rows[0].size());  // labels padded
  CHECK(rows[31].substr(rows[31].size() - 3) == "KK|");
  const std::vector<std::string> narrow = lines_of(lab::render_timeline({{"a", 'H', 0, 100}}, {}, 1));
  CHECK(narrow[0] == "  a |" + std::string(10, 'H') + "|");  // at least 10 columns
}

TEST_CASE("queue_copies_one_at_a_time redraws both copy directions and leaves kernels alone") {
  std::vector<lab::Span> spans = {{"a", lab::kCopyIn, 0, 2},  {"b", lab::kCopyIn, 0, 4},  {"a", lab::kKernel, 0, 3},
                                  {"b", lab::kKernel, 0, 5},  {"a", lab::kCopyOut, 2, 6}, {"b", lab::kCopyOut, 2, 9}};
  lab::queue_copies_one_at_a_time(spans);
  CHECK(spans[1].begin_ms == doctest::Approx(2.0));  // copy in of b waited for a's
  CHECK(spans[3].begin_ms == doctest::Approx(0.0));  // kernels may overlap: untouched
  CHECK(spans[5].begin_ms == doctest::Approx(6.0));  // copy out of b waited for a's
  const std::vector<lab::LegendEntry> legend = lab::copy_kernel_copy_legend("3 kernels");
  REQUIRE(legend.size() == 3);
  CHECK(legend[1].symbol == lab::kKernel);
  CHECK(legend[1].meaning == "3 kernels");
}
