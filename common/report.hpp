/// @file report.hpp
/// @brief What a chapter prints and what it writes to `--json PATH`.
///
/// Tables on stdout are for reading; the JSON file is for comparing runs and
/// regenerating the tables in the docs. Every chapter writes the same shape:
/// @code{.json}
/// { "chapter": "01_kernel_launch", "date": "...", "device": {...}, "options": {...},
///   "results": [ {"name", "unit", "samples", "count", "min", "q1", "median", "q3",
///                 "max", "mean", "stddev", "cv", ...extra fields} ],
///   "checks":  [ {"name", "passed", "detail"} ],
///   "passed": true }
/// @endcode
#pragma once

#include <string>
#include <vector>

#include "fields.hpp"  // lab::fixed()
#include "json.hpp"
#include "statistics.hpp"

namespace lab {

/// An aligned text table: a header naming each column with its unit, a rule,
/// then the rows. Text columns are left-aligned, number columns right-aligned.
class Table {
 public:
  /// One column of a table.
  struct Column {
    std::string header;       ///< what the column holds
    std::string unit;         ///< its unit ("ms", "GB/s"), or "" for none
    bool align_right = true;  ///< numbers align right, text left
  };

  /// A table with these columns.
  explicit Table(std::vector<Column> columns);
  /// Adds a row; throws std::invalid_argument unless it has one cell per column.
  void add_row(std::vector<std::string> cells);
  /// The table as text, each line ending in '\n'.
  std::string render() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// One pass/fail verdict a chapter computed from what it measured.
struct Check {
  std::string name;    ///< what was checked
  bool passed;         ///< the verdict
  std::string detail;  ///< the numbers behind it
};

/// Collects a chapter's results and checks, and writes them out.
class Report {
 public:
  /// @param chapter e.g. "01_kernel_launch"
  /// @param device  the device summary (DeviceInfo::to_json)
  /// @param options the option values (Options::to_json)
  Report(std::string chapter, Json device, Json options);

  /// Records a measured quantity with all its samples; returns their summary.
  /// @p extra holds further fields (an object), e.g. the launch configuration.
  Summary add_result(const std::string& name, const std::string& unit, const std::vector<double>& samples,
                     Json extra = Json::object());
  /// Records a verdict and prints it as "[PASS] name: detail" or "[FAIL] ...".
  /// Returns @p passed.
  bool check(const std::string& name, bool passed, const std::string& detail);
  /// Did every check pass (and was there at least one)?
  bool all_passed() const;
  /// The whole report in the shared shape.
  Json to_json() const;
  /// Prints the verdict line, writes the JSON to @p json_path unless it is
  /// empty, and returns the exit code: 0 when every check passed, else 1.
  int finish(const std::string& json_path) const;

 private:
  std::string chapter_;
  std::string date_;
  Json device_;
  Json options_;
  Json results_ = Json::array();
  std::vector<Check> checks_;
};

}  // namespace lab
