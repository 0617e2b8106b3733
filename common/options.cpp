#include "options.hpp"

#include <unistd.h>  // access(): can this process write into the folder?

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "program.hpp"

namespace lab {

namespace {

struct Suffix {
  const char* text;
  std::int64_t factor;
};
// Longest first so that "Mi" is not read as "M".
constexpr Suffix kSuffixes[] = {
    {"Ki", 1024}, {"Mi", 1024 * 1024}, {"Gi", 1024LL * 1024 * 1024}, {"Ti", 1024LL * 1024 * 1024 * 1024},
    {"k", 1000},  {"M", 1000 * 1000},  {"G", 1000LL * 1000 * 1000}};

std::string format_real(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

}  // namespace

std::int64_t parse_integer(const std::string& text, const std::string& what) {
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

std::string format_count(std::int64_t value) {
  if (value != 0 && value % 1024 == 0) {
    const char* names[] = {"Ki", "Mi", "Gi", "Ti"};
    std::int64_t v = value / 1024;
    int unit = 0;
    while (v % 1024 == 0 && unit < 3) {
      v /= 1024;
      ++unit;
    }
    return std::to_string(v) + names[unit];
  }
  return std::to_string(value);
}

Options::Options(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {}

Options::Entry& Options::declare(const std::string& name, Kind kind, void* value, const std::string& help) {
  if (name.empty() || name == "help" || find(name) != nullptr) {
    throw std::logic_error("option --" + name + " declared twice or reserved");
  }
  entries_.push_back(Entry{name, kind, value, 0, 0, 0, 0, help, "", ""});
  return entries_.back();
}

Options& Options::add(const std::string& name, std::int64_t* value, std::int64_t min, std::int64_t max,
                      const std::string& help) {
  Entry& e = declare(name, Kind::integer, value, help);
  e.imin = min;
  e.imax = max;
  e.placeholder = "int";
  e.default_text = format_count(*value);
  return *this;
}

Options& Options::add(const std::string& name, double* value, double min, double max, const std::string& help) {
  Entry& e = declare(name, Kind::real, value, help);
  e.min = min;
  e.max = max;
  e.placeholder = "number";
  e.default_text = format_real(*value);
  return *this;
}

Options& Options::add(const std::string& name, std::string* value, const std::string& help,
                      const std::string& placeholder) {
  Entry& e = declare(name, Kind::text, value, help);
  e.placeholder = placeholder;
  e.default_text = value->empty() ? "none" : *value;
  return *this;
}

Options& Options::add_output_file(const std::string& name, std::string* value, const std::string& help) {
  Entry& e = declare(name, Kind::output_file, value, help);
  e.placeholder = "path";
  e.default_text = value->empty() ? "none" : *value;
  return *this;
}

Options& Options::add_flag(const std::string& name, bool* value, const std::string& help) {
  Entry& e = declare(name, Kind::flag, value, help);
  e.default_text = *value ? "on" : "off";
  return *this;
}

Options& Options::add_rule(std::function<std::string()> rule) {
  rules_.push_back(std::move(rule));
  return *this;
}

Options::Entry* Options::find(const std::string& name) {
  for (auto& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

void Options::assign(Entry& e, const std::string& text) {
  const std::string what = "--" + e.name;
  switch (e.kind) {
    case Kind::integer: {
      const std::int64_t v = parse_integer(text, what);
      if (v < e.imin || v > e.imax) {
        throw UsageError(what + " must be in " + format_count(e.imin) + ".." + format_count(e.imax) + " (got " + text +
                         ")");
      }
      *static_cast<std::int64_t*>(e.value) = v;
      break;
    }
    case Kind::real: {
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || end == text.c_str() || *end != '\0' ||
          !std::isfinite(v)) {
        throw UsageError("invalid value '" + text + "' for " + what + ": expected a number");
      }
      if (v < e.min || v > e.max) {
        throw UsageError(what + " must be in " + format_real(e.min) + ".." + format_real(e.max) + " (got " + text +
                         ")");
      }
      *static_cast<double*>(e.value) = v;
      break;
    }
    case Kind::text:
      if (text.empty()) throw UsageError(what + " needs a non-empty value");
      *static_cast<std::string*>(e.value) = text;
      break;
    case Kind::output_file: {
      if (text.empty()) throw UsageError(what + " needs a file name");
      const std::filesystem::path path(text);
      const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
      std::error_code error;
      if (std::filesystem::is_directory(path, error)) {
        throw UsageError(what + " names a folder, not a file: '" + text + "'");
      }
      if (!std::filesystem::is_directory(folder, error) || ::access(folder.c_str(), W_OK) != 0) {
        throw UsageError(what + ": cannot write '" + text + "': folder '" + folder.string() +
                         "' does not exist or is not writable");
      }
      *static_cast<std::string*>(e.value) = text;
      break;
    }
    case Kind::flag:
      if (text == "true" || text == "1" || text == "on") {
        *static_cast<bool*>(e.value) = true;
      } else if (text == "false" || text == "0" || text == "off") {
        *static_cast<bool*>(e.value) = false;
      } else {
        throw UsageError("invalid value '" + text + "' for " + what + ": expected true or false");
      }
      break;
  }
}

Options::Parsed Options::parse(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      throw UsageError("unexpected argument '" + arg + "'");
    }
    std::string name = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      has_value = true;
    }
    if (name == "help") {
      std::fputs(help().c_str(), stdout);
      return Parsed::help;
    }
    Entry* e = find(name);
    if (e == nullptr) throw UsageError("unknown option '--" + name + "'");
    if (e->kind == Kind::flag) {
      if (has_value)
        assign(*e, value);
      else
        *static_cast<bool*>(e->value) = true;
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argc) throw UsageError("option '--" + name + "' needs a value");
      value = argv[++i];
    }
    assign(*e, value);
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
    left.push_back("--" + e.name + (e.kind == Kind::flag ? "" : " <" + e.placeholder + ">"));
    width = std::max(width, left.back().size());
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    std::string detail = "default: " + e.default_text;
    if (e.kind == Kind::integer) detail += ", range " + format_count(e.imin) + ".." + format_count(e.imax);
    if (e.kind == Kind::real) detail += ", range " + format_real(e.min) + ".." + format_real(e.max);
    out << "  " << left[i] << std::string(width - left[i].size() + 2, ' ') << e.help << " (" << detail << ")\n";
  }
  out << "  --help" << std::string(width - 6 + 2, ' ') << "show this help and exit\n";
  out << "\nexit codes: 0 success, 1 wrong result or CUDA error, 2 bad command line, "
         "77 no usable CUDA device\n";
  return out.str();
}

Json Options::to_json() const {
  Json json = Json::object();
  for (const auto& e : entries_) {
    switch (e.kind) {
      case Kind::integer: json.set(e.name, static_cast<long long>(*static_cast<std::int64_t*>(e.value))); break;
      case Kind::real: json.set(e.name, *static_cast<double*>(e.value)); break;
      case Kind::text:
      case Kind::output_file: json.set(e.name, *static_cast<std::string*>(e.value)); break;
      case Kind::flag: json.set(e.name, *static_cast<bool*>(e.value)); break;
    }
  }
  return json;
}

}  // namespace lab
