// CLI11 parses: it splits the command line, matches the names, takes each value
// (`--name value`, `--name=value`), refuses repeats, unknown options and stray
// arguments, applies the suffixes (CLI::AsNumberWithUnit) and writes `--help`.
// Ours are the validators' words ("must be in 1..1Gi (got 0)" where CLI::Range
// says "Value 0 not in range 1 to 1073741824"), the output-file check, the rules,
// and plain words for CLI11's count and extras errors (explain()).
#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <regex>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "output_file.hpp"
#include "program.hpp"

namespace lab {

namespace {

// The suffixes README.md documents: k M G are powers of 1000, Ki Mi Gi Ti of 1024.
const std::map<std::string, std::int64_t> kSuffixes{
    {"k", 1000},     {"M", 1000 * 1000}, {"G", 1000 * 1000 * 1000},    {"Ki", 1 << 10},
    {"Mi", 1 << 20}, {"Gi", 1 << 30},    {"Ti", std::int64_t{1} << 40}};

std::string format_real(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

// @p value with the largest of @p units that divides it if at most four digits
// remain (1536Mi reads at a glance, 4194304Ti does not), else "".
std::string with_largest_unit(std::int64_t value, std::initializer_list<std::pair<const char*, std::int64_t>> units) {
  for (const auto& [text, factor] : units) {
    if (value % factor != 0) continue;
    const std::int64_t mantissa = value / factor;  // a smaller unit would only leave more digits
    return mantissa >= -9999 && mantissa <= 9999 ? std::to_string(mantissa) + text : "";
  }
  return "";
}

// The validator of an option's value: @p check, after refusing a value that
// starts with "--" (the next option: the one before it has no value). No
// description, so that `--help` shows only our "<int>".
CLI::Validator option_value(std::function<std::string(std::string&)> check) {
  return CLI::Validator(
      [check](std::string& text) {
        return text.rfind("--", 0) == 0 ? "needs a value ('" + text + "' looks like an option)" : check(text);
      },
      "");
}

// An integer as README.md documents it: digits with one of kSuffixes (CLI11's
// AsNumberWithUnit multiplies and refuses an overflow), or 2^k, the form
// format_count() writes for large powers of two. Leaves the digits for CLI11.
CLI::Validator integer_in(std::int64_t min, std::int64_t max) {
  const CLI::AsNumberWithUnit apply_suffix(kSuffixes, CLI::AsNumberWithUnit::CASE_SENSITIVE);
  const std::string range = format_count(min) + ".." + format_count(max);
  return option_value([=](std::string& text) -> std::string {
    static const std::regex with_suffix("-?(0|[1-9][0-9]*)(k|M|G|Ki|Mi|Gi|Ti)?");  // no octal "010", no "+5"
    static const std::regex power_of_two("(-?)2\\^([0-9]+)");
    const std::string out_of_range = "must be in " + range + " (got " + text + ")";
    std::string digits = text;
    std::smatch match;
    if (std::regex_match(text, match, power_of_two)) {
      if (match[2].length() > 2 || std::stoi(match[2]) > 62) return out_of_range;
      digits = match[1].str() + std::to_string(std::int64_t{1} << std::stoi(match[2]));
    } else if (!std::regex_match(text, with_suffix)) {
      return "expected an integer such as 1000, 64Mi or 2^40 (got '" + text +
             "'); the suffixes are k M G (x1000) and Ki Mi Gi Ti (x1024)";
    } else {
      try {
        apply_suffix(digits);
      } catch (const CLI::ValidationError&) {  // the product overflows
        return out_of_range;
      }
    }
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || value < min || value > max) return out_of_range;
    text = digits;
    return "";
  });
}

CLI::Validator number_in(double min, double max) {
  const std::string range = format_real(min) + ".." + format_real(max);
  return option_value([=](std::string& text) -> std::string {
    double number = 0;
    if (!CLI::detail::lexical_cast(text, number)) return "expected a number such as 0.5 (got '" + text + "')";
    if (!(number >= min && number <= max)) return "must be in " + range + " (got " + text + ")";  // NaN too
    return "";
  });
}

CLI::Validator writable_file() {
  return option_value([](std::string& path) { return path.empty() ? "needs a file name" : check_output_file(path); });
}

// What CLI11 reads as a switch's value (true/false, 1/0, on/off, yes/no).
CLI::Validator switch_value() {
  return CLI::Validator(
      [](std::string& text) {
        bool on = false;
        return CLI::detail::lexical_cast(text, on) ? std::string() : "expected true or false (got '" + text + "')";
      },
      "");
}

// Declares `--name` with CLI11 (which refuses a name already taken or not
// typable, "two words", "-n", "n=1": a programming error, not a bad command
// line), one value at most, shown in `--help` as "--name <type>  help".
template <typename Add>
CLI::Option* declare(CLI::App& app, const std::string& name, const std::string& type, const std::string& help,
                     Add add) {
  CLI::Option* option = nullptr;
  try {
    option = add("--" + name);
  } catch (const CLI::ConstructionError& e) {
    throw std::logic_error("option --" + name + ": " + e.what());
  }
  option->multi_option_policy(CLI::MultiOptionPolicy::Throw)->description(help);
  if (!type.empty()) option->option_text(type);
  const auto formatter = app.get_formatter();  // the first column fits "  --name <type>  "
  formatter->column_width(std::max(formatter->get_column_width(), 2 + 2 + name.size() + 1 + type.size() + 2));
  return option;
}

// Plain words where CLI11's are not: "--n: At Most 1 required but received 2",
// "--n: 1 required INT missing", "The following arguments were not expected:
// 1 --bogus". Every other error is a validator's, already "--name: problem".
std::string explain(const CLI::App& app, const CLI::ParseError& error, int argc, const char* const* argv) {
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr && !app.remaining().empty()) {
    const std::string first = app.remaining().front();
    if (first.size() > 1 && first[0] == '-' && first != "--") {
      return "unknown option '" + first.substr(0, first.find('=')) + "'";
    }
    return "unexpected argument '" + first + "'";
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    for (const CLI::Option* option : app.get_options()) {
      if (option->count() > 1) {
        return option->get_name() + ": given " +
               (option->count() == 2 ? "twice" : std::to_string(option->count()) + " times");
      }
    }
    // Otherwise the values ran out: the last argument is an option that takes one.
    const std::string last = argv[argc - 1];
    return last.substr(0, last.find('=')) + ": needs a value";
  }
  return error.what();
}

}  // namespace

std::string format_count(std::int64_t value) {
  if (value == 0) return "0";
  if (std::string text =
          with_largest_unit(value, {{"Ti", std::int64_t{1} << 40}, {"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}});
      !text.empty()) {
    return text;
  }
  // Below a million the digits read well enough ("1000", "100000").
  if (std::string text = with_largest_unit(value, {{"G", 1000 * 1000 * 1000}, {"M", 1000 * 1000}}); !text.empty()) {
    return text;
  }
  if (value >= 1024 && (value & (value - 1)) == 0) {
    int exponent = 0;
    while ((std::int64_t{1} << exponent) != value) ++exponent;
    return "2^" + std::to_string(exponent);
  }
  return std::to_string(value);
}

Options::Options(std::string program, std::string description)
    : app_(std::make_unique<CLI::App>(std::move(description) + "\n", std::move(program))) {
  app_->option_defaults()->group("options");
  app_->get_formatter()->column_width(std::string("  --help  ").size());  // declare() widens it
  app_->get_formatter()->label("Usage", "usage");
  app_->get_formatter()->label("OPTIONS", "options");
  app_->footer("exit codes: 0 success, 1 wrong result or CUDA error, 2 bad command line, 77 no usable CUDA device");
  // CLI11's own --help waits until every value is checked; this one is acted on
  // where it is read, so it wins over a bad value elsewhere on the line.
  app_->set_help_flag();
  app_->add_flag_callback("--help", [] { throw CLI::CallForHelp(); }, "show this help and exit")->trigger_on_parse();
}

Options::Options(Options&&) noexcept = default;
Options& Options::operator=(Options&&) noexcept = default;
Options::~Options() = default;

Options& Options::add(const std::string& name, std::int64_t* value, std::int64_t min, std::int64_t max,
                      const std::string& help) {
  const std::string detail =
      " (default: " + format_count(*value) + ", range " + format_count(min) + ".." + format_count(max) + ")";
  declare(*app_, name, "<int>", help + detail, [&](const std::string& flag) {
    return app_->add_option(flag, *value);
  })->transform(integer_in(min, max));
  values_.emplace_back(name, [value] { return Value(static_cast<long long>(*value)); });
  return *this;
}

Options& Options::add(const std::string& name, double* value, double min, double max, const std::string& help) {
  const std::string detail =
      " (default: " + format_real(*value) + ", range " + format_real(min) + ".." + format_real(max) + ")";
  declare(*app_, name, "<number>", help + detail, [&](const std::string& flag) {
    return app_->add_option(flag, *value);
  })->check(number_in(min, max));
  values_.emplace_back(name, [value] { return Value(*value); });
  return *this;
}

Options& Options::add_output_file(const std::string& name, std::string* value, const std::string& help) {
  const std::string detail = " (default: " + (value->empty() ? std::string("none") : *value) + ")";
  declare(*app_, name, "<path>", help + detail, [&](const std::string& flag) {
    return app_->add_option(flag, *value);
  })->check(writable_file());
  values_.emplace_back(name, [value] { return Value(*value); });
  return *this;
}

Options& Options::add_flag(const std::string& name, bool* value, const std::string& help) {
  const std::string detail = std::string(" (default: ") + (*value ? "on" : "off") + ")";
  declare(*app_, name, "", help + detail, [&](const std::string& flag) {
    return app_->add_flag(flag, *value);
  })->check(switch_value());
  values_.emplace_back(name, [value] { return Value(*value); });
  return *this;
}

Options& Options::add_rule(std::function<std::string()> rule) {
  rules_.push_back(std::move(rule));
  return *this;
}

Options::Parsed Options::parse(int argc, const char* const* argv) {
  try {
    app_->parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(help().c_str(), stdout);
    return Parsed::help;
  } catch (const CLI::ParseError& e) {
    throw UsageError(explain(*app_, e, argc, argv));
  }
  for (const auto& rule : rules_) {
    if (std::string problem = rule(); !problem.empty()) throw UsageError(problem);
  }
  return Parsed::run;
}

std::string Options::help() const { return app_->help(); }

Fields Options::fields() const {
  Fields fields;
  for (const auto& [name, value] : values_) fields.push_back({name, value()});
  return fields;
}

}  // namespace lab
