#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "json.hpp"

TEST_CASE("escaping: quotes, backslashes and control characters") {
  CHECK(lab::json_escape("plain") == "plain");
  CHECK(lab::json_escape("a\"b") == "a\\\"b");
  CHECK(lab::json_escape("a\\b") == "a\\\\b");
  CHECK(lab::json_escape("line\nnext\ttab\r") == "line\\nnext\\ttab\\r");
  CHECK(lab::json_escape(std::string("\x01\x1f", 2)) == "\\u0001\\u001f");
  CHECK(lab::json_escape("µs") == "µs");  // UTF-8 passes through
}

TEST_CASE("dump and parse round-trip every type") {
  lab::Json doc = lab::Json::object();
  doc.set("text", "he said \"hi\"\n\\ µs");
  doc.set("int", 42);
  doc.set("negative", -7);
  doc.set("real", 0.1);
  doc.set("big", 68719476736.0);  // 64 GiB stays an exact integer
  doc.set("yes", true);
  doc.set("no", false);
  doc.set("nothing", nullptr);
  doc.set("samples", lab::Json::array_of({1.5, 2.25, 1e-9}));
  doc.set("nested",
          lab::Json::object().set("empty_array", lab::Json::array()).set("empty_object", lab::Json::object()));

  for (int indent : {-1, 0, 2}) {
    const lab::Json back = lab::Json::parse(doc.dump(indent));
    CHECK(back.at("text").as_string() == "he said \"hi\"\n\\ µs");
    CHECK(back.at("int").as_number() == 42);
    CHECK(back.at("negative").as_number() == -7);
    CHECK(back.at("real").as_number() == 0.1);  // shortest round-trip form is exact
    CHECK(back.at("big").as_number() == 68719476736.0);
    CHECK(back.at("yes").as_bool());
    CHECK_FALSE(back.at("no").as_bool());
    CHECK(back.at("nothing").is_null());
    CHECK(back.at("samples").size() == 3);
    CHECK(back.at("samples").at(2).as_number() == 1e-9);
    CHECK(back.at("nested").at("empty_array").is_array());
    CHECK(back.at("nested").at("empty_object").is_object());
    CHECK(back.keys() == doc.keys());  // insertion order survives
  }
}

TEST_CASE("numbers are written as JSON allows") {
  CHECK(lab::Json(3).dump() == "3");
  CHECK(lab::Json(2.5).dump() == "2.5");
  CHECK(lab::Json(std::nan("")).dump() == "null");  // JSON has no NaN
  CHECK(lab::Json(std::numeric_limits<double>::infinity()).dump() == "null");
  CHECK(lab::Json::array_of({1, 2}).dump() == "[1, 2]");
  CHECK(lab::Json::object().set("a", 1).dump(-1) == "{\"a\":1}");
}

TEST_CASE("set replaces a key instead of duplicating it") {
  lab::Json o = lab::Json::object();
  o.set("k", 1).set("k", 2);
  CHECK(o.size() == 1);
  CHECK(o.at("k").as_number() == 2);
}

TEST_CASE("parse handles escapes, unicode and whitespace") {
  const lab::Json v = lab::Json::parse(" { \"a\" : [ 1 , -2.5e3 , \"\\u00b5\\ud83d\\ude00\\/\" ] } ");
  CHECK(v.at("a").at(0).as_number() == 1);
  CHECK(v.at("a").at(1).as_number() == -2500);
  CHECK(v.at("a").at(2).as_string() == "\xc2\xb5\xf0\x9f\x98\x80/");
}

TEST_CASE("parse rejects malformed text with an offset") {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"unterminated", "01x", "[1] 2", "{\"a\":}",
                          "\"\\ud800\"", "\"bad \\q escape\"", "-", "1.", "1e"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(lab::Json::parse(bad), std::runtime_error);
  }
  try {
    lab::Json::parse("[1, 2, x]");
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("offset 7") != std::string::npos);
  }
}

TEST_CASE("typed access fails loudly on the wrong type or a missing key") {
  const lab::Json v = lab::Json::parse("{\"n\": 1}");
  CHECK_THROWS_AS(v.at("n").as_string(), std::runtime_error);
  CHECK_THROWS_AS(v.at("missing"), std::out_of_range);
  CHECK_THROWS_AS(v.at("n").at(0), std::out_of_range);
  CHECK_FALSE(v.contains("missing"));
}
