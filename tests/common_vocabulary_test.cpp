#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "memory_fit.hpp"
#include "vocabulary.hpp"

TEST_CASE("lab::format fills a printf pattern, however long the text") {
  CHECK(lab::format("%.1f %% of the copy", 96.14) == "96.1 % of the copy");
  CHECK(lab::format("%d of %d", 3, 8) == "3 of 8");
  CHECK(lab::format("%s", std::string(1000, 'x').c_str()).size() == 1000);
  CHECK(lab::format("no numbers") == "no numbers");
}

TEST_CASE("percent_of and percent_above say which base they divide by, and give NaN without one") {
  CHECK(lab::percent_of(1.0, 4.0) == doctest::Approx(25.0));
  CHECK(lab::percent_above(5.0, 4.0) == doctest::Approx(25.0));
  CHECK(lab::percent_above(3.0, 4.0) == doctest::Approx(-25.0));
  CHECK(std::isnan(lab::percent_of(1.0, 0.0)));
  CHECK(std::isnan(lab::percent_above(1.0, -1.0)));
}

TEST_CASE("sizes and counts in words") {
  CHECK(lab::mib_text(3.5 * lab::kMiB) == "3.5 MiB");
  CHECK(lab::mib_text(lab::kGiB, 0) == "1024 MiB");
  CHECK(lab::count_text(1, "stream", "streams") == "1 stream");
  CHECK(lab::count_text(10, "stream", "streams") == "10 streams");
  CHECK(lab::count_text(0, "stream", "streams") == "0 streams");
}

TEST_CASE("a memory need names the options it comes from when it does not fit") {
  const lab::MemoryNeed need{3.0 * lab::kGiB, "a, b and c", 1.0 * lab::kGiB, "the reference", "--n 256Mi"};
  CHECK(lab::check_memory_fits(need, std::size_t{4} << 30, std::size_t{4} << 30).empty());
  const std::string device_short = lab::check_memory_fits(need, std::size_t{1} << 30, std::size_t{4} << 30);
  CHECK(device_short.find("--n 256Mi") != std::string::npos);
  CHECK_FALSE(lab::check_memory_fits(need, std::size_t{4} << 30, std::size_t{1} << 29).empty());
}
