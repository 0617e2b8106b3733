#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "report.hpp"
#include "support/text_lines.hpp"

using lab_test::lines_of;

TEST_CASE("a result table aligns names left and numbers right, and counts characters, not bytes") {
  lab::ResultTable table("aligned", "", "variant", {{"time", "time", "µs", 1}, {"x", "x", "", 0}});
  table.add_row("grid-stride float4").set("time", 12.5).set("x", 80);
  table.add_row("copy").set("time", 1.25).set("x", 2900);
  const auto lines = lines_of(table.render());
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "variant             time [µs]     x");
  CHECK(lines[1] == std::string(lines[0].size() - 1, '-'));  // "µ" is two bytes, one character
  CHECK(lines[2] == "grid-stride float4       12.5    80");
  CHECK(lines[3] == "copy                      1.2  2900");
}

TEST_CASE("fixed formats decimals") {
  CHECK(lab::fixed(3.14159, 2) == "3.14");
  CHECK(lab::fixed(2.0, 0) == "2");
}

using Json = nlohmann::ordered_json;

TEST_CASE("the report has the shared JSON shape") {
  lab::Report report("01_kernel_launch", {{"name", "Test GPU"}}, {{"n", 8}});
  lab::ResultTable table("variants", "t", "variant", {{"grid", "grid", ""}});
  table.add_row("variant a").samples({3, 1, 2}, "ms").set("grid", 4);
  CHECK(table.row("variant a").summary().median == 2);
  report.add(table);
  report.add(lab::correctness_check("correct", "correct", true, "8 values"));
  const Json json = Json::parse(report.json_text());

  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"schema", "chapter", "date", "device", "options", "instrumented", "results",
                                         "checks", "findings", "passed"});
  CHECK(json.at("schema") == lab::kJsonSchema);
  CHECK(json.at("chapter") == "01_kernel_launch");
  CHECK(json.at("date").get<std::string>().size() == 20);  // 2026-11-20T12:34:56Z
  CHECK(json.at("device").at("name") == "Test GPU");
  CHECK(json.at("options").at("n") == 8);
  const Json& r = json.at("results").at(0);
  for (const char* key :
       {"name", "unit", "samples", "count", "min", "q1", "median", "q3", "max", "mean", "stddev", "cv"}) {
    CAPTURE(key);
    CHECK(r.contains(key));
  }
  CHECK(r.at("samples").size() == 3);
  CHECK(r.at("samples").at(0) == 3);  // samples keep their order
  CHECK(r.at("min") == 1);
  CHECK(r.at("max") == 3);
  CHECK(r.at("grid") == 4);  // set() fields beside the statistics
  CHECK(r.at("table_id") == "variants");
  CHECK(json.at("checks").at(0).at("finding_id") == "correct");
  CHECK(json.at("checks").at(0).at("name") == "correct");
  CHECK(json.at("checks").at(0).at("passed") == true);
  CHECK(json.at("passed") == true);
}

TEST_CASE("a result table renders the same numbers it writes to the JSON") {
  lab::ResultTable table("three", "Three variants", "variant",
                         {{"grid", "grid", "blocks"}, {"median", "median", "ms", 3}, {"gbps", "bandwidth", "GB/s", 0}});
  table.add_row("copy").samples({2.0, 1.0, 4.0}, "ms").set("gbps", 2900.4);
  table.add_row("add").samples({1.5}, "ms").set("grid", 1056).set("gbps", 2851.0).set("json_only", "x");
  table.note("bandwidth counts a and b read, c written");
  const std::vector<std::string> lines = lines_of(table.render());
  REQUIRE(lines.size() == 6);
  CHECK(lines[0] == "Three variants");
  CHECK(lines[1] == "variant  grid [blocks]  median [ms]  bandwidth [GB/s]");
  CHECK(lines[3] == "copy                 -        2.000              2900");
  CHECK(lines[4] == "add               1056        1.500              2851");
  CHECK(lines[5] == "bandwidth counts a and b read, c written");

  lab::Report report("x", {}, {});
  report.add(table);
  report.add(lab::correctness_check("ok", "ok", true, ""));
  const Json results = Json::parse(report.json_text()).at("results");
  REQUIRE(results.size() == 2);
  CHECK(results.at(0).at("table") == "Three variants");
  CHECK(results.at(0).at("median") == 2.0);
  CHECK(results.at(0).at("gbps") == 2900.4);
  CHECK(results.at(1).at("grid") == 1056);
  CHECK(results.at(1).at("json_only") == "x");
  CHECK(table.row("add").get("median").number() == 1.5);
  CHECK(table.row("add").get("nothing").is_none());
  CHECK_THROWS_AS(table.row("nothing"), std::out_of_range);
}

TEST_CASE("observations are recorded as findings, not as checks") {
  lab::Report report("x", {}, {});
  report.add(lab::observation("order.same", "order", "V1 and V2 took the same time within 5 %"));
  CHECK_FALSE(report.all_passed());  // no check made
  report.add(lab::correctness_check("correct", "correct", true, "exact"));
  CHECK(report.all_passed());
  const Json json = Json::parse(report.json_text());
  CHECK(json.at("checks").size() == 1);
  CHECK(json.at("findings").at(0).at("text") == "V1 and V2 took the same time within 5 %");
}

TEST_CASE("an instrumented run does not judge timing checks, and still judges correctness") {
  lab::Report plain("x", {}, {}, false);
  plain.add(lab::correctness_check("correct", "correct", true, ""));
  plain.add(lab::timing_check("faster", "faster", false, "1.2 vs 1.1 ms"));
  CHECK_FALSE(plain.all_passed());

  lab::Report instrumented("x", {}, {}, true);
  instrumented.add(lab::correctness_check("correct", "correct", true, ""));
  instrumented.add(lab::timing_check("faster", "faster", false, "1.2 vs 1.1 ms"));
  CHECK(instrumented.all_passed());
  CHECK(instrumented.finish("") == 0);
  const Json check = Json::parse(instrumented.json_text()).at("checks").at(1);
  CHECK(check.at("kind") == "timing");
  CHECK(check.at("judged") == false);

  instrumented.add(lab::correctness_check("still_correct", "still correct", false, "3 of 8 values differ"));
  CHECK_FALSE(instrumented.all_passed());
  CHECK(instrumented.finish("") == 1);
}

TEST_CASE("one failed check fails the report, and so does having no checks") {
  lab::Report empty("x", {}, {});
  CHECK_FALSE(empty.all_passed());
  CHECK(empty.finish("") == 1);

  lab::Report report("x", {}, {});
  report.add(lab::correctness_check("first", "first", true, ""));
  CHECK(report.all_passed());
  report.add(lab::correctness_check("second", "second", false, "3 of 8 values differ"));
  CHECK_FALSE(report.all_passed());
  CHECK(report.finish("") == 1);
  CHECK(Json::parse(report.json_text()).at("passed") == false);
}

TEST_CASE("finish writes the JSON file it was given") {
  lab::Report report("x", {}, {});
  report.add(lab::correctness_check("ok", "ok", true, ""));
  const std::string path = "report_test_output.json";
  CHECK(report.finish(path) == 0);
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  CHECK(Json::parse(text.str()).at("chapter") == "x");
  std::remove(path.c_str());
}

TEST_CASE("a finding carries its id, its branch and the numbers it was made from, into the JSON") {
  lab::Report report("01_kernel_launch", {}, {});
  report.add(lab::timing_check("launch_returns_early", "the launch returns early", true, "5 us for a 20 ms kernel")
                 .with("launch_us", 5.0)
                 .with("kernel_ms", 20.0));
  report.add(lab::named_observation("working_set.dram", "working set", "4.5 times the L2").with("times_l2", 4.5));
  const lab::Finding f = lab::observation("best.grid_stride", "best", "text").with("percent", 96.1);
  CHECK(f.value("percent").number() == doctest::Approx(96.1));
  CHECK_THROWS_AS(f.value("missing"), std::out_of_range);
  const Json json = Json::parse(report.json_text());
  const Json& check = json.at("checks").at(0);
  CHECK(check.at("finding_id") == "launch_returns_early");
  CHECK(check.at("values").at("launch_us") == 5.0);
  CHECK(check.at("values").at("kernel_ms") == 20.0);
  const Json& finding = json.at("findings").at(0);
  CHECK(finding.at("finding_id") == "working_set.dram");
  CHECK(finding.at("text") == "working set: 4.5 times the L2");
  CHECK(finding.at("values").at("times_l2") == 4.5);
}

TEST_CASE("a table or a finding without an id is refused: scripts and tests could not find it") {
  lab::Report report("01_kernel_launch", {}, {});
  CHECK_THROWS_AS(report.add(lab::ResultTable("", "untitled", "what", {})), std::logic_error);
  CHECK_THROWS_AS(report.add(lab::observation("", "nameless", "text")), std::logic_error);
}
