/// @file options.hpp
/// @brief A table-driven command-line parser.
///
/// Each option is declared once, bound to a variable that holds its default; the
/// same table parses the command line, checks ranges, writes `--help` and records
/// the values in the JSON report, so the help text cannot drift from the code.
///
/// @code
///   std::int64_t n = 1 << 20;
///   lab::Options options("ch01_kernel_launch", "Launch a kernel three ways.");
///   options.add("n", &n, 1, std::int64_t{1} << 40, "elements per vector");
///   if (options.parse(argc, argv) == lab::Options::Parsed::help) return 0;
/// @endcode
///
/// Accepted forms: `--name value` and `--name=value`. Integers take the suffixes
/// k, M, G (powers of 1000) and Ki, Mi, Gi (powers of 1024): `--n 64Mi`.
/// Errors throw lab::UsageError (exit code 2 through lab::run_program).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "json.hpp"

namespace lab {

/// Parses an integer with an optional k/M/G/Ki/Mi/Gi suffix; throws
/// lab::UsageError naming @p what when @p text is not one.
std::int64_t parse_integer(const std::string& text, const std::string& what);

/// Writes @p value the way a learner would type it: 67108864 -> "64Mi".
std::string format_count(std::int64_t value);

/// The option table of one program.
class Options {
 public:
  /// What parse() found.
  enum class Parsed {
    run,  ///< go on: every option was valid
    help  ///< `--help` was given and printed: exit with code 0
  };

  /// @param program     the program's name, shown in the usage line
  /// @param description what the program does, shown by `--help`
  Options(std::string program, std::string description);

  /// An integer option with an inclusive range; the default is `*value`.
  Options& add(const std::string& name, std::int64_t* value, std::int64_t min, std::int64_t max,
               const std::string& help);
  /// A floating-point option with an inclusive range; the default is `*value`.
  Options& add(const std::string& name, double* value, double min, double max, const std::string& help);
  /// A text option (a path, a name); the default is `*value`, "" meaning none.
  Options& add(const std::string& name, std::string* value, const std::string& help,
               const std::string& placeholder = "path");
  /// A file the program will write (`--json PATH`): checked at parse time, so
  /// that a missing folder is a usage error before any GPU work starts.
  Options& add_output_file(const std::string& name, std::string* value, const std::string& help);
  /// A switch: present means true. `--name=false` turns it off again.
  Options& add_flag(const std::string& name, bool* value, const std::string& help);

  /// A rule over the parsed values that a range cannot express ("a multiple of
  /// 32"). Rules run after parsing, in order; one that returns a non-empty
  /// message makes parse() throw lab::UsageError with it.
  Options& add_rule(std::function<std::string()> rule);

  /// Parses the command line (argv[0] is skipped). Throws lab::UsageError.
  Parsed parse(int argc, const char* const* argv);
  /// The `--help` text, generated from the table.
  std::string help() const;
  /// The current value of every option, for the JSON report.
  Json to_json() const;

 private:
  enum class Kind { integer, real, text, output_file, flag };
  struct Entry {
    std::string name;
    Kind kind;
    void* value;
    double min, max;          // ranges (integers are stored exactly in int64 bounds below)
    std::int64_t imin, imax;  // integer range
    std::string help;
    std::string placeholder;
    std::string default_text;
  };

  Entry& declare(const std::string& name, Kind kind, void* value, const std::string& help);
  Entry* find(const std::string& name);
  void assign(Entry& entry, const std::string& text);

  std::string program_;
  std::string description_;
  std::vector<Entry> entries_;
  std::vector<std::function<std::string()>> rules_;
};

}  // namespace lab
