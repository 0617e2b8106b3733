/// @file command_line.hpp
/// @brief A chapter's command line, declared once: each option is bound to the
/// variable that holds its default, and the same table parses (with CLI11),
/// checks ranges, writes `--help` and lists the values for the report.
///
/// @code
///   std::int64_t n = 1 << 20;
///   lab::Options options("ch01_kernel_launch", "Launch a kernel three ways.");
///   options.add("n", &n, 1, std::int64_t{1} << 40, "elements per vector");
///   if (options.parse(argc, argv) == lab::Options::Parsed::help) return 0;
/// @endcode
///
/// `--name value` or `--name=value`; a switch is `--name` or `--name=false`.
/// An integer takes a suffix, k M G (powers of 1000) or Ki Mi Gi Ti (powers of
/// 1024), or is a power of two written `2^k`, as format_count() writes it.
/// Every error throws lab::UsageError (exit code 2) naming the option, most as
/// `--name: what is wrong`: a value out of range or not a number, a missing
/// value (a value starting with `--` is an option, not a value: `--x -1` is
/// fine), an option given twice, an unknown option, a stray argument, an output
/// file that cannot be written. `--help` prints the help whatever else is on
/// the line (unless it stands where a value is due: `--json --help`). CLI11 is
/// used only inside options.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fields.hpp"

namespace CLI {
class App;
}

namespace lab {

/// Writes @p value exactly, as a learner would type it: with the largest of
/// Ki..Ti, else of M, G, that leaves at most four digits ("64Mi", "1536Mi",
/// "100M", but "1000"); else a power of two from 2^10 as "2^k"; else its digits.
/// An integer option reads every form back.
std::string format_count(std::int64_t value);

/// The option table of one program.
class Options {
 public:
  /// What parse() found.
  enum class Parsed {
    run,  ///< go on: every option was valid
    help  ///< `--help` was given and printed: exit with code 0
  };

  /// @p program and @p description are shown by `--help`.
  Options(std::string program, std::string description);
  Options(Options&&) noexcept;             ///< moves the table (its CLI11 app is held by pointer)
  Options& operator=(Options&&) noexcept;  ///< moves the table
  ~Options();                              ///< defined where CLI11's app is a complete type

  /// An integer option with an inclusive range; the default is `*value`.
  Options& add(const std::string& name, std::int64_t* value, std::int64_t min, std::int64_t max,
               const std::string& help);
  /// A floating-point option with an inclusive range; the default is `*value`.
  Options& add(const std::string& name, double* value, double min, double max, const std::string& help);
  /// A file the program will write (`--json PATH`), checked at parse time
  /// (lab::check_output_file()) so that a bad path fails before any GPU work.
  Options& add_output_file(const std::string& name, std::string* value, const std::string& help);
  /// A switch: present means true. `--name=false` (or 0, off) turns it off again.
  Options& add_flag(const std::string& name, bool* value, const std::string& help);

  /// A rule a range cannot express ("a multiple of 32"), run after parsing:
  /// a non-empty message makes parse() throw lab::UsageError with it.
  Options& add_rule(std::function<std::string()> rule);

  /// Parses the command line (argv[0] is skipped). Throws lab::UsageError.
  Parsed parse(int argc, const char* const* argv);
  /// The `--help` text, generated from the table.
  std::string help() const;
  /// The current value of every option, in the order they were added.
  Fields fields() const;

 private:
  std::unique_ptr<CLI::App> app_;
  std::vector<std::pair<std::string, std::function<Value()>>> values_;  // for fields()
  std::vector<std::function<std::string()>> rules_;
};

}  // namespace lab
