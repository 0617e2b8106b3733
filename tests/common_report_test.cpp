#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report.hpp"
#include "support/text_lines.hpp"

using lab_test::lines_of;

TEST_CASE("a table aligns text left and numbers right, with units in the header") {
  lab::Table table({{"variant", "", false}, {"time", "ms"}, {"bandwidth", "GB/s"}});
  table.add_row({"copy", "1.250", "2900"});
  table.add_row({"grid-stride float4", "12.5", "80"});
  const auto lines = lines_of(table.render());
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "variant             time [ms]  bandwidth [GB/s]");
  CHECK(lines[1] == std::string(lines[0].size(), '-'));
  CHECK(lines[2] == "copy                    1.250              2900");
  CHECK(lines[3] == "grid-stride float4       12.5                80");
}

TEST_CASE("table width counts characters, not bytes") {
  lab::Table table({{"t", "µs"}, {"x", ""}});
  table.add_row({"1", "2"});
  const auto lines = lines_of(table.render());
  CHECK(lines[0] == "t [µs]  x");
  CHECK(lines[2] == "     1  2");
}

TEST_CASE("a row with the wrong number of cells is refused") {
  lab::Table table({{"a", ""}, {"b", ""}});
  CHECK_THROWS_AS(table.add_row({"only one"}), std::invalid_argument);
}

TEST_CASE("fixed formats decimals") {
  CHECK(lab::fixed(3.14159, 2) == "3.14");
  CHECK(lab::fixed(2.0, 0) == "2");
}

TEST_CASE("the report has the shared JSON shape") {
  lab::Report report("01_kernel_launch", lab::Json::object().set("name", "Test GPU"), lab::Json::object().set("n", 8));
  const lab::Summary s = report.add_result("variant a", "ms", {3, 1, 2}, lab::Json::object().set("grid", 4));
  CHECK(s.median == 2);
  CHECK(report.check("correct", true, "8 values"));
  const lab::Json json = lab::Json::parse(report.to_json().dump());

  CHECK(json.keys() == std::vector<std::string>{"chapter", "date", "device", "options", "results", "checks", "passed"});
  CHECK(json.at("chapter").as_string() == "01_kernel_launch");
  CHECK(json.at("date").as_string().size() == 20);  // 2026-11-20T12:34:56Z
  CHECK(json.at("device").at("name").as_string() == "Test GPU");
  CHECK(json.at("options").at("n").as_number() == 8);
  const lab::Json& r = json.at("results").at(0);
  for (const char* key :
       {"name", "unit", "samples", "count", "min", "q1", "median", "q3", "max", "mean", "stddev", "cv"}) {
    CAPTURE(key);
    CHECK(r.contains(key));
  }
  CHECK(r.at("samples").size() == 3);
  CHECK(r.at("samples").at(0).as_number() == 3);  // samples keep their order
  CHECK(r.at("min").as_number() == 1);
  CHECK(r.at("max").as_number() == 3);
  CHECK(r.at("grid").as_number() == 4);  // extra fields are merged in
  CHECK(json.at("checks").at(0).at("name").as_string() == "correct");
  CHECK(json.at("checks").at(0).at("passed").as_bool());
  CHECK(json.at("passed").as_bool());
}

TEST_CASE("one failed check fails the report, and so does having no checks") {
  lab::Report empty("x", lab::Json::object(), lab::Json::object());
  CHECK_FALSE(empty.all_passed());
  CHECK(empty.finish("") == 1);

  lab::Report report("x", lab::Json::object(), lab::Json::object());
  report.check("first", true, "");
  CHECK(report.all_passed());
  CHECK_FALSE(report.check("second", false, "3 of 8 values differ"));
  CHECK_FALSE(report.all_passed());
  CHECK(report.finish("") == 1);
  CHECK_FALSE(lab::Json::parse(report.to_json().dump()).at("passed").as_bool());
}

TEST_CASE("finish writes the JSON file it was given") {
  lab::Report report("x", lab::Json::object(), lab::Json::object());
  report.check("ok", true, "");
  const std::string path = "report_test_output.json";
  CHECK(report.finish(path) == 0);
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  CHECK(lab::Json::parse(text.str()).at("chapter").as_string() == "x");
  std::remove(path.c_str());
}
