#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"
#include "program.hpp"

namespace {

struct Settings {
  std::int64_t n = 1024;
  double ratio = 0.5;
  std::string name = "default";
  std::string json;
  bool verbose = false;
};

lab::Options make_table(Settings& s) {
  lab::Options table("prog", "A test program.");
  table.add("n", &s.n, 1, 1 << 30, "elements")
      .add("ratio", &s.ratio, 0.0, 1.0, "a fraction")
      .add("name", &s.name, "a name", "text")
      .add_output_file("json", &s.json, "results file")
      .add_flag("verbose", &s.verbose, "say more");
  return table;
}

lab::Options::Parsed parse(lab::Options& table, std::vector<const char*> args) {
  args.insert(args.begin(), "prog");
  return table.parse(static_cast<int>(args.size()), args.data());
}

// The message of the UsageError that parsing @p args throws ("" if none).
std::string usage_error(std::vector<const char*> args) {
  Settings s;
  lab::Options table = make_table(s);
  try {
    parse(table, std::move(args));
  } catch (const lab::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("defaults stay when nothing is given") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {}) == lab::Options::Parsed::run);
  CHECK(s.n == 1024);
  CHECK(s.ratio == 0.5);
  CHECK(s.name == "default");
  CHECK_FALSE(s.verbose);
}

TEST_CASE("both --name value and --name=value forms") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {"--n", "77", "--ratio=0.25", "--name", "x y", "--verbose"}) == lab::Options::Parsed::run);
  CHECK(s.n == 77);
  CHECK(s.ratio == 0.25);
  CHECK(s.name == "x y");
  CHECK(s.verbose);
  CHECK(parse(table, {"--verbose=false", "--n=5"}) == lab::Options::Parsed::run);
  CHECK_FALSE(s.verbose);
  CHECK(s.n == 5);
}

TEST_CASE("integer suffixes: k M G are powers of 1000, Ki Mi Gi of 1024") {
  CHECK(lab::parse_integer("64Mi", "--n") == 64 * 1024 * 1024);
  CHECK(lab::parse_integer("3k", "--n") == 3000);
  CHECK(lab::parse_integer("2G", "--n") == 2000000000LL);
  CHECK(lab::parse_integer("1Gi", "--n") == 1073741824LL);
  CHECK(lab::parse_integer("-12", "--n") == -12);
  CHECK(lab::format_count(64 * 1024 * 1024) == "64Mi");
  CHECK(lab::format_count(3 * 1024) == "3Ki");
  CHECK(lab::format_count(1000) == "1000");
  CHECK(lab::format_count(0) == "0");
}

TEST_CASE("invalid values are usage errors that name the option") {
  CHECK(usage_error({"--n", "0"}) == "--n must be in 1..1Gi (got 0)");
  CHECK(usage_error({"--n", "2Gi"}).find("--n must be in") == 0);
  CHECK(usage_error({"--n", "abc"}).find("invalid value 'abc' for --n") == 0);
  CHECK(usage_error({"--n", "12x"}).find("invalid value '12x' for --n") == 0);
  CHECK(usage_error({"--n", " 5"}).find("invalid value") == 0);
  CHECK(usage_error({"--n", "+5"}).find("invalid value") == 0);
  CHECK(usage_error({"--n", "Mi"}).find("invalid value") == 0);
  CHECK(usage_error({"--n", "99999999999999999999"}).find("too large") != std::string::npos);
  CHECK(usage_error({"--n", "9000000000000Gi"}).find("too large") != std::string::npos);
  CHECK(usage_error({"--ratio", "1.5"}) == "--ratio must be in 0..1 (got 1.5)");
  CHECK(usage_error({"--ratio", "nan"}).find("invalid value 'nan'") == 0);
  CHECK(usage_error({"--ratio", ""}).find("invalid value") == 0);
  CHECK(usage_error({"--verbose=maybe"}).find("invalid value 'maybe' for --verbose") == 0);
  CHECK(usage_error({"--name="}) == "--name needs a non-empty value");
}

TEST_CASE("unknown options, missing values and stray arguments") {
  CHECK(usage_error({"--bogus", "1"}) == "unknown option '--bogus'");
  CHECK(usage_error({"--n"}) == "option '--n' needs a value");
  CHECK(usage_error({"extra"}) == "unexpected argument 'extra'");
  CHECK(usage_error({"-n", "3"}) == "unexpected argument '-n'");
  CHECK(usage_error({"--"}) == "unexpected argument '--'");
}

TEST_CASE("an output file must be writable where it is named") {
  CHECK(usage_error({"--json", "/no/such/folder/x.json"}).find("does not exist or is not writable") !=
        std::string::npos);
  CHECK(usage_error({"--json", "/"}).find("names a folder") != std::string::npos);
  CHECK(usage_error({"--json", "results.json"}).empty());  // the current folder
}

TEST_CASE("--help is generated from the table and stops parsing") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {"--help", "--n", "0"}) == lab::Options::Parsed::help);
  const std::string help = table.help();
  CHECK(help.find("usage: prog [options]") == 0);
  CHECK(help.find("--n <int>") != std::string::npos);
  CHECK(help.find("default: 1Ki, range 1..1Gi") != std::string::npos);
  CHECK(help.find("--ratio <number>") != std::string::npos);
  CHECK(help.find("--name <text>") != std::string::npos);
  CHECK(help.find("default: none") != std::string::npos);
  CHECK(help.find("--verbose ") != std::string::npos);
  CHECK(help.find("77 no usable CUDA device") != std::string::npos);
}

TEST_CASE("option values go to JSON with their types") {
  Settings s;
  lab::Options table = make_table(s);
  parse(table, {"--n", "3Ki", "--verbose"});
  const lab::Fields fields = table.fields();
  REQUIRE(fields.size() == 5);
  CHECK(fields[0].value.integer() == 3072);
  CHECK(fields[1].value.number() == 0.5);
  CHECK(fields[2].value.text() == "default");
  CHECK(fields[4].value.boolean());
  std::vector<std::string> keys;
  for (const auto& f : fields) keys.push_back(f.key);
  CHECK(keys == std::vector<std::string>{"n", "ratio", "name", "json", "verbose"});
}

TEST_CASE("declaring an option twice is a programming error") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK_THROWS_AS(table.add("n", &s.n, 0, 1, "again"), std::logic_error);
  CHECK_THROWS_AS(table.add_flag("help", &s.verbose, "reserved"), std::logic_error);
}

TEST_CASE("rules see the parsed values and turn a message into a usage error") {
  Settings s;
  lab::Options table = make_table(s);
  table.add_rule([&s] { return s.n % 2 == 0 ? std::string() : "--n must be even"; });
  CHECK(parse(table, {"--n", "4"}) == lab::Options::Parsed::run);
  CHECK_THROWS_WITH_AS(parse(table, {"--n", "5"}), "--n must be even", lab::UsageError);
}
