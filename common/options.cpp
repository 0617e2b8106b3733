// CLI11 splits the command line, matches the names and collects the raw texts;
// it is set to accept anything (repeats, unknown options) so that every error
// is raised here, with the option's name in it.
#include "options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "output_file.hpp"
#include "program.hpp"

namespace lab {

namespace {

struct Suffix {
  const char* text;
  std::int64_t factor;
};
constexpr Suffix kSuffixes[] = {
    {"Ki", 1 << 10}, {"Mi", 1 << 20},    {"Gi", 1 << 30},          {"Ti", std::int64_t{1} << 40},
    {"k", 1000},     {"M", 1000 * 1000}, {"G", 1000 * 1000 * 1000}};

// What CLI11 records for an option given without a value (its "default
// string"): a text no one types.
const std::string kNoValue = "\x01(no value)";

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string format_real(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

// "2^k" or "-2^k", k in 0..62: the form format_count() writes for large powers of two.
std::int64_t parse_power_of_two(const std::string& text, const std::string& what) {
  const std::size_t start = text[0] == '-' ? 1 : 0;
  if (text.size() < start + 3 || text.compare(start, 2, "2^") != 0 || !all_digits(text.substr(start + 2))) {
    throw UsageError("invalid value '" + text + "' for " + what + ": expected an integer such as 1000, 64Mi or 2^40");
  }
  const std::string exponent = text.substr(start + 2);
  if (exponent.size() > 2 || std::stoi(exponent) > 62) {
    throw UsageError("value '" + text + "' for " + what + " is too large");
  }
  const std::int64_t value = std::int64_t{1} << std::stoi(exponent);
  return start == 1 ? -value : value;
}

// @p value with the largest of @p units that divides it if at most four digits
// remain (1536Mi reads at a glance, 4194304Ti does not), else "".
std::string with_largest_unit(std::int64_t value, std::initializer_list<Suffix> units) {
  for (const Suffix& unit : units) {
    if (value % unit.factor != 0) continue;
    const std::int64_t mantissa = value / unit.factor;  // a smaller unit would only leave more digits
    return mantissa >= -9999 && mantissa <= 9999 ? std::to_string(mantissa) + unit.text : "";
  }
  return "";
}

// An integer with an optional k/M/G/Ki/Mi/Gi/Ti suffix, or a power of two
// written `2^k` (k up to 62); throws UsageError naming @p what when it is not one.
std::int64_t parse_integer(const std::string& text, const std::string& what) {
  if (text.find('^') != std::string::npos) return parse_power_of_two(text, what);
  std::string digits = text;
  std::int64_t factor = 1;
  for (const auto& suffix : kSuffixes) {
    const std::string s = suffix.text;
    if (digits.size() > s.size() && digits.compare(digits.size() - s.size(), s.size(), s) == 0) {
      digits.resize(digits.size() - s.size());
      factor = suffix.factor;
      break;
    }
  }
  if (digits.empty()) throw UsageError("invalid value '' for " + what + ": expected an integer");
  errno = 0;
  char* end = nullptr;
  const long long parsed = std::strtoll(digits.c_str(), &end, 10);
  const bool starts_well = std::isdigit(static_cast<unsigned char>(digits[0])) || digits[0] == '-';
  if (!starts_well || end == digits.c_str() || *end != '\0') {
    throw UsageError("invalid value '" + text + "' for " + what + ": expected an integer such as 1000 or 64Mi");
  }
  if (errno == ERANGE || (parsed != 0 && (parsed > std::numeric_limits<std::int64_t>::max() / factor ||
                                          parsed < std::numeric_limits<std::int64_t>::min() / factor))) {
    throw UsageError("value '" + text + "' for " + what + " is too large");
  }
  return static_cast<std::int64_t>(parsed) * factor;
}

std::string range_text(std::int64_t min, std::int64_t max) { return format_count(min) + ".." + format_count(max); }
std::string range_text(double min, double max) { return format_real(min) + ".." + format_real(max); }

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
    : program_(std::move(program)), description_(std::move(description)) {}

void Options::declare(Entry entry) {
  const std::string& name = entry.name;
  if (name.empty() || name == "help" || find(name) != nullptr) {
    throw std::logic_error("option --" + name + " declared twice or reserved");
  }
  // Letters, digits, '-' and '_', not starting with '-': what a learner can type
  // and CLI11 accepts as a long name.
  const bool typable =
      std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_'; });
  if (!typable || name[0] == '-') throw std::logic_error("option name '" + name + "' is not letters, digits, - and _");
  entries_.push_back(std::move(entry));
}

Options& Options::add(const std::string& name, std::int64_t* value, std::int64_t min, std::int64_t max,
                      const std::string& help) {
  const std::string what = "--" + name;
  declare({name, "int", "default: " + format_count(*value) + ", range " + range_text(min, max), help,
           [=](const std::string& text) {
             const std::int64_t v = parse_integer(text, what);
             if (v < min || v > max)
               throw UsageError(what + " must be in " + range_text(min, max) + " (got " + text + ")");
             *value = v;
           },
           [value] { return Value(static_cast<long long>(*value)); }});
  return *this;
}

Options& Options::add(const std::string& name, double* value, double min, double max, const std::string& help) {
  const std::string what = "--" + name;
  declare({name, "number", "default: " + format_real(*value) + ", range " + range_text(min, max), help,
           [=](const std::string& text) {
             char* end = nullptr;
             const double v = std::strtod(text.c_str(), &end);
             if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || end == text.c_str() ||
                 *end != '\0' || !std::isfinite(v)) {
               throw UsageError("invalid value '" + text + "' for " + what + ": expected a number");
             }
             if (v < min || v > max)
               throw UsageError(what + " must be in " + range_text(min, max) + " (got " + text + ")");
             *value = v;
           },
           [value] { return Value(*value); }});
  return *this;
}

Options& Options::add_output_file(const std::string& name, std::string* value, const std::string& help) {
  const std::string what = "--" + name;
  declare({name, "path", "default: " + (value->empty() ? std::string("none") : *value), help,
           [=](const std::string& text) {
             if (text.empty()) throw UsageError(what + " needs a file name");
             if (const std::string problem = check_output_file(text); !problem.empty())
               throw UsageError(what + ": " + problem);
             *value = text;
           },
           [value] { return Value(*value); }});
  return *this;
}

Options& Options::add_flag(const std::string& name, bool* value, const std::string& help) {
  const std::string what = "--" + name;
  declare({name, "", std::string("default: ") + (*value ? "on" : "off"), help,
           [=](const std::string& text) {
             if (text == "true" || text == "1" || text == "on") {
               *value = true;
             } else if (text == "false" || text == "0" || text == "off") {
               *value = false;
             } else {
               throw UsageError("invalid value '" + text + "' for " + what + ": expected true or false");
             }
           },
           [value] { return Value(*value); }});
  return *this;
}

Options& Options::add_rule(std::function<std::string()> rule) {
  rules_.push_back(std::move(rule));
  return *this;
}

const Options::Entry* Options::find(const std::string& name) const {
  const auto e = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == name; });
  return e != entries_.end() ? &*e : nullptr;
}

Options::Parsed Options::parse(int argc, const char* const* argv) {
  // Caught before CLI11 reads them otherwise: `--help=true` (it would take it
  // for `--help`) and `--name=` (it would take the next argument as the value).
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--help=", 0) == 0) throw UsageError("--help takes no value (got '" + arg + "')");
    if (arg.size() > 3 && arg.compare(0, 2, "--") == 0 && arg.back() == '=' && arg.find('=') == arg.size() - 1) {
      if (const Entry* e = find(arg.substr(2, arg.size() - 3))) e->assign("");  // throws: the empty value's message
    }
  }

  CLI::App app(description_, program_);
  app.set_help_flag();                      // ours, from this table
  app.allow_extras();                       // unknown options and stray arguments: collected, reported below
  std::vector<const CLI::Option*> matched;  // matched[i] is entries_[i]
  for (const Entry& e : entries_) {
    CLI::Option* option = nullptr;
    if (e.placeholder.empty()) {
      option = app.add_flag("--" + e.name);  // `--name=value` gives the raw value, `--name` gives "true"
    } else {
      // Zero or one value: `--json --block 64` leaves `--json` without a value
      // (kNoValue) instead of writing a file named "--block".
      option = app.add_option("--" + e.name)->expected(0, 1)->default_str(kNoValue);
    }
    option->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);  // a repeat is reported below, as ours
    matched.push_back(option);
  }
  const CLI::Option* help_flag = app.add_flag("--help");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {  // not expected with the settings above; still a usage error
    throw UsageError(e.what());
  }

  if (help_flag->count() > 0) {
    std::fputs(help().c_str(), stdout);
    return Parsed::help;
  }
  // The values, in the order they were given: the first bad one is reported.
  std::vector<std::size_t> seen(entries_.size(), 0);
  for (const CLI::Option* option : app.parse_order()) {
    const std::size_t i = static_cast<std::size_t>(std::find(matched.begin(), matched.end(), option) - matched.begin());
    if (i == entries_.size()) continue;  // not in the table (--help, which returned above)
    const Entry& e = entries_[i];
    const auto& values = option->results();
    const std::size_t occurrence = seen[i]++;
    if (occurrence > 0) {
      const bool show_values = !e.placeholder.empty() && values[0] != kNoValue && values[1] != kNoValue;
      throw UsageError("option '--" + e.name + "' is given twice" +
                       (show_values ? " ('" + values[0] + "', then '" + values[1] + "')" : std::string()));
    }
    const std::string& value = values[0];
    if (value == kNoValue) throw UsageError("option '--" + e.name + "' needs a value");
    if (value.rfind("--", 0) == 0) {
      throw UsageError("option '--" + e.name + "' needs a value; '" + value + "' looks like an option");
    }
    e.assign(value);
  }
  if (const auto extras = app.remaining(); !extras.empty()) {
    const std::string& first = extras.front();
    if (first.size() > 2 && first.compare(0, 2, "--") == 0)
      throw UsageError("unknown option '" + first.substr(0, first.find('=')) + "'");
    throw UsageError("unexpected argument '" + first + "'");
  }

  for (const auto& rule : rules_) {
    if (std::string problem = rule(); !problem.empty()) throw UsageError(problem);
  }
  return Parsed::run;
}

std::string Options::help() const {
  std::ostringstream out;
  out << "usage: " << program_ << " [options]\n\n" << description_ << "\n\noptions:\n";
  std::vector<std::string> left;
  std::size_t width = std::string("--help").size();
  for (const auto& e : entries_) {
    left.push_back("--" + e.name + (e.placeholder.empty() ? "" : " <" + e.placeholder + ">"));
    width = std::max(width, left.back().size());
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    out << "  " << left[i] << std::string(width - left[i].size() + 2, ' ') << e.help << " (" << e.detail << ")\n";
  }
  out << "  --help" << std::string(width - 6 + 2, ' ') << "show this help and exit\n";
  out << "\nexit codes: 0 success, 1 wrong result or CUDA error, 2 bad command line, "
         "77 no usable CUDA device\n";
  return out.str();
}

Fields Options::fields() const {
  Fields fields;
  for (const auto& e : entries_) fields.push_back({e.name, e.value()});
  return fields;
}

}  // namespace lab
