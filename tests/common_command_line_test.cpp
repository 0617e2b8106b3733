#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "program.hpp"

namespace {

struct Settings {
  std::int64_t n = 1024;
  double ratio = 0.5;
  std::string json;
  bool verbose = false;
};

lab::Options make_table(Settings& s) {
  lab::Options table("prog", "A test program.");
  table.add("n", &s.n, 1, 1 << 30, "elements")
      .add("ratio", &s.ratio, 0.0, 1.0, "a fraction")
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

// What an integer option with the widest range reads from @p text (throws lab::UsageError).
std::int64_t parse_integer(const char* text) {
  std::int64_t n = 0;
  lab::Options table("prog", "A test program.");
  table.add("n", &n, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), "any");
  const std::vector<const char*> args{"prog", "--n", text};
  table.parse(3, args.data());
  return n;
}

}  // namespace

TEST_CASE("defaults stay when nothing is given") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {}) == lab::Options::Parsed::run);
  CHECK(s.n == 1024);
  CHECK(s.ratio == 0.5);
  CHECK(s.json.empty());
  CHECK_FALSE(s.verbose);
}

TEST_CASE("both --name value and --name=value forms") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {"--n", "77", "--ratio=0.25", "--json", "x y.json", "--verbose"}) == lab::Options::Parsed::run);
  CHECK(s.n == 77);
  CHECK(s.ratio == 0.25);
  CHECK(s.json == "x y.json");
  CHECK(s.verbose);
  CHECK(parse(table, {"--verbose=false", "--n=5"}) == lab::Options::Parsed::run);
  CHECK_FALSE(s.verbose);
  CHECK(s.n == 5);
}

TEST_CASE("integer suffixes: k M G are powers of 1000, Ki Mi Gi of 1024") {
  CHECK(parse_integer("64Mi") == 64 * 1024 * 1024);
  CHECK(parse_integer("3k") == 3000);
  CHECK(parse_integer("2G") == 2000000000LL);
  CHECK(parse_integer("1Gi") == 1073741824LL);
  CHECK(parse_integer("-12") == -12);
  CHECK(lab::format_count(64 * 1024 * 1024) == "64Mi");
  CHECK(lab::format_count(3 * 1024) == "3Ki");
  CHECK(lab::format_count(1000) == "1000");
  CHECK(lab::format_count(0) == "0");
}

TEST_CASE("invalid values are usage errors that name the option") {
  CHECK(usage_error({"--n", "0"}) == "--n: must be in 1..1Gi (got 0)");
  CHECK(usage_error({"--n", "2Gi"}) == "--n: must be in 1..1Gi (got 2Gi)");
  CHECK(usage_error({"--n", "abc"}) ==
        "--n: expected an integer such as 1000, 64Mi or 2^40 (got 'abc'); the suffixes are k M G (x1000) and Ki Mi Gi "
        "Ti (x1024)");
  CHECK(usage_error({"--n", "12x"}).find("--n: expected an integer such as 1000, 64Mi or 2^40 (got '12x')") == 0);
  CHECK(usage_error({"--n", "16MB"}).find("--n: expected an integer") == 0);  // suffixes are exact: M, not MB or m
  CHECK(usage_error({"--n", "16m"}).find("--n: expected an integer") == 0);
  CHECK(usage_error({"--n", " 5"}).find("--n: expected an integer") == 0);
  CHECK(usage_error({"--n", "+5"}).find("--n: expected an integer") == 0);
  CHECK(usage_error({"--n", "Mi"}).find("--n: expected an integer") == 0);
  CHECK(usage_error({"--n", "010"}).find("--n: expected an integer") == 0);  // never octal
  CHECK(usage_error({"--n", "0x10"}).find("--n: expected an integer") == 0);
  CHECK(usage_error({"--n", "99999999999999999999"}) == "--n: must be in 1..1Gi (got 99999999999999999999)");
  CHECK(usage_error({"--n", "9000000000000Gi"}) == "--n: must be in 1..1Gi (got 9000000000000Gi)");
  CHECK(usage_error({"--ratio", "1.5"}) == "--ratio: must be in 0..1 (got 1.5)");
  CHECK(usage_error({"--ratio", "nan"}) == "--ratio: must be in 0..1 (got nan)");
  CHECK(usage_error({"--ratio", "lots"}) == "--ratio: expected a number such as 0.5 (got 'lots')");
  CHECK(usage_error({"--ratio", ""}) == "--ratio: expected a number such as 0.5 (got '')");
  CHECK(usage_error({"--verbose=maybe"}) == "--verbose: expected true or false (got 'maybe')");
}

TEST_CASE("unknown options, missing values and stray arguments") {
  CHECK(usage_error({"--bogus", "1"}) == "unknown option '--bogus'");
  CHECK(usage_error({"--n"}) == "--n: needs a value");
  CHECK(usage_error({"extra"}) == "unexpected argument 'extra'");
  CHECK(usage_error({"-n", "3"}) == "unknown option '-n'");
  CHECK(usage_error({"--", "extra"}) == "unexpected argument '--'");
  CHECK(usage_error({"--"}).empty());  // CLI11: the end of the options, and nothing after it
}

TEST_CASE("an output file must be writable where it is named") {
  CHECK(usage_error({"--json", "/no/such/folder/x.json"}) ==
        "--json: cannot write '/no/such/folder/x.json': folder '/no/such/folder' does not exist");
  CHECK(usage_error({"--json", "/"}).find("names a folder") != std::string::npos);
  CHECK(usage_error({"--json", "results.json"}).empty());  // the current folder
}

TEST_CASE("--help is generated from the table and stops parsing") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {"--help", "--n", "0"}) == lab::Options::Parsed::help);
  const std::string help = table.help();
  CHECK(help.find("A test program.\n\nusage: prog [options]\n") == 0);
  CHECK(help.find("  --help            show this help and exit\n") != std::string::npos);
  CHECK(help.find("  --n <int>         elements (default: 1Ki, range 1..1Gi)\n") != std::string::npos);
  CHECK(help.find("  --ratio <number>  a fraction (default: 0.5, range 0..1)\n") != std::string::npos);
  CHECK(help.find("  --json <path>     results file (default: none)\n") != std::string::npos);
  CHECK(help.find("  --verbose         say more (default: off)\n") != std::string::npos);
  CHECK(help.find(
            "\nexit codes: 0 success, 1 wrong result or CUDA error, 2 bad command line, 77 no usable CUDA device\n") !=
        std::string::npos);
}

TEST_CASE("option values as fields, in table order, with their types") {
  Settings s;
  lab::Options table = make_table(s);
  parse(table, {"--n", "3Ki", "--verbose"});
  const lab::Fields fields = table.fields();
  REQUIRE(fields.size() == 4);
  std::vector<std::string> keys;
  for (const auto& f : fields) keys.push_back(f.key);
  CHECK(keys == std::vector<std::string>{"n", "ratio", "json", "verbose"});
  CHECK(fields[0].value.type() == lab::Value::Type::integer);
  CHECK(fields[0].value.integer() == 3072);
  CHECK(fields[1].value.type() == lab::Value::Type::number);
  CHECK(fields[1].value.number() == 0.5);
  CHECK(fields[2].value.type() == lab::Value::Type::text);
  CHECK(fields[2].value.text() == "");  // no --json given
  CHECK(fields[3].value.type() == lab::Value::Type::boolean);
  CHECK(fields[3].value.boolean());
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

// What a fuzz of bad command lines found, each now a usage error naming the option.

TEST_CASE("a value never starts with --: an option followed by another option has no value") {
  // CLI11 takes the next argument as the value, whatever it is; the value's check refuses an option
  CHECK(usage_error({"--json", "--n", "64"}) == "--json: needs a value ('--n' looks like an option)");
  CHECK(usage_error({"--json", "--verbose"}) == "--json: needs a value ('--verbose' looks like an option)");
  CHECK(usage_error({"--n", "--ratio", "0.5"}) == "--n: needs a value ('--ratio' looks like an option)");
  CHECK(usage_error({"--ratio", "--n", "5"}) == "--ratio: needs a value ('--n' looks like an option)");
  CHECK(usage_error({"--json", "---n"}) == "--json: needs a value ('---n' looks like an option)");
  CHECK(usage_error({"--json=--n"}) == "--json: needs a value ('--n' looks like an option)");
  // the missing value is reported before an unknown option that follows it
  CHECK(usage_error({"--json", "--no-such"}) == "--json: needs a value ('--no-such' looks like an option)");
  // a negative number is a value (here out of range, so the message shows it was read)
  CHECK(usage_error({"--n", "-1"}) == "--n: must be in 1..1Gi (got -1)");
  CHECK(usage_error({"--ratio", "-0.5"}) == "--ratio: must be in 0..1 (got -0.5)");
  // a value may hold '=' or start with a single '-' followed by a digit
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {"--json=a=b"}) == lab::Options::Parsed::run);
  CHECK(s.json == "a=b");
}

TEST_CASE("an option given twice is an error, whatever the values") {
  CHECK(usage_error({"--n", "5", "--n", "6"}) == "--n: given twice");
  CHECK(usage_error({"--n=5", "--n", "5"}) == "--n: given twice");
  CHECK(usage_error({"--json", "a.json", "--json", "b.json"}) == "--json: given twice");
  CHECK(usage_error({"--verbose", "--verbose=false"}) == "--verbose: given twice");
  CHECK(usage_error({"--n", "1", "--n", "2", "--n", "3"}) == "--n: given 3 times");
  // every value is checked first
  CHECK(usage_error({"--n", "0", "--n", "6"}) == "--n: must be in 1..1Gi (got 0)");
}

TEST_CASE("--help prints the help, whatever else is on the line; --help=false is a switch turned off") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {"--help"}) == lab::Options::Parsed::help);
  CHECK(parse(table, {"--bogus", "--help"}) == lab::Options::Parsed::help);
  CHECK(parse(table, {"--n", "0", "--help"}) == lab::Options::Parsed::help);
  CHECK(parse(table, {"--n", "5", "--help=1"}) == lab::Options::Parsed::help);
  CHECK(parse(table, {"--help=false"}) == lab::Options::Parsed::run);
  // after an option that takes a value, --help is that option's missing value
  CHECK(usage_error({"--json", "--help"}) == "--json: needs a value ('--help' looks like an option)");
}

TEST_CASE("an empty value: '--name=' reads the next argument, as CLI11 does; an empty argument is refused") {
  CHECK(usage_error({"--json="}) == "--json: needs a value");
  CHECK(usage_error({"--ratio="}) == "--ratio: needs a value");
  CHECK(usage_error({"--json=", "--n", "5"}) == "--json: needs a value ('--n' looks like an option)");
  CHECK(usage_error({"--json", ""}) == "--json: needs a file name");
  CHECK(usage_error({"--n", ""}).find("--n: expected an integer such as 1000, 64Mi or 2^40 (got '')") == 0);
  CHECK(usage_error({"--bogus="}) == "unknown option '--bogus'");
  Settings s;
  lab::Options table = make_table(s);
  CHECK(parse(table, {"--n=", "5", "--verbose="}) == lab::Options::Parsed::run);
  CHECK(s.n == 5);
  CHECK(s.verbose);  // an empty switch value is CLI11's "true"
}

TEST_CASE("output files are checked at parse time, for root too") {
  CHECK(usage_error({"--json", "/proc/x.json"}).find("--json: cannot write '/proc/x.json': no file can be created") ==
        0);
  CHECK(usage_error({"--json=/dev/full"}) ==
        "--json: cannot write '/dev/full': it is not a regular file (a device, a "
        "pipe or a socket)");
  CHECK(usage_error({"--json", "/tmp"}).find("names a folder") != std::string::npos);
  CHECK(usage_error({"--json", "/dev/null/x.json"}).find("is not a folder") != std::string::npos);
}

TEST_CASE("unknown options and stray arguments, after the values before them") {
  CHECK(usage_error({"--n", "5", "--bogus=3"}) == "unknown option '--bogus'");
  CHECK(usage_error({"--verbose", "on"}) == "unexpected argument 'on'");  // a switch takes no separate value
  CHECK(usage_error({"--n", "5", "6"}) == "unexpected argument '6'");
  CHECK(usage_error({"---n", "5"}) == "unknown option '---n'");
  CHECK(usage_error({"--N", "5"}) == "unknown option '--N'");  // names are exact
}

TEST_CASE("ranges print readably: a suffix only when exact and short, else 2^k or the digits") {
  CHECK(lab::format_count(std::int64_t{1} << 40) == "1Ti");
  CHECK(lab::format_count(std::int64_t{1} << 62) == "2^62");  // not 4194304Ti
  CHECK(lab::format_count(std::int64_t{1} << 50) == "1024Ti");
  CHECK(lab::format_count(std::int64_t{1} << 54) == "2^54");
  CHECK(lab::format_count(1536LL << 20) == "1536Mi");
  CHECK(lab::format_count(10000LL << 10) == "10240000");  // 10000Ki: five digits, and no M or G fits
  CHECK(lab::format_count(100000000) == "100M");
  CHECK(lab::format_count(2000000000) == "2G");
  CHECK(lab::format_count(1000000) == "1M");
  CHECK(lab::format_count(100000) == "100000");
  CHECK(lab::format_count(4294967295LL) == "4294967295");
  CHECK(lab::format_count(-2048) == "-2Ki");
  CHECK(lab::format_count(std::numeric_limits<std::int64_t>::max()) == "9223372036854775807");
  CHECK(lab::format_count(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775808");
  // every form it writes reads back
  for (std::int64_t v : {std::int64_t{1} << 62, std::int64_t{1536} << 20, std::int64_t{100000000}, std::int64_t{-2048},
                         std::int64_t{4294967295LL}, std::int64_t{1} << 10}) {
    CHECK(parse_integer(lab::format_count(v).c_str()) == v);
  }
  CHECK(parse_integer("2^0") == 1);
  CHECK(parse_integer("-2^10") == -1024);
  CHECK_THROWS_WITH_AS(parse_integer("2^63"), "--n: must be in -9223372036854775808..9223372036854775807 (got 2^63)",
                       lab::UsageError);
  CHECK_THROWS_AS(parse_integer("3^2"), lab::UsageError);
  CHECK_THROWS_AS(parse_integer("2^"), lab::UsageError);
  CHECK_THROWS_AS(parse_integer("^"), lab::UsageError);
  CHECK_THROWS_AS(parse_integer("2^x"), lab::UsageError);
  CHECK_THROWS_AS(parse_integer("2^-1"), lab::UsageError);
}

TEST_CASE("ranges in help and messages use the readable form") {
  std::int64_t seed = 1;
  lab::Options table("prog", "A test program.");
  table.add("seed", &seed, 0, std::int64_t{1} << 62, "random input seed");
  CHECK(table.help().find("(default: 1, range 0..2^62)") != std::string::npos);
  std::vector<const char*> args{"prog", "--seed", "-1"};
  CHECK_THROWS_WITH_AS(table.parse(3, args.data()), "--seed: must be in 0..2^62 (got -1)", lab::UsageError);
  args[2] = "2^62";
  CHECK(table.parse(3, args.data()) == lab::Options::Parsed::run);
  CHECK(seed == std::int64_t{1} << 62);
}

TEST_CASE("option names are what a learner can type") {
  Settings s;
  lab::Options table = make_table(s);
  CHECK_THROWS_AS(table.add("two words", &s.n, 0, 1, "x"), std::logic_error);
  CHECK_THROWS_AS(table.add("-n", &s.n, 0, 1, "x"), std::logic_error);
  CHECK_THROWS_AS(table.add("n=1", &s.n, 0, 1, "x"), std::logic_error);
  CHECK_NOTHROW(table.add("large-factor_2", &s.n, 0, 1, "x"));
}
