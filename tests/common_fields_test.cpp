// lab::Value as a table cell and as a number (fields.hpp).
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "fields.hpp"

TEST_CASE("a value as a table cell") {
  CHECK(lab::Value(12.345).format(2) == "12.35");
  CHECK(lab::Value(2.0f).format(1) == "2.0");
  CHECK(lab::Value(1056).format(2) == "1056");  // integers keep every digit, no decimals
  CHECK(lab::Value(-7LL).format(0) == "-7");
  CHECK(lab::Value(true).format(2) == "yes");
  CHECK(lab::Value(false).format(2) == "no");
  CHECK(lab::Value("H100").format(2) == "H100");
  CHECK(lab::Value(std::string("10 streams")).format(3) == "10 streams");
  CHECK(lab::Value(std::vector<double>{1.0, 2.5, 3.0}).format(1) == "1.0, 2.5, 3.0");
  CHECK(lab::Value(std::vector<double>{}).format(1).empty());
  CHECK(lab::Value().format(2) == "-");
}

TEST_CASE("a value as a number: numbers, integers and yes/no; anything else is a programming error") {
  CHECK(lab::Value(0.5).number() == 0.5);
  CHECK(lab::Value(1LL << 40).number() == 1099511627776.0);
  CHECK(lab::Value(true).number() == 1.0);
  CHECK(lab::Value(false).number() == 0.0);
  CHECK_THROWS_AS(lab::Value("3").number(), std::logic_error);
  CHECK_THROWS_AS(lab::Value().number(), std::logic_error);
  CHECK_THROWS_AS(lab::Value(std::vector<double>{1.0}).number(), std::logic_error);
}

TEST_CASE("fixed() writes a number with the decimals asked for") {
  CHECK(lab::fixed(3.14159, 2) == "3.14");
  CHECK(lab::fixed(2.0, 0) == "2");
  CHECK(lab::fixed(-0.5, 3) == "-0.500");
}

TEST_CASE("signed_percent() always shows the sign, and never a negative zero") {
  CHECK(lab::signed_percent(2.54, 1) == "+2.5 %");
  CHECK(lab::signed_percent(-3.8, 1) == "-3.8 %");
  CHECK(lab::signed_percent(-0.04, 1) == "+0.0 %");
  CHECK(lab::signed_percent(-0.4, 0) == "+0 %");
  CHECK(lab::signed_percent(-12.0, 0) == "-12 %");
}
